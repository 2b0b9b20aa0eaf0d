// classify() and full mode held to the brute-force orbit census of test_support.hpp, which
// moves queens as squares under the 8 symmetries instead of using the library's formulas.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "nqueens/nqueens.hpp"
#include "support/test_support.hpp"

namespace {

using test_support::Board;
using test_support::brute_orbit;

nqueens::Orbit classify(const Board& board) {
  const std::vector<std::uint8_t> columns(board.begin(), board.end());
  return nqueens::classify(columns);
}

TEST(Canonical, QuarterTurnSymmetricBoard) {
  // {1,3,0,2} turns into itself; its only other image is the mirror {2,0,3,1}, which is larger.
  const nqueens::Orbit orbit = classify({1, 3, 0, 2});
  EXPECT_TRUE(orbit.canonical);
  EXPECT_EQ(orbit.size, 2);
}

TEST(Canonical, QuarterTurnSymmetricBoardWithCentreQueen) {
  // 5 x 5: queens (0,1) (1,4) (2,2) (3,0) (4,3); a quarter turn (r,c) -> (c,4-r) permutes them.
  const nqueens::Orbit orbit = classify({1, 4, 2, 0, 3});
  EXPECT_TRUE(orbit.canonical);
  EXPECT_EQ(orbit.size, 2);
}

TEST(Canonical, MirrorImageOfACanonicalBoardIsNotCanonical) {
  EXPECT_FALSE(classify({2, 0, 3, 1}).canonical);
  EXPECT_FALSE(classify({3, 0, 2, 4, 1}).canonical);
  // The mirror image of the first 8 x 8 solution, 0 4 7 5 2 6 1 3.
  EXPECT_FALSE(classify({7, 3, 0, 2, 5, 1, 6, 4}).canonical);
}

TEST(Canonical, AsymmetricBoardHasAFullOrbit) {
  const nqueens::Orbit orbit = classify({0, 4, 7, 5, 2, 6, 1, 3});  // least of all 8 x 8 solutions
  EXPECT_TRUE(orbit.canonical);
  EXPECT_EQ(orbit.size, 8);
}

TEST(Canonical, SingleQueenAndTheDiagonal) {
  EXPECT_EQ(classify({0}).size, 1);
  EXPECT_TRUE(classify({0}).canonical);
  // Not a solution, but a permutation: the main diagonal's images are itself and the anti-diagonal.
  const nqueens::Orbit diagonal = classify({0, 1, 2, 3, 4});
  EXPECT_TRUE(diagonal.canonical);
  EXPECT_EQ(diagonal.size, 2);
}

// classify() accepts any permutation, so compare it with the brute force on all of them.
TEST(Canonical, AgreesWithBruteForceOnEveryPermutation) {
  for (int n = 1; n <= 7; ++n) {
    Board board(static_cast<std::size_t>(n));
    std::iota(board.begin(), board.end(), 0);
    do {
      const auto expected = brute_orbit(board);
      const nqueens::Orbit got = classify(board);
      ASSERT_EQ(got.canonical, expected.canonical) << ::testing::PrintToString(board);
      if (expected.canonical) {
        ASSERT_EQ(got.size, expected.size) << ::testing::PrintToString(board);
      }
    } while (std::next_permutation(board.begin(), board.end()));
  }
}

TEST(Canonical, BruteForceCensusIsSelfConsistent) {
  for (int n = 1; n <= 10; ++n) {
    const test_support::Census c = test_support::census(n);
    EXPECT_TRUE(c.sizes_agree) << "n=" << n;
    const std::uint64_t boards = c.orbits[0] + 2 * c.orbits[1] + 4 * c.orbits[2] + 8 * c.orbits[3];
    EXPECT_EQ(boards, nqueens::reference_count(n)) << "n=" << n;
  }
}

TEST(Canonical, FullModeOrbitsMatchTheBruteForceCensus) {
  for (int n = 1; n <= 10; ++n) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    const test_support::Census c = test_support::census(n);
    const nqueens::CountResult r = nqueens::count(n, test_support::options(nqueens::Symmetry::full));
    for (std::size_t slot = 0; slot < c.orbits.size(); ++slot)
      EXPECT_EQ(nqueens::to_string(r.totals.orbits[slot]), std::to_string(c.orbits[slot])) << "orbit slot " << slot;
    ASSERT_TRUE(r.unique.has_value());
    EXPECT_EQ(nqueens::to_string(*r.unique), std::to_string(c.orbit_count));
  }
}

}  // namespace
