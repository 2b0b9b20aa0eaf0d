#pragma once
// The threads of one run: a oneTBB arena and the allowance that lets TBB start them
// (engine/thread_allowance.hpp), made once where the run is made and kept for its whole life.
// The engine's setup (the join's tables, every unit list and cost estimate) and the counting run
// in this one arena, so that --threads 1 means one thread from the first table on and a run's
// threads are started and proven once, not once for the setup and again for the count. In a
// program its workers block the signals that stop a count (system/stop_signals.hpp): the main
// thread hears them.
#include <utility>

#include <oneapi/tbb/task_arena.h>

#include "engine/thread_allowance.hpp"

namespace nqueens {

class RunArena {
 public:
  //! Whether the thread that makes the arena also works in it: `joins` (count, `nqueens count`:
  //! it runs the setup and then waits in the count as one of the `threads`), or `stays_apart`
  //! (an MPI rank, whose main thread stays free for the network: `threads` workers besides it).
  enum class Caller { joins, stays_apart };

  //! Throws std::invalid_argument for fewer than one thread, and ThreadsUnavailable when the
  //! system cannot start them.
  explicit RunArena(int threads, Caller caller = Caller::joins);
  RunArena(const RunArena&) = delete;
  RunArena& operator=(const RunArena&) = delete;

  int threads() const { return threads_; }

  //! The arenas this process has made so far: a command makes one for all its N, which tests check.
  static int made();

  //! Runs `work` in the arena on the calling thread (its parallel loops use the run's threads)
  //! and returns what it returns.
  template <typename Work>
  auto execute(Work&& work) -> decltype(work()) {
    return arena_.execute(std::forward<Work>(work));
  }

  //! For a caller that only hands work in (tbb::task_arena::enqueue): an MPI rank.
  tbb::task_arena& arena() { return arena_; }

 private:
  // Starts the arena's `workers` now, with the stop signals blocked (run_arena.cpp).
  void start_workers(int workers);

  int threads_;
  detail::ThreadAllowance allowance_;
  tbb::task_arena arena_;
};

}  // namespace nqueens
