#pragma once
// The join's cost model: what a unit takes on one core, predicted before anything is counted.
// Every place that prices a join run reads it: the order units are counted in, the shards'
// balance, MPI's draws, the progress line's share of work and its ETA, `plan`'s strata, and the
// warning before a whole count (through the per-N sums in docs/data/join-unit-costs.csv).
//
// A row set's halves are estimated from the placements per quadrant row set, as if each
// quadrant's placements spread evenly over its column sets. Its time is the enumeration of
// those halves plus the matcher's time for the two sides, priced as the matcher prices its own
// choices (match_cost.hpp): the smaller side loaded in blocks, split into slots where both sides
// are large (a bit set in half the keys of each side spares a quarter of the block-queries),
// the width the model finds cheapest up to the matcher's widest. The constants that turn that
// work into seconds are fitted to units timed whole (scripts/dev/fit-unit-costs.py).
#include <cstdint>
#include <vector>

#include "join/join_plan.hpp"

namespace nqueens::join {

//! The work of a unit, before calibration.
struct UnitWork {
  double row_sets = 0;    //!< row sets the unit counts
  double halves = 0;      //!< east + west halves enumerated, estimated
  double matcher_ns = 0;  //!< the matcher's own price of matching them (match_cost.hpp)
};

//! Nanoseconds per item of UnitWork on one core. Fitted by scripts/dev/fit-unit-costs.py to units
//! of N = 16 to 24 timed whole by their thread's CPU clock on a 2-core x86-64 machine with
//! AVX-512 (docs/data/join-unit-fit.csv holds the fit and how well it holds per N), one set for
//! even N and one for odd N: off-centre units are many small row sets, and the halves the model
//! estimates for them err differently.
struct UnitCostConstants {
  double row_set_ns = 0;
  double half_ns = 0;
  double matcher_scale = 0;  //!< measured matcher time per ns of its price
};
//! The constants for boards of n.
const UnitCostConstants& unit_cost_constants(int n);

//! The matcher's price, in its own nanoseconds (match_cost.hpp), of sides of `east` and `west`
//! halves: one by one, bit-sliced, or split into the cheapest number of slots.
double matcher_price_ns(double east, double west);

//! The ranks g(C) (diagonal_fold.hpp) of every k-bit column set, sorted, by the sets' sizes: the
//! fold keeps a side's halves whose north columns rank at least the unit's rank. Reversing a set
//! keeps its size, so one table serves both sides.
class FoldRanks {
 public:
  explicit FoldRanks(int k);
  //! The share of column sets of `size` bits that rank at least `rank`.
  double share_at_least(int size, std::uint32_t rank) const;

 private:
  std::vector<std::vector<std::uint32_t>> by_size_;
};

//! The model for one n: what it reads, made once (the placements per quadrant row set, the
//! fold's ranks) and shared by every unit, from any thread.
class UnitCostModel {
 public:
  explicit UnitCostModel(int n);
  UnitWork work(const JoinUnit& unit) const;
  //! The unit's predicted nanoseconds on one core, at least 1: what Engine::cost() holds.
  std::uint64_t cost(const JoinUnit& unit) const;

 private:
  int n_;
  const UnitCostConstants& constants_;
  const std::vector<std::uint64_t>& per_row_set_;
  FoldRanks ranks_;
};

//! The predicted time, in nanoseconds on one core, of a unit of that work.
double predicted_ns(const UnitWork& work, const UnitCostConstants& constants);

//! Every unit's UnitCostModel::cost, in the plan's order, computed in parallel.
std::vector<std::uint64_t> estimated_costs(const JoinPlan& plan);

}  // namespace nqueens::join
