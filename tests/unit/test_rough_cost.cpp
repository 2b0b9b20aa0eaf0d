// The rough cost a count announces before it starts (plan/rough_cost.hpp): its measured points,
// geometric between them, and growing past the last.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "plan/rough_cost.hpp"

namespace {

using nqueens::plan::rough_thread_seconds;
using nqueens::plan::rough_wall_seconds;

double seconds(const char* engine, int n) {
  const std::optional<double> cost = rough_thread_seconds(engine, n);
  EXPECT_TRUE(cost) << engine << " N=" << n;
  return cost.value_or(0);
}

// docs/performance.md: the DFS engine at N = 18 on one thread, the join's count of N = 22 (CPU
// time) and its plan of N = 24.
TEST(RoughCost, GivesTheMeasuredSecondsAtMeasuredSizes) {
  EXPECT_DOUBLE_EQ(seconds("dfs", 18), 25.1);
  EXPECT_DOUBLE_EQ(seconds("join", 22), 5742.4);
  EXPECT_DOUBLE_EQ(seconds("join", 24), 1.05e6);
}

TEST(RoughCost, LiesGeometricallyBetweenMeasuredSizes) {
  EXPECT_NEAR(seconds("join", 23), std::sqrt(5742.4 * 1.05e6), 1e-6 * seconds("join", 23));
}

TEST(RoughCost, GrowsPastTheLastMeasuredSizeByItsLastGrowth) {
  const double growth = std::sqrt(1.05e6 / 5742.4);
  EXPECT_NEAR(seconds("join", 25) / seconds("join", 24), growth, 1e-9 * growth);
  EXPECT_NEAR(seconds("join", 30) / seconds("join", 29), growth, 1e-9 * growth);
  EXPECT_NEAR(seconds("dfs", 19) / seconds("dfs", 18), 25.1 / 3.49, 1e-9);
}

TEST(RoughCost, NeverFallsAsNGrows) {
  for (const char* engine : {"dfs", "join"})
    for (int n = 2; n <= 32; ++n) EXPECT_LE(seconds(engine, n - 1), seconds(engine, n)) << engine << " N=" << n;
}

// What the limits of `count` rest on: N = 22 passes an hour on one thread, N = 30 a year on a
// thousand, and N = 27 on two threads is decades.
TEST(RoughCost, PlacesTheSizesUsersAskAbout) {
  constexpr double kHour = 3600, kYear = 365.25 * 24 * kHour;
  EXPECT_GT(rough_wall_seconds(seconds("join", 22), 1), kHour);
  EXPECT_LT(rough_wall_seconds(seconds("join", 22), 2), kHour);
  EXPECT_GT(rough_wall_seconds(seconds("join", 30), 1000), kYear);
  EXPECT_GT(rough_wall_seconds(seconds("join", 27), 2), 10 * kYear);
  EXPECT_LT(rough_wall_seconds(seconds("join", 25), 2), kYear);
}

TEST(RoughCost, EnginesWithoutMeasurementsHaveNone) {
  EXPECT_FALSE(rough_thread_seconds("gpu", 20));
  EXPECT_FALSE(rough_thread_seconds("reference", 10));
  EXPECT_DOUBLE_EQ(rough_wall_seconds(100, 0), 100) << "no threads is taken as one";
}

}  // namespace
