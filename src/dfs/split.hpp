#pragma once
// The task splitter: turns (N, symmetry mode, split depth) into an ordered, deterministic list
// of work units. A unit's id is its index in `WorkPlan::units`; the same inputs always give the
// same list, which is what lets later features address work by id.
#include <cstdint>
#include <vector>

#include "dfs/work_unit.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/symmetry.hpp"

namespace nqueens {

struct WorkPlan {
  int n = 0;
  Symmetry symmetry = Symmetry::none;
  int split_depth = 0;          //!< rows fixed by the splitter (clamped to n for tiny boards)
  std::vector<WorkUnit> units;  //!< ordered by prefix, lexicographically
};

//! The depth chosen when the user gives none. It depends on N alone, never on the thread
//! count, so a run's unit list is the same on every machine.
int auto_split_depth(int n);

//! Enumerates the prefixes. `depth` 0 means automatic; otherwise it must lie in
//! [kMinSplitDepth, kMaxSplitDepth]. Throws std::invalid_argument on a bad n or depth.
WorkPlan split(int n, Symmetry symmetry, int depth = 0);

//! A cheap estimate of a unit's search cost: the number of ways to extend its prefix by two
//! more rows. Used only to order work, never for counts.
std::uint64_t estimated_cost(const WorkUnit& unit, int n);

//! The header of a dfs run over `plan`, written by this build.
RunHeader make_header(const WorkPlan& plan);

//! A 64-bit FNV-1a hash of everything that defines the plan: two plans with the same
//! fingerprint have the same units in the same order.
std::uint64_t fingerprint(const WorkPlan& plan);

}  // namespace nqueens
