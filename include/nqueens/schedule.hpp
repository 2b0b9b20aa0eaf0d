#pragma once
// The scheduler: one oneTBB task arena runs the kernel over every unit of a plan, each thread
// adding into its own padded counters, which the reduction sums once at the end.
#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "nqueens/reduce.hpp"
#include "nqueens/split.hpp"

namespace nqueens {

//! Called once per finished unit with its id and counts, from whichever thread ran it: it must
//! be thread-safe. This is the hook journals and progress reports attach to.
using UnitObserver = std::function<void(std::size_t id, const Tally& tally)>;

//! A cheap estimate of a unit's search cost: the number of ways to extend its prefix by two
//! more rows. Used only to order work, never for counts.
std::uint64_t estimated_cost(const WorkUnit& unit, int n);

//! Unit ids sorted costliest first (ties by id, so the order is deterministic).
std::vector<std::size_t> costliest_first(const WorkPlan& plan);

//! Runs the units whose ids are listed, on `threads` threads. An empty `ids` means all units.
//! Throws std::invalid_argument for an id outside the plan or an id listed twice.
//! When `stop` is given and becomes true, no further unit is started (it is read once per unit,
//! never inside the search); units already running finish, and the totals then cover only the
//! units the observer saw.
Totals run_units(const WorkPlan& plan, int threads, const UnitObserver& observer = {},
                 const std::vector<std::size_t>& ids = {}, const std::atomic<bool>* stop = nullptr);

}  // namespace nqueens
