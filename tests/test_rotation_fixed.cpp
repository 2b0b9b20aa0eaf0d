// The rotation-symmetric solution counts against brute force (every reference solution turned
// square by square) and against Burnside's identity with the published tables.
#include <gtest/gtest.h>

#include <stdexcept>

#include "nqueens/oeis.hpp"
#include "reference.hpp"
#include "rotation_fixed.hpp"
#include "test_support.hpp"

namespace {

TEST(RotationFixed, MatchesBruteForceUpTo11) {
  for (int n = 1; n <= 11; ++n) {
    std::uint64_t half = 0, quarter = 0;
    nqueens::reference_solutions(n, [&](const std::vector<int>& board) {
      half += test_support::image(board, 3) == board ? 1 : 0;
      quarter += test_support::image(board, 6) == board ? 1 : 0;
    });
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    EXPECT_EQ(fixed.half_turn, half) << "n=" << n;
    EXPECT_EQ(fixed.quarter_turn, quarter) << "n=" << n;
  }
}

// For n > 1 no solution is its own mirror image, so 8 unique = total + S180 + 2 S90.
TEST(RotationFixed, SatisfyBurnsidesIdentityWithTheOeisUpTo18) {
  for (int n = 2; n <= 18; ++n) {
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    EXPECT_LE(fixed.quarter_turn, fixed.half_turn) << "n=" << n;
    EXPECT_EQ(8 * *nqueens::oeis_unique(n), *nqueens::oeis_total(n) + fixed.half_turn + 2 * fixed.quarter_turn)
        << "n=" << n;
  }
}

TEST(RotationFixed, BoardSizesOutsideTheLimitsThrow) {
  EXPECT_THROW(nqueens::count_rotation_fixed(0), std::invalid_argument);
  EXPECT_THROW(nqueens::count_rotation_fixed(33), std::invalid_argument);
  EXPECT_EQ(nqueens::count_rotation_fixed(1).quarter_turn, 1u);
}

}  // namespace
