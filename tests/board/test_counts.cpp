// counts.hpp: a unit's Tally, the exact 128-bit Totals summed across units and threads, their
// overflow checks, the counts derived from the orbit slots, and how a Count is printed.
#include <gtest/gtest.h>

#include <array>
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
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

// ---- Tally and Totals arithmetic ------------------------------------------------------------

TEST(Counts, TallyAddsFieldByField) {
  Tally a{.total = 1, .orbits = {1, 2, 3, 4}, .nodes = 10};
  const Tally b{.total = 5, .orbits = {0, 1, 0, 1}, .nodes = 7};
  a += b;
  EXPECT_EQ(a, (Tally{.total = 6, .orbits = {1, 3, 3, 5}, .nodes = 17}));
}

TEST(Counts, OrbitSlotsAreInOrbitSizeOrder) {
  EXPECT_EQ(nqueens::orbit_slot(1), 0u);
  EXPECT_EQ(nqueens::orbit_slot(2), 1u);
  EXPECT_EQ(nqueens::orbit_slot(4), 2u);
  EXPECT_EQ(nqueens::orbit_slot(8), 3u);
}

TEST(Counts, TotalsAddTalliesAndTotals) {
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

TEST(Counts, TalliesOfTheLargest64BitValuesCarryInto128Bits) {
  const Tally most{.total = kMaxU64, .orbits = {kMaxU64, kMaxU64, kMaxU64, kMaxU64}, .nodes = kMaxU64};
  Totals t;
  t += most;
  t += most;
  const std::string twice = to_string(Count{kMaxU64} * 2);
  EXPECT_EQ(twice, "36893488147419103230");
  EXPECT_EQ(describe(t),
            "total=" + twice + " orbits=" + twice + "/" + twice + "/" + twice + "/" + twice + " nodes=" + twice);
}

TEST(Counts, AddingATallyEqualsAddingItsTotals) {
  const Tally unit{.total = 7, .orbits = {1, 0, 1, 0}, .nodes = 3};
  Totals as_totals;
  as_totals += unit;
  Totals by_tally, by_totals;
  by_tally.total = by_totals.total = Count{1} << 100;
  by_tally += unit;
  by_totals += as_totals;
  EXPECT_EQ(by_tally, by_totals);
  Totals other = by_tally;
  other.nodes += 1;
  EXPECT_FALSE(other == by_tally);
}

TEST(Counts, ReduceSumsEveryThreadsTotals) {
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

TEST(Counts, SumUpToTheLimitIsExact) {
  Totals a, b;
  a.total = kMaxCount - 5;
  b.total = 5;
  a += b;
  EXPECT_EQ(to_string(a.total), to_string(kMaxCount));
}

// ---- overflow: thrown, never wrapped, and the left-hand side left as it was ------------------

// A Totals with every field distinct and one field at the limit, so that an add that changed
// any field before throwing shows up in the comparison.
Totals at_limit(int field) {
  Totals t;
  t.total = 1000;
  t.orbits = {11, 22, 44, 88};
  t.nodes = 5000;
  Count& full = field == 0 ? t.total : field == 5 ? t.nodes : t.orbits[static_cast<std::size_t>(field - 1)];
  full = kMaxCount;
  return t;
}

TEST(Counts, OverflowInAnyFieldThrowsAndLeavesTheLeftHandSideUnchanged) {
  const Tally one_each{.total = 1, .orbits = {1, 1, 1, 1}, .nodes = 1};
  Totals one_each_totals;
  one_each_totals += one_each;
  for (int field = 0; field <= 5; ++field) {
    SCOPED_TRACE(testing::Message() << "field " << field << " (total, 4 orbit slots, nodes)");
    const Totals before = at_limit(field);
    Totals a = before;
    EXPECT_THROW(a += one_each, std::overflow_error);
    EXPECT_EQ(describe(a), describe(before));
    Totals b = before;
    EXPECT_THROW(b += one_each_totals, std::overflow_error);
    EXPECT_EQ(describe(b), describe(before));
    const std::vector<Totals> both = {before, one_each_totals};
    EXPECT_THROW(nqueens::reduce(both), std::overflow_error);
  }
}

TEST(Counts, OverflowByAWholeTotalsThrows) {
  Totals near_limit;
  near_limit.total = kMaxCount - 5;
  Totals six;
  six.total = 6;
  Totals a = near_limit;
  EXPECT_THROW(a += six, std::overflow_error);
  EXPECT_EQ(a, near_limit);
  Totals self = near_limit;
  EXPECT_THROW(self += self, std::overflow_error);
  EXPECT_EQ(self, near_limit);
}

TEST(Counts, OverflowInTheDerivedCountsThrows) {
  Totals quarter;
  quarter.orbits = {kMaxCount, 1, 0, 0};  // o1 + 2 o2 passes 2^128
  EXPECT_THROW((void)quarter.quarter_turn_fixed(), std::overflow_error);
  EXPECT_THROW((void)quarter.half_turn_fixed(), std::overflow_error);
  EXPECT_THROW((void)quarter.unique(), std::overflow_error);
  Totals half;
  half.orbits = {0, 0, kMaxCount / 4 + 1, 0};  // 4 o4 passes 2^128, o1 + 2 o2 does not
  EXPECT_EQ(to_string(half.quarter_turn_fixed()), "0");
  EXPECT_THROW((void)half.half_turn_fixed(), std::overflow_error);
}

// ---- counts derived from the orbit slots ----------------------------------------------------

// Hand-made orbit counts of small boards. Stabilisers of N-queens solutions lie in the rotation
// group (no solution of n >= 2 is its own reflection), so an orbit of 2 boards is quarter-turn
// symmetric, one of 4 half-turn symmetric only, one of 8 neither.
struct Derived {
  const char* board;
  Count total;
  std::array<Count, 4> orbits;  // the DFS engine's slots: all four filled
  Count quarter, half, unique;
};

TEST(Counts, UniqueAndRotationFixedCountsOfHandMadeOrbits) {
  const Derived cases[] = {
      {"n=1: one board, its own every image", 1, {1, 0, 0, 0}, 1, 1, 1},
      {"n=4: one orbit of 2", 2, {0, 1, 0, 0}, 2, 2, 1},
      {"n=5: an orbit of 2 and one of 8", 10, {0, 1, 0, 1}, 2, 2, 2},
      {"n=6: one orbit of 4", 4, {0, 0, 1, 0}, 0, 4, 1},
      {"n=8: one orbit of 4 and eleven of 8", 92, {0, 0, 1, 11}, 0, 4, 12},
      {"made up: 3 of 1, 2 of 2, 5 of 4, 7 of 8", 3 + 4 + 20 + 56, {3, 2, 5, 7}, 7, 27, 17},
      {"no solutions", 0, {0, 0, 0, 0}, 0, 0, 0},
  };
  for (const Derived& c : cases) {
    SCOPED_TRACE(c.board);
    Totals dfs;
    dfs.total = c.total;
    dfs.orbits = c.orbits;
    EXPECT_EQ(to_string(dfs.quarter_turn_fixed()), to_string(c.quarter));
    EXPECT_EQ(to_string(dfs.half_turn_fixed()), to_string(c.half));
    EXPECT_EQ(to_string(dfs.unique()), to_string(c.unique));
    // The join engine fills only the rotation-symmetric slots: the orbit-8 class follows from
    // the total, and every derived count must come out the same.
    Totals join = dfs;
    join.orbits[3] = 0;
    EXPECT_EQ(to_string(join.quarter_turn_fixed()), to_string(c.quarter));
    EXPECT_EQ(to_string(join.half_turn_fixed()), to_string(c.half));
    EXPECT_EQ(to_string(join.unique()), to_string(c.unique));
  }
}

TEST(Counts, UniqueOfCountsPast64Bits) {
  Totals t;
  t.orbits = {0, 0, 1, 0};
  t.total = 4 + (Count{1} << 70) * 8;  // 2^70 orbits of 8
  EXPECT_EQ(to_string(t.unique()), to_string((Count{1} << 70) + 1));
}

TEST(Counts, InconsistentTotalsAreADefectNotARoundedAnswer) {
  Totals t;
  t.total = 93;  // not a whole number of orbits of 8 beyond the one orbit of 4
  t.orbits = {0, 0, 1, 0};
  EXPECT_THROW((void)t.unique(), std::logic_error);
  t.total = 3;  // fewer solutions than the symmetric ones alone
  EXPECT_THROW((void)t.unique(), std::logic_error);
}

// ---- printing ---------------------------------------------------------------------------------

TEST(Counts, ToStringOfSmallAndHugeCounts) {
  EXPECT_EQ(to_string(Count{0}), "0");
  EXPECT_EQ(to_string(Count{1}), "1");
  EXPECT_EQ(to_string(Count{10}), "10");
  EXPECT_EQ(to_string(Count{kMaxU64}), "18446744073709551615");
  EXPECT_EQ(to_string(Count{1} << 64), "18446744073709551616");
  EXPECT_EQ(to_string((Count{1} << 64) + 1), "18446744073709551617");
  EXPECT_EQ(to_string(Count{1} << 127), "170141183460469231731687303715884105728");
  EXPECT_EQ(to_string(kMaxCount), "340282366920938463463374607431768211455");
  Count ten_to_the_38 = 1;
  for (int i = 0; i < 38; ++i) ten_to_the_38 *= 10;
  EXPECT_EQ(to_string(ten_to_the_38), "1" + std::string(38, '0'));
  EXPECT_EQ(to_string(ten_to_the_38 - 1), std::string(38, '9'));
}

TEST(Counts, FitsU64) {
  EXPECT_TRUE(nqueens::fits_u64(0));
  EXPECT_TRUE(nqueens::fits_u64(kMaxU64));
  EXPECT_FALSE(nqueens::fits_u64(Count{kMaxU64} + 1));
  EXPECT_FALSE(nqueens::fits_u64(Count{1} << 127));
  EXPECT_FALSE(nqueens::fits_u64(kMaxCount));
}

}  // namespace
