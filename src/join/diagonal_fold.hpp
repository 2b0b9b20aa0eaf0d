#pragma once
// The diagonal reflection, folded into the even and centre units (docs/algorithm.md, "Symmetry:
// units and weights").
//
// Transposing the board, (r, c) -> (c, r), maps a solution whose east queens lie on the rows R
// and whose north queens lie on the columns C to one with east rows C and north columns R. So
// the solutions N(R, C) of each pair of sets satisfy N(R, C) = N(C, R). A unit R weighs each of
// its (east, west) pairs by w(R, C) = 2, 1 or 0 as rank(C) is above, equal to or below rank(R):
// over a transposed pair the weights add up to 2, so the total is unchanged, and the pairs of
// weight 0 (about half of them) are never tested. The rank is a number that the axis
// reflections (which the units already fold) leave alone, so a unit still stands for its whole
// orbit: rank(X) = min(g(X north or east), g(reversed X south or west)), g(x) = min(x, ~x).
//
// A pair's C is the north columns of its east half and of its west half: rank(C) = min(a, b) with
// a from the east half's north-east columns and b from the west half's north-west ones. So a
// unit only needs the halves with a (or b) at least its rank, and counts
//   2 * pairs(a > rank, b > rank) + pairs(a = rank, b >= rank) + pairs(a > rank, b = rank).
#include <cstdint>

#include "join/disjoint_count.hpp"
#include "join/join_layout.hpp"

namespace nqueens::join {

//! How one side of a unit ranks the column sets of its north quadrant.
struct SideFold {
  int k = 0;
  bool reversed = false;   //!< the west side: its columns count from the far edge
  std::uint32_t rank = 0;  //!< the unit's rank: halves below it are left out

  //! a (east) or b (west) of a half whose north quadrant fills the local columns `columns`.
  std::uint32_t value(std::uint32_t columns) const;
};

//! The weights of a unit's pairs by the parts their halves are in, each side's halves ranking
//! equal to the unit's first and those ranking above it second.
inline constexpr PartWeights kFoldWeights = {{{1, 1}, {1, 2}}};

struct DiagonalFold {
  SideFold east, west;
};

//! The fold of a unit of the even or centre case (the off-centre units fix two queens that the
//! transposition moves, and are folded by their (a, b) already).
DiagonalFold diagonal_fold(const UnitLayout& layout);

//! g(x) = min(x, x's complement), for k-bit x.
std::uint32_t complement_rank(std::uint32_t x, int k);
//! x's k low bits in reverse order.
std::uint32_t reverse_bits(std::uint32_t x, int k);

}  // namespace nqueens::join
