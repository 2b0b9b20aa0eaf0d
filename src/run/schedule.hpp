#pragma once
// The scheduler: the run's oneTBB arena (run_arena.hpp) runs an engine's kernel over the units
// asked for, each thread adding into its own padded counters, which the reduction sums once at
// the end.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "engine/engine.hpp"
#include "nqueens/counts.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/run_arena.hpp"

namespace nqueens {

//! Called once per finished unit with its id, counts and time (always set), from whichever
//! thread ran it. Internal: the public UnitObserver keeps its (id, tally) signature.
using TimedUnitObserver = std::function<void(const UnitCount& unit)>;

//! Runs the units of `order` (distinct ids of the run), starting them in that order, on the
//! run's arena; each thread adds into its own counters, and the reduction sums them once
//! at the end into the returned totals. When `stop` is given and becomes true, no further unit is
//! started (it is read once per unit, never inside the search); units already running finish,
//! and the totals then cover only the units the observer saw. Each unit's time is the steady
//! clock around its kernel call.
Totals run_timed_units(const Engine& engine, RunArena& arena, const TimedUnitObserver& observer,
                       std::span<const std::size_t> order, const std::atomic<bool>* stop = nullptr);

//! run_timed_units for an observer of ids and counts only, over the listed ids in the engine's
//! costliest-first order (any order, no repeats; empty: every unit). Throws
//! std::invalid_argument for an id outside the run or one listed twice. On an arena of its own
//! of `threads` threads: for an engine built apart from any run (tests, a unit's recount).
Totals run_units(const Engine& engine, int threads, const UnitObserver& observer = {},
                 const std::vector<std::size_t>& ids = {}, const std::atomic<bool>* stop = nullptr);

//! Counts one batch, a unit alone or the units of an Engine::batch_starts batch, on `counter`,
//! and appends each unit with its tally and time to `done`. Only a whole batch is timed, so its
//! units share its time in proportion to their estimated costs.
void count_timed_batch(const Engine& engine, UnitCounter& counter, std::span<const std::size_t> ids,
                       std::vector<UnitCount>& done);

//! Microseconds from `start` to now on the steady clock, rounded to the nearest: the time of one
//! unit as files store it. Rounding, not truncating, keeps a sum over many short units (the
//! join's of a few microseconds) unbiased. The clock is read through the vDSO (tens of ns).
std::uint64_t microseconds_since(std::chrono::steady_clock::time_point start);

}  // namespace nqueens
