#pragma once
// Counts chosen units of a run on a oneTBB arena and times each one twice: by its thread's CPU
// clock (the work the unit costs, whatever else shares the cores) and by the steady clock (what a
// journal records: the CPU time plus any time the thread waited for a core).
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "engine/engine.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/run_arena.hpp"

namespace nqueens::plan {

struct TimedUnit {
  UnitCount unit;              //!< id, counts, and the steady-clock time as a journal records it
  double cpu_seconds = 0;      //!< the thread's CPU time over the kernel call
  double wall_seconds = 0;     //!< the steady clock over the kernel call
  double prepare_seconds = 0;  //!< the steady clock over UnitCounter::prepare, before the call
};

//! One part of a unit (UnitCounter::count_part), to be timed.
struct UnitPart {
  std::size_t id = 0;
  std::size_t part = 0;
};

//! A part's times, as TimedUnit's (its counts are only the part's, so none are kept).
struct TimedPart {
  UnitPart part;
  double cpu_seconds = 0;
  double wall_seconds = 0;
  double prepare_seconds = 0;
};

//! One per plan: its per-thread counters live across calls, so a counter's buffers grow once, as
//! in a real run, not in every batch.
class UnitTimer {
 public:
  //! Counts on `arena`, the one the engine was built in (a command has one arena).
  UnitTimer(const Engine& engine, RunArena& arena);
  //! Counts on an arena of its own of `threads` threads (tests).
  UnitTimer(const Engine& engine, int threads);
  //! Counts `ids` (distinct ids of the engine's run), costliest first, on the timer's threads.
  //! Each unit is prepared first and then timed: a run orders its units so that neighbours share
  //! what they build (the join's slices), which a scattered sample would pay for in every unit.
  std::vector<TimedUnit> count(std::span<const std::size_t> ids);
  //! Counts `parts` on the timer's threads, each prepared first and then timed on its own,
  //! timed[i] for parts[i]. Parts that read one shared part (Engine::shared_part_of) are counted
  //! in turn on one thread, that part first, so that none builds its work again.
  std::vector<TimedPart> count_parts(std::span<const UnitPart> parts);

 private:
  std::vector<std::vector<std::size_t>> part_groups(std::span<const UnitPart> parts) const;
  TimedPart time_part(UnitCounter& counter, const UnitPart& part) const;

  const Engine& engine_;
  std::unique_ptr<RunArena> own_arena_;  //!< only for a timer made with a thread count
  RunArena& arena_;
  CounterPool counters_;
  double clock_overhead_;  //!< CPU seconds that reading the thread's CPU clock twice adds to an interval
};

}  // namespace nqueens::plan
