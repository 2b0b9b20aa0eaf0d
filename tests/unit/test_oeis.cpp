// The engine and the table of published counts (A000170, A002562) held to each other.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"

namespace {

using nqueens::to_string;

// Every registered engine, and `auto`, on every N up to 15 it takes here (the reference engine
// stops at 14, the join starts at 4); an engine that counts nothing on this machine (the gpu
// engine without a device) is named in the output, never dropped silently.
TEST(Oeis, CountMatchesA000170UpTo15WithEveryEngine) {
  std::vector<std::string> engines = {std::string(nqueens::kAutomaticEngine)};
  for (const nqueens::EngineDescription* engine : nqueens::registered_engines()) engines.emplace_back(engine->name);
  int engines_that_counted = 0;
  for (const std::string& engine : engines) {
    nqueens::CountOptions options;  // the default: full symmetry
    options.engine = engine;
    int counted = 0;
    for (int n = 1; n <= 15; ++n) {
      if (const nqueens::EngineDescription* described = nqueens::find_engine(engine);
          described && !described->refusal(n, options).empty())
        continue;
      const nqueens::CountResult r = nqueens::count(n, options);
      EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(n))) << engine << " n=" << n;
      ASSERT_TRUE(r.unique.has_value());
      EXPECT_EQ(to_string(*r.unique), std::to_string(*nqueens::oeis_unique(n))) << engine << " n=" << n;
      ++counted;
    }
    if (counted == 0)
      std::cout << "[   NOTE   ] the " << engine
                << " engine counts no N up to 15 here: " << nqueens::find_engine(engine)->refusal(15, options) << "\n";
    else
      ++engines_that_counted;
  }
  EXPECT_GE(engines_that_counted, 4) << "auto, join, dfs and reference count everywhere";
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
