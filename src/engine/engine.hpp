#pragma once
// The engine interface: what every engine gives the rest of the pipeline. An engine is a splitter
// (N -> an ordered list of work units, each with a cost computed once) plus a kernel (unit ->
// counts). The scheduler, the session (journal, ledger, result), shards, MPI and progress see
// only this interface, so a second engine brings its split and its kernel and nothing else.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <oneapi/tbb/enumerable_thread_specific.h>

#include "engine/zeroed_array.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/options.hpp"

namespace nqueens {

//! Counts units of one engine. Each worker thread owns one: a kernel may keep scratch buffers
//! in it (the join engine keeps its matcher there) without locks.
class UnitCounter {
 public:
  virtual ~UnitCounter() = default;
  virtual Tally count(std::size_t id) = 0;
  //! Makes what a run builds once and shares between neighbouring units (the join's
  //! quarter-table slices), so that timing a unit on its own, as `plan` does, leaves it out.
  virtual void prepare(std::size_t /*id*/) {}
  //! Counts part `part` of unit `id` (0 <= part < Engine::part_count(id)), prepared as prepare()
  //! does for the whole unit but only what that part reads: an exact share of the unit's work,
  //! whose time `plan` scales by what the unit holds where a whole unit is beyond its budget.
  //! Its counts are only the part's, so it returns none. Default (a unit of one part): the unit.
  virtual void prepare_part(std::size_t id, std::size_t /*part*/) { prepare(id); }
  virtual void count_part(std::size_t id, std::size_t /*part*/) { count(id); }
  //! Counts a batch of units together (Engine::batch_starts), tallies[i] for ids[i]: the same
  //! tallies as count() one by one. Default: one by one.
  virtual void count_batch(std::span<const std::size_t> ids, std::span<Tally> tallies) {
    for (std::size_t i = 0; i < ids.size(); ++i) tallies[i] = count(ids[i]);
  }
};

class Engine {
 public:
  virtual ~Engine() = default;

  //! Names the run: engine, N, symmetry, split, unit count and the unit list's fingerprint.
  const RunHeader& header() const { return header_; }
  int n() const { return header_.n; }
  std::size_t unit_count() const { return header_.unit_count; }

  //! A unit's estimated cost, in units of the engine's choosing: only for ordering and
  //! dealing work (costliest first, shards, progress), never for counts.
  std::uint64_t cost(std::size_t id) const { return costs_[id]; }
  //! Whether cost() predicts a unit's time (a cost model fitted to timed units), rather than only
  //! ranking units: then a plan carries the rate of the bands it timed to those it could not as
  //! a level (seconds per unit of cost the same everywhere), not as a trend.
  virtual bool costs_predict_time() const { return false; }
  //! Into how many exact parts unit `id` splits for UnitCounter::count_part (the join: its row
  //! sets, each counted on its own). Default: 1, the unit is not split.
  virtual std::size_t part_count(std::size_t /*id*/) const { return 1; }
  //! The shared part whose work part `part` of unit `id` reads (the join's enumeration of a row
  //! set's sides, which its shares read): `part` itself where it is that shared part; none where it
  //! neither is one nor reads one. A counter that has just counted a shared part holds its work,
  //! one that has not builds it first, untimed; `plan` times a shared part with every sample of
  //! the unit, and scales only the others. Default: no part is shared.
  virtual std::optional<std::size_t> shared_part_of(std::size_t /*id*/, std::size_t /*part*/) const {
    return std::nullopt;
  }
  //! Whether part `part` of unit `id` is a shared part (shared_part_of).
  bool part_is_shared(std::size_t id, std::size_t part) const { return shared_part_of(id, part) == part; }
  //! Every unit id, costliest first (ties by id, so the order is deterministic).
  std::span<const std::size_t> costliest_first() const { return {order_.data(), order_.size()}; }

  virtual std::unique_ptr<UnitCounter> make_counter() const = 0;

  //! The order to count `todo` in, given costliest first (a run's to-do list): an engine whose
  //! units share cached data regroups them so that neighbours in the order share it. Only the
  //! order of execution changes, never the ids. Default: as given.
  virtual std::vector<std::size_t> execution_order(std::vector<std::size_t> todo) const { return todo; }

  //! Where an execution order splits into batches that one thread counts together
  //! (UnitCounter::count_batch), as the position of each batch's first unit, ascending from 0: an
  //! engine whose neighbouring units read the same data, more than its cache holds, reads it once
  //! per batch. Empty (the default): every unit on its own.
  virtual std::vector<std::size_t> batch_starts(std::span<const std::size_t> /*order*/) const { return {}; }

  //! Where an execution order splits into deals, runs of batches that one thread takes from the
  //! scheduler together, each of its batches still counted and timed on its own: an engine whose
  //! threads each cache what neighbouring units share would otherwise build it on every thread.
  //! Positions ascending from 0, as batch_starts; a deal begins at the first batch that starts at
  //! or after its position. `threads`: how many take deals. Empty (the default): every batch a deal.
  virtual std::vector<std::size_t> deal_starts(std::span<const std::size_t> /*order*/, int /*threads*/) const {
    return {};
  }

  //! One line for the log: the split, and what the engine built for the run (its memory).
  virtual std::string describe() const = 0;

  //! The most memory the run's counting holds on this many threads: tables, caches, per-thread
  //! buffers, unit list and ledger (unit_bookkeeping_bytes()). What `plan` reports before a run;
  //! the process's own code and libraries come on top.
  virtual std::uint64_t planned_memory_bytes(int threads) const = 0;

 protected:
  //! Called once by each engine's constructor, when its unit list is known.
  void set_units(RunHeader header, std::vector<std::uint64_t> costs);

  //! What every run keeps per unit whatever its engine: the cost and the costliest-first slot
  //! here, and the Run's ledger (a Tally, a time, a done flag, and the wanted and to-do ids).
  std::uint64_t unit_bookkeeping_bytes() const;

 private:
  RunHeader header_;
  std::vector<std::uint64_t> costs_;
  ZeroedArray<std::size_t> order_{0};
};

//! One UnitCounter per thread, made on a thread's first unit. Both schedulers (the one-machine
//! arena and an MPI rank's arena) take their counters from here.
class CounterPool {
 public:
  explicit CounterPool(const Engine& engine) : counters_([&engine] { return engine.make_counter(); }) {}
  UnitCounter& local() { return *counters_.local(); }

 private:
  tbb::enumerable_thread_specific<std::unique_ptr<UnitCounter>> counters_;
};

}  // namespace nqueens
