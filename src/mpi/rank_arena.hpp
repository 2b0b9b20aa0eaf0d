#pragma once
// One rank's cores: the run's arena (run/run_arena.hpp, made with Caller::stays_apart), whose
// threads count the units the rank's main thread hands them. The main thread never joins the arena, so it stays free
// for MPI (which only it may call, MPI_THREAD_FUNNELED) and tops the arena up while every worker is deep in a unit: the
// arena never drains between draws the way it would if each draw were a blocking run_units.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "engine/engine.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/run_arena.hpp"

namespace nqueens::mpi {

class RankArena {
 public:
  //! Counts on `arena`, the run's (made with RunArena::Caller::stays_apart), which must outlive it.
  RankArena(const Engine& engine, RunArena& arena);
  //! Drops the units not started and waits for those running (a failing rank has let them end
  //! first, and the job's end waits for them anyway).
  ~RankArena();
  RankArena(const RankArena&) = delete;
  RankArena& operator=(const RankArena&) = delete;

  //! Queues a batch of units (one unit, or an Engine::batch_starts batch, which one thread
  //! counts together) of estimated cost `cost`; a free thread starts it. Batches start in the
  //! order submitted.
  void submit(std::span<const std::size_t> ids, double cost);

  std::size_t in_flight() const;  //!< units submitted, not finished

  //! The arena wants more units: none waits, or the waiting units' estimated cost is below the
  //! low water mark. Never while the mark is unset (nullopt: nothing left to draw).
  bool hungry() const;
  void set_low_water(std::optional<double> cost);

  //! The units finished since the last call. Rethrows the first exception a unit threw.
  std::vector<UnitCount> take_finished();

  //! Sleeps until the arena is hungry, a unit fails, the last unit in flight finishes, or
  //! `timeout` passes. Finished units alone do not wake it: they wait for the next look.
  void wait(std::chrono::milliseconds timeout);

  //! Units submitted but not started are dropped; those running finish.
  void stop();

  //! A test setting (NQUEENS_MPI_OUT_OF_MEMORY_AT): the batch holding the `unit`-th unit this
  //! rank starts (from 1) throws std::bad_alloc in place of its count, as a unit whose allocation
  //! fails mid-count does.
  void fail_as_out_of_memory_at(std::size_t unit);

 private:
  struct Queued {
    std::vector<std::size_t> ids;
    double cost;
  };

  void run();                  //!< a runner: one per busy thread
  bool hungry_locked() const;  //!< hungry(), with lock_ held

  const Engine& engine_;
  int threads_;
  CounterPool counters_;  //!< each worker's own kernel state
  RunArena& arena_;
  mutable std::mutex lock_;  //!< taken once per batch, never inside the search
  std::condition_variable changed_;
  std::deque<Queued> queue_;         //!< guarded by lock_: submitted, not started
  double waiting_cost_ = 0;          //!< guarded by lock_: the estimated cost of the queue
  int runners_ = 0;                  //!< guarded by lock_: runner tasks enqueued or running
  std::optional<double> low_water_;  //!< guarded by lock_
  std::size_t in_flight_ = 0;        //!< guarded by lock_
  bool stopped_ = false;             //!< guarded by lock_
  std::vector<UnitCount> finished_;  //!< guarded by lock_
  std::exception_ptr error_;         //!< guarded by lock_
  std::size_t started_ = 0;          //!< guarded by lock_: units started
  std::size_t fail_at_ = 0;          //!< guarded by lock_: the test setting's unit, 0 for none
};

}  // namespace nqueens::mpi
