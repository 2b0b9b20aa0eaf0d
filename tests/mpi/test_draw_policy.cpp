// nqueens-mpi's draw policy (src/mpi/draw_policy.hpp): draws sized by estimated work, turned
// into time by the rank's own unit times, shrinking to single units at the end of the list, and
// never more than their worth wherever the counter has got to.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mpi/draw_policy.hpp"

namespace {

using nqueens::mpi::DrawPolicy;

// A list of `units` positions, costliest first: cost 99 for the first tenth, then 9 (weights
// 100 and 10: every unit counts its estimate plus one).
std::vector<std::uint64_t> two_kinds(std::uint64_t units) {
  std::vector<std::uint64_t> costs(units, 9);
  for (std::uint64_t at = 0; at < units / 10; ++at) costs[at] = 99;
  return costs;
}

TEST(DrawPolicy, CostsArePrefixSumsOfTheWeights) {
  const std::vector<std::uint64_t> costs = two_kinds(100);
  const DrawPolicy policy(costs, 2, 1);
  EXPECT_EQ(policy.cost(0, 1), 100.0);
  EXPECT_EQ(policy.cost(9, 11), 110.0);
  EXPECT_EQ(policy.cost(0, 100), 10 * 100.0 + 90 * 10.0);
  EXPECT_EQ(policy.cost(95, 1000), 50.0);  // clamped to the list
  EXPECT_EQ(policy.cost(200, 300), 0.0);
}

TEST(DrawPolicy, BeforeAnyUnitIsTimedADrawIsOneUnitPerThread) {
  const std::vector<std::uint64_t> costs = two_kinds(100000);
  const DrawPolicy policy(costs, 2, 4);
  EXPECT_EQ(policy.rate(), 0.0);
  EXPECT_EQ(policy.worth(0), 400.0);
  EXPECT_EQ(policy.positions(0, policy.worth(0)), 4u);
  // Where the cheap units start, four of them.
  EXPECT_EQ(policy.positions(10000, policy.worth(10000)), 4u);
}

TEST(DrawPolicy, ATimedRankDrawsItsThreadsTwentyMillisecondsOfWork) {
  const std::vector<std::uint64_t> costs = two_kinds(1000000);
  DrawPolicy policy(costs, 2, 2);
  for (int i = 0; i < 1000; ++i) policy.learn(9, 24);  // 10 cost in 24 us: 2.4 us per cost
  EXPECT_NEAR(policy.rate(), 2.4, 1e-9);
  // 2 threads x 20 ms = 40000 us = 16667 cost: 1666 units of weight 10, or 166 of weight 100.
  const double worth = policy.worth(500000);
  EXPECT_NEAR(worth, 40000 / 2.4, 1e-6);
  EXPECT_EQ(policy.positions(500000, worth), 1666u);
  EXPECT_EQ(policy.positions(0, worth), 166u);
  // Across the boundary of the two kinds: the draw's cost stays within its worth.
  const std::uint64_t taken = policy.positions(99950, worth);
  EXPECT_LE(policy.cost(99950, 99950 + taken), worth);
  EXPECT_GT(policy.cost(99950, 99950 + taken + 1), worth);
}

TEST(DrawPolicy, TheRateFollowsTheRecentUnits) {
  DrawPolicy policy(two_kinds(10), 1, 1);
  for (int i = 0; i < 5000; ++i) policy.learn(0, 100);  // 100 us per cost
  for (int i = 0; i < 5000; ++i) policy.learn(0, 10);   // then 10 us per cost
  EXPECT_NEAR(policy.rate(), 10.0, 0.01);
}

// Guided self-scheduling: near the end a draw is at most remaining / (2 x ranks), down to one
// unit; a counter past the end still draws one (the dispenser answers with an empty block).
TEST(DrawPolicy, DrawsShrinkToAShareOfWhatIsLeft) {
  const std::vector<std::uint64_t> costs(1000, 9);  // weight 10 each: 10000 in all
  DrawPolicy policy(costs, 4, 1);
  policy.learn(9, 1);  // fast units: 20 ms is 200000 cost, and the share decides
  EXPECT_EQ(policy.worth(0), 10000 / 8.0);
  EXPECT_EQ(policy.positions(0, policy.worth(0)), 125u);
  EXPECT_EQ(policy.worth(920), 800 / 8.0);
  EXPECT_EQ(policy.positions(920, policy.worth(920)), 10u);
  EXPECT_EQ(policy.positions(999, policy.worth(999)), 1u);
  EXPECT_EQ(policy.worth(1000), 0.0);
  EXPECT_EQ(policy.positions(1000, policy.worth(1000)), 1u);
  EXPECT_EQ(policy.positions(5000, 0.0), 1u);
}

// A draw sized where this rank last saw the counter costs no more when other ranks have drawn
// since: the list only gets cheaper further on.
TEST(DrawPolicy, ADrawThatLandsFurtherOnCostsNoMoreThanItsWorth) {
  std::vector<std::uint64_t> costs;
  for (std::uint64_t cost = 5000; cost > 0; --cost) costs.push_back(cost / 7);
  DrawPolicy policy(costs, 3, 2);
  for (int i = 0; i < 100; ++i) policy.learn(100, 500);
  for (std::uint64_t seen = 0; seen < costs.size(); seen += 97) {
    const double worth = policy.worth(seen);
    const std::uint64_t taken = policy.positions(seen, worth);
    ASSERT_GE(taken, 1u);
    if (taken > 1) {
      EXPECT_LE(policy.cost(seen, seen + taken), worth) << seen;
    }
    for (std::uint64_t landed = seen; landed < costs.size(); landed += 331)
      EXPECT_LE(policy.cost(landed, landed + taken), policy.cost(seen, seen + taken)) << seen << " " << landed;
  }
}

}  // namespace
