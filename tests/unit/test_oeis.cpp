#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "nqueens/nqueens.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::Count;
using nqueens::Tally;
using nqueens::to_string;
using nqueens::Totals;
using test_support::describe;

constexpr Count kMaxCount = ~Count{0};

// ---- the engine against the published sequences ----------------------------------------

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

// ---- reduce.hpp: exact 128-bit sums -----------------------------------------------------

TEST(Reduce, ToStringOfSmallAndHugeCounts) {
  EXPECT_EQ(to_string(Count{0}), "0");
  EXPECT_EQ(to_string(Count{1}), "1");
  EXPECT_EQ(to_string(Count{10}), "10");
  EXPECT_EQ(to_string(Count{std::numeric_limits<std::uint64_t>::max()}), "18446744073709551615");
  EXPECT_EQ(to_string(Count{1} << 64), "18446744073709551616");
  EXPECT_EQ(to_string(Count{1} << 127), "170141183460469231731687303715884105728");
  EXPECT_EQ(to_string(kMaxCount), "340282366920938463463374607431768211455");
}

TEST(Reduce, FitsU64) {
  EXPECT_TRUE(nqueens::fits_u64(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_FALSE(nqueens::fits_u64(Count{1} << 64));
}

TEST(Reduce, TotalsAddTalliesAndTotals) {
  Totals t;
  t += Tally{.total = 12, .orbits = {0, 0, 1, 1}, .nodes = 100};
  t += Tally{.total = 8, .orbits = {0, 0, 0, 1}, .nodes = 50};
  EXPECT_EQ(describe(t), "total=20 orbits=0/0/1/2 nodes=150");
  EXPECT_EQ(to_string(t.unique()), "3");
  Totals big;
  big.total = Count{1} << 64;  // past what a Tally can hold: the sum must carry
  big += t;
  EXPECT_EQ(to_string(big.total), "18446744073709551636");
  EXPECT_EQ(to_string(big.unique()), to_string((Count{1} << 61) + 3));
}

// The join engine fills only the rotation-symmetric slots; the orbit-8 class follows from the
// total. N = 8: 92 solutions, 12 classes, S180 = 4, S90 = 0 (one orbit of 4, eleven of 8).
TEST(Reduce, UniqueIsBurnsidesCountWhenTheOrbitEightSlotIsEmpty) {
  Totals t;
  t.total = 92;
  t.orbits = {0, 0, 1, 0};
  EXPECT_EQ(to_string(t.half_turn_fixed()), "4");
  EXPECT_EQ(to_string(t.quarter_turn_fixed()), "0");
  EXPECT_EQ(to_string(t.unique()), "12");
  t.total = 93;  // not a whole number of orbits of 8: a defect, never a rounded answer
  EXPECT_THROW((void)t.unique(), std::logic_error);
}

TEST(Reduce, ReduceSumsEveryThreadsTotals) {
  std::vector<Totals> per_thread(3);
  per_thread[0].total = 5;
  per_thread[0].orbits = {1, 0, 0, 0};
  per_thread[1].total = Count{3} << 70;
  per_thread[1].nodes = 7;
  per_thread[2].total = 2;
  per_thread[2].orbits = {0, 2, 0, 9};
  const Totals sum = nqueens::reduce(per_thread);
  EXPECT_EQ(to_string(sum.total), to_string((Count{3} << 70) + 7));
  EXPECT_EQ(describe(sum), "total=" + to_string((Count{3} << 70) + 7) + " orbits=1/2/0/9 nodes=7");
  EXPECT_EQ(describe(nqueens::reduce({})), describe(Totals{}));
}

TEST(Reduce, SumUpToTheLimitIsExact) {
  Totals a, b;
  a.total = kMaxCount - 5;
  b.total = 5;
  a += b;
  EXPECT_EQ(to_string(a.total), to_string(kMaxCount));
}

// Each check starts from a fresh copy: a failed add is not promised to leave its target as it was.
TEST(Reduce, OverflowThrowsInsteadOfWrapping) {
  Totals near_limit;
  near_limit.total = kMaxCount - 5;
  Totals six;
  six.total = 6;
  Totals a = near_limit, b = near_limit;
  EXPECT_THROW(a += six, std::overflow_error);
  EXPECT_THROW(b += (Tally{.total = 6}), std::overflow_error);
  const std::vector<Totals> both = {near_limit, six};
  EXPECT_THROW(nqueens::reduce(both), std::overflow_error);
}

TEST(Reduce, OverflowInOrbitsAndNodesThrowsToo) {
  Totals orbits;
  orbits.orbits[3] = kMaxCount;
  EXPECT_THROW(orbits += (Tally{.orbits = {0, 0, 0, 1}}), std::overflow_error);
  Totals nodes;
  nodes.nodes = kMaxCount;
  EXPECT_THROW(nodes += (Tally{.nodes = 1}), std::overflow_error);
  Totals unique;
  unique.orbits = {kMaxCount, 1, 0, 0};
  EXPECT_THROW((void)unique.unique(), std::overflow_error);
}

}  // namespace
