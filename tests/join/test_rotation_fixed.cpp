// count_rotation_fixed() held to brute force (every solution of reference_solutions turned
// and compared with itself) and, further out, to Burnside's lemma with the OEIS counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "join/rotation_fixed.hpp"
#include "nqueens/count.hpp"
#include "nqueens/oeis.hpp"
#include "reference/reference.hpp"

namespace {

using Columns = std::vector<int>;

// The board turned a quarter clockwise: the queen at (r, c) moves to (c, n-1-r).
Columns quarter_turned(const Columns& columns) {
  const int n = static_cast<int>(columns.size());
  Columns turned(columns.size());
  for (int row = 0; row < n; ++row) {
    const int col = columns[static_cast<std::size_t>(row)];
    turned[static_cast<std::size_t>(col)] = n - 1 - row;
  }
  return turned;
}

nqueens::RotationFixed brute_force_rotation_fixed(int n) {
  nqueens::RotationFixed fixed;
  nqueens::reference_solutions(n, [&](const Columns& columns) {
    const Columns quarter = quarter_turned(columns);
    if (quarter_turned(quarter) == columns) ++fixed.half_turn;
    if (quarter == columns) ++fixed.quarter_turn;
  });
  return fixed;
}

TEST(RotationFixed, MatchesBruteForceUpTo12) {
  for (int n = 1; n <= 12; ++n) {
    const nqueens::RotationFixed expected = brute_force_rotation_fixed(n);
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    EXPECT_EQ(fixed.half_turn, expected.half_turn) << "n = " << n;
    EXPECT_EQ(fixed.quarter_turn, expected.quarter_turn) << "n = " << n;
  }
}

TEST(RotationFixed, QuarterTurnFixedAreAmongHalfTurnFixed) {
  for (int n = 1; n <= 20; ++n) {
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    EXPECT_LE(fixed.quarter_turn, fixed.half_turn) << "n = " << n;
    if (n % 4 > 1) {
      EXPECT_EQ(fixed.quarter_turn, 0u) << "n = " << n;  // no room for orbits of 4 (and the centre)
    }
  }
}

// Burnside over the 8 symmetries: for n > 1 no reflection fixes a solution, so
// 8 * unique = total + S180 + 2 * S90. Each n here takes milliseconds at -O2.
// The integrator adds a cross-check against the DFS engine's orbit counts for n = 13..16:
// S90 = 2 * orbit2 + orbit1 and S180 = orbit1 + 2 * orbit2 + 4 * orbit4.
TEST(RotationFixed, BurnsideWithOeisCounts) {
  for (int n = 2; n <= 20; ++n) {
    const std::uint64_t total = *nqueens::oeis_total(n);
    const std::uint64_t unique = *nqueens::oeis_unique(n);
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    EXPECT_EQ(fixed.half_turn + 2 * fixed.quarter_turn, 8 * unique - total) << "n = " << n;
  }
}

// Every fixed solution ends its search on a queen of its own, so the searches place at least as
// many queens as they find solutions; and they are the sliver the header promises: under a
// tenth of the queens the full depth-first search places, without symmetry, from N = 10.
TEST(RotationFixed, PlacesAtLeastOneQueenPerSolutionAndFewerThanTheFullSearch) {
  for (int n = 4; n <= 14; ++n) {
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    EXPECT_GE(fixed.nodes, fixed.half_turn + fixed.quarter_turn) << "n = " << n;
    if (n < 10) continue;
    nqueens::CountOptions whole;
    whole.engine = "dfs";
    whole.settings = {{"symmetry", "none"}};
    whole.threads = 1;
    const nqueens::Count full_search = nqueens::count(n, whole).totals.nodes;
    EXPECT_LT(nqueens::Count{fixed.nodes} * 10, full_search) << "n = " << n;
  }
}

TEST(RotationFixed, RejectsNOutside1To32) {
  EXPECT_THROW(nqueens::count_rotation_fixed(0), std::invalid_argument);
  EXPECT_THROW(nqueens::count_rotation_fixed(-1), std::invalid_argument);
  EXPECT_THROW(nqueens::count_rotation_fixed(33), std::invalid_argument);
  EXPECT_NO_THROW(nqueens::count_rotation_fixed(1));
}

}  // namespace
