#pragma once
// Where a unit's two halves lie on the board: their quadrants, the rows and columns each
// quadrant fills, and the diagonals fixed queens forbid. Diagonals are numbered on the whole
// board: "sum" r + c and "difference" r - c + n - 1, 2n - 1 of each.
#include <bit>
#include <cstdint>

#include "join/join_plan.hpp"

namespace nqueens::join {

struct Quadrant {
  int row0 = 0, col0 = 0;  //!< top-left square in board coordinates
  bool operator==(const Quadrant&) const = default;
};

//! One half: k (or k - 1) queens, split between a north and a south quadrant.
struct SideLayout {
  Quadrant north, south;
  std::uint32_t north_rows = 0;  //!< rows filled in the north quadrant, local k-bit mask
  std::uint32_t south_rows = 0;  //!< likewise in the south quadrant
  std::uint32_t columns = 0;     //!< local columns the half fills (all k but a fixed queen's)
};

struct UnitLayout {
  int n = 0;
  int k = 0;              //!< quadrant side
  int crossing_low = 0;   //!< lowest diagonal (either family) that crosses both halves
  int crossing_bits = 0;  //!< 2k - 1 crossing diagonals per family
  std::uint64_t forbidden_sums = 0, forbidden_differences = 0;  //!< the fixed queens' diagonals
  SideLayout east, west;

  int key_bits() const { return 2 * crossing_bits; }
};

UnitLayout layout_of(int n, const JoinUnit& unit);

//! Rows the two halves share out (R is drawn from them): all but an odd board's middle row
//! and, off centre, the middle column queen's row k + b.
std::uint32_t free_rows(int n, JoinCase kind, int b);

}  // namespace nqueens::join
