// The engine and the table of published counts (A000170, A002562) held to each other.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "nqueens/nqueens.hpp"

namespace {

using nqueens::to_string;

TEST(Oeis, CountMatchesA000170UpTo15WithEveryEngine) {
  for (const auto engine : {"auto", "dfs"})
    for (int n = 1; n <= 15; ++n) {
      nqueens::CountOptions options;  // the default: full symmetry
      options.engine = engine;
      const nqueens::CountResult r = nqueens::count(n, options);
      EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(n))) << "n=" << n;
      ASSERT_TRUE(r.unique.has_value());
      EXPECT_EQ(to_string(*r.unique), std::to_string(*nqueens::oeis_unique(n))) << "n=" << n;
    }
}

TEST(Oeis, SpotValues) {
  EXPECT_EQ(nqueens::oeis_total(8), 92u);
  EXPECT_EQ(nqueens::oeis_unique(8), 12u);
  EXPECT_EQ(nqueens::oeis_total(0), 1u);  // the empty board has one (empty) solution
  EXPECT_EQ(nqueens::oeis_total(27), 234907967154122528u);
  EXPECT_EQ(nqueens::oeis_unique(27), 29363495934315694u);
}

TEST(Oeis, OutsideTheTableIsNullopt) {
  EXPECT_FALSE(nqueens::oeis_total(28).has_value());
  EXPECT_FALSE(nqueens::oeis_unique(28).has_value());
  EXPECT_FALSE(nqueens::oeis_total(-1).has_value());
  EXPECT_FALSE(nqueens::oeis_unique(0).has_value());  // A002562 starts at n = 1
}

// A typo in the table would likely break these: an orbit holds 1 to 8 boards, so
// unique <= total <= 8 * unique, and beyond the first few sizes orbits are almost all of 8.
TEST(Oeis, TableIsInternallyConsistent) {
  for (int n = 1; n <= nqueens::kOeisMaxN; ++n) {
    const std::uint64_t total = *nqueens::oeis_total(n), unique = *nqueens::oeis_unique(n);
    EXPECT_LE(unique, total) << "n=" << n;
    EXPECT_LE(total, 8 * unique) << "n=" << n;
    if (n >= 10) {
      EXPECT_GT(total, 7 * unique) << "n=" << n;
    }
    if (n >= 7) {
      EXPECT_GT(total, *nqueens::oeis_total(n - 1)) << "n=" << n;
    }
  }
}

}  // namespace
