#pragma once
// The join's units counted a second way, for `check --recount --by independent`: every solution
// of a unit found one at a time by a backtracking search over the whole board, and weighed as
// the unit's count weighs it. It shares with the join only what a unit is (join_plan.hpp: its
// row set and weight) and the definition of the diagonal fold's weights, which it computes
// from each solution's queens: no quarter table, slice, half-board, key, fold part or matcher
// of the join takes part, so a fault in any of them shows as a difference.
#include <cstdint>

#include "join/join_plan.hpp"

namespace nqueens::join {

struct SearchCount {
  std::uint64_t total = 0;  //!< what the join's tally records as the unit's total
  std::uint64_t nodes = 0;  //!< queens the search placed (not the join's halves)
};

//! A row-set unit's total: every solution whose queens on the rows of R stand in the east
//! columns and the others in the west ones (off centre, R's north rows only: its south rows take
//! either half), with the fixed queens of the centre and off-centre cases, each weighed by the
//! diagonal fold (diagonal_fold.hpp: 2, 1 or 0 as the rank of its north columns is above, equal
//! to or below the rank of R's rows; 1 off centre), times the unit's weight.
SearchCount search_unit(int n, const JoinUnit& unit);

struct SearchRotation {
  std::uint64_t half_turn = 0;     //!< S180: solutions equal to their half turn
  std::uint64_t quarter_turn = 0;  //!< S90: of those, the ones equal to their quarter turn
  std::uint64_t nodes = 0;
};

//! The rotation unit's counts: the half-turn symmetric solutions, built from row 0 down with
//! each queen's image checked, and among them those a quarter turn leaves alone, found by
//! turning each one. n in 1..32.
SearchRotation search_rotation(int n);

}  // namespace nqueens::join
