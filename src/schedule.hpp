#pragma once
// The scheduler: one oneTBB task arena runs an engine's kernel over the units asked for, each
// thread adding into its own padded counters, which the reduction sums once at the end.
#include <atomic>
#include <cstddef>
#include <vector>

#include "engine_seam.hpp"
#include "nqueens/reduce.hpp"

namespace nqueens {

//! Runs the units whose ids are listed, costliest first, on `threads` threads. An empty `ids`
//! means all units. Throws std::invalid_argument for an id outside the run or an id listed twice.
//! When `stop` is given and becomes true, no further unit is started (it is read once per unit,
//! never inside the search); units already running finish, and the totals then cover only the
//! units the observer saw.
Totals run_units(const Engine& engine, int threads, const UnitObserver& observer = {},
                 const std::vector<std::size_t>& ids = {}, const std::atomic<bool>* stop = nullptr);

}  // namespace nqueens
