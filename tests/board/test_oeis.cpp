// The engine and the table of published counts (A000170, A002562) held to each other.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "support/engines.hpp"

namespace {

using nqueens::to_string;

constexpr int kLargestN = 15;

// Counts every N up to kLargestN that the engine takes with its default options (full symmetry)
// and holds it to A000170 and A002562; returns how many sizes it took.
int expect_oeis_counts(const std::string& engine) {
  nqueens::CountOptions options;
  options.engine = engine;
  const nqueens::EngineDescription* described = nqueens::find_engine(engine);  // null for `auto`
  int counted = 0;
  for (int n = 1; n <= kLargestN; ++n) {
    if (described && !described->refusal(n, options).empty()) continue;
    const nqueens::CountResult r = nqueens::count(n, options);
    EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(n))) << engine << " n=" << n;
    EXPECT_TRUE(r.unique.has_value()) << engine << " n=" << n;
    if (r.unique) {
      EXPECT_EQ(to_string(*r.unique), std::to_string(*nqueens::oeis_unique(n))) << engine << " n=" << n;
    }
    ++counted;
  }
  return counted;
}

// Every registered engine, and `auto`, on every N up to 15 it takes here (the reference engine
// stops at 14, the join starts at 4). `auto` and the yardstick take every N; an engine that
// counts nothing on this machine (the gpu engine without a device) is named in a NOTE line.
TEST(Oeis, CountMatchesA000170UpTo15WithEveryEngine) {
  EXPECT_EQ(expect_oeis_counts(std::string(nqueens::kAutomaticEngine)), kLargestN) << "auto counts every N";
  for (const nqueens::EngineDescription* engine : nqueens::registered_engines()) {
    if (!test_support::counts_here(*engine)) continue;
    const int counted = expect_oeis_counts(std::string(engine->name));
    if (engine->yardstick) {
      EXPECT_EQ(counted, kLargestN) << engine->name << " is the yardstick: it counts every N";
    }
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
