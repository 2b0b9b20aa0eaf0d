// The three symmetry modes search different parts of the board and weight them differently;
// that they agree on every total is one of the engine's main oracles.
#include <gtest/gtest.h>

#include <string>

#include "nqueens/nqueens.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::CountResult;
using nqueens::Symmetry;
using nqueens::to_string;

constexpr int kLargestN = 13;

CountResult run(int n, Symmetry mode) { return nqueens::count(n, test_support::options(mode)); }

TEST(SymmetryModes, AllModesGiveTheSameTotal) {
  for (int n = 1; n <= kLargestN; ++n) {
    const std::string none = to_string(run(n, Symmetry::none).totals.total);
    EXPECT_EQ(to_string(run(n, Symmetry::mirror).totals.total), none) << "n=" << n;
    EXPECT_EQ(to_string(run(n, Symmetry::full).totals.total), none) << "n=" << n;
  }
}

TEST(SymmetryModes, UniqueOnlyInFullModeAndMatchesA002562) {
  for (int n = 1; n <= kLargestN; ++n) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    EXPECT_FALSE(run(n, Symmetry::none).unique.has_value());
    EXPECT_FALSE(run(n, Symmetry::mirror).unique.has_value());
    const CountResult full = run(n, Symmetry::full);
    ASSERT_TRUE(full.unique.has_value());
    EXPECT_EQ(to_string(*full.unique), std::to_string(*nqueens::oeis_unique(n)));
  }
}

// Each canonical board stands for its whole orbit, so the orbit counts weighted by orbit size
// must rebuild the total that full mode reports.
TEST(SymmetryModes, FullModeOrbitsRebuildTheTotal) {
  for (int n = 1; n <= kLargestN; ++n) {
    const nqueens::Totals t = run(n, Symmetry::full).totals;
    const nqueens::Count weighted = t.orbits[0] + 2 * t.orbits[1] + 4 * t.orbits[2] + 8 * t.orbits[3];
    EXPECT_EQ(to_string(weighted), to_string(t.total)) << "n=" << n;
  }
}

TEST(SymmetryModes, ResultEchoesTheModeAsked) {
  for (Symmetry mode : test_support::kModes) {
    const CountResult r = run(8, mode);
    EXPECT_EQ(r.symmetry, mode);
    EXPECT_EQ(r.n, 8);
    EXPECT_EQ(r.work_units, nqueens::split(8, mode).units.size());
  }
}

TEST(SymmetryModes, NamesRoundTrip) {
  for (Symmetry mode : test_support::kModes) EXPECT_EQ(nqueens::parse_symmetry(nqueens::to_string(mode)), mode);
  EXPECT_FALSE(nqueens::parse_symmetry("Full").has_value());
  EXPECT_FALSE(nqueens::parse_symmetry("").has_value());
}

}  // namespace
