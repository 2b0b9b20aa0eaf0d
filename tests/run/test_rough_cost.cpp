// The rough cost a count announces before it starts (run/rough_cost.hpp): each engine's measured
// points, geometric between them, and growing past the last. Every registered engine is checked
// by its own measurements (EngineDescription::rough_costs), so a new engine is covered as it is.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <regex>
#include <string>

#include "engine/catalogue.hpp"
#include "nqueens/count.hpp"
#include "run/registry.hpp"
#include "run/rough_cost.hpp"

namespace {

using nqueens::EngineDescription;
using nqueens::rough_thread_seconds;
using nqueens::rough_wall_seconds;
using nqueens::RoughCost;

double seconds(const EngineDescription& engine, int n) {
  const std::optional<double> cost = rough_thread_seconds(engine, n);
  EXPECT_TRUE(cost) << engine.name << " N=" << n;
  return cost.value_or(0);
}

// The engines with an estimate: at least two measured sizes.
template <typename Check>
void for_each_measured_engine(Check check) {
  int measured = 0;
  for (const EngineDescription* engine : nqueens::registered_engines()) {
    if (engine->rough_costs.size() < 2) continue;
    SCOPED_TRACE(std::string(engine->name));
    ++measured;
    check(*engine);
  }
  EXPECT_GT(measured, 0) << "no registered engine has measurements";
}

TEST(RoughCost, GivesTheMeasuredSecondsAtMeasuredSizes) {
  for_each_measured_engine([](const EngineDescription& engine) {
    for (const RoughCost& point : engine.rough_costs) EXPECT_DOUBLE_EQ(seconds(engine, point.n), point.thread_seconds);
  });
}

// An engine may leave sizes out of its table (the dfs engine measures the even N past 18 only).
TEST(RoughCost, LiesGeometricallyBetweenMeasuredSizes) {
  constexpr RoughCost kGapped[] = {{10, 2.0}, {12, 50.0}, {15, 400.0}};
  EngineDescription engine = *nqueens::registered_engines().front();
  engine.rough_costs = kGapped;
  EXPECT_NEAR(seconds(engine, 11), std::sqrt(2.0 * 50.0), 1e-9);
  EXPECT_NEAR(seconds(engine, 13), 50.0 * 2.0, 1e-9);
  EXPECT_NEAR(seconds(engine, 14), 50.0 * 4.0, 1e-9);
  EXPECT_DOUBLE_EQ(seconds(engine, 9), 2.0) << "below the table: its first size";
}

TEST(RoughCost, GrowsPastTheLastMeasuredSizeByItsLastGrowth) {
  for_each_measured_engine([](const EngineDescription& engine) {
    const RoughCost& last = engine.rough_costs.back();
    const RoughCost& before = engine.rough_costs[engine.rough_costs.size() - 2];
    const double growth = std::pow(last.thread_seconds / before.thread_seconds, 1.0 / (last.n - before.n));
    EXPECT_NEAR(seconds(engine, last.n + 1) / seconds(engine, last.n), growth, 1e-9 * growth);
    EXPECT_NEAR(seconds(engine, 32) / seconds(engine, 31), growth, 1e-9 * growth);
  });
}

TEST(RoughCost, NeverFallsAsNGrows) {
  for_each_measured_engine([](const EngineDescription& engine) {
    for (int n = 2; n <= 32; ++n) EXPECT_LE(seconds(engine, n - 1), seconds(engine, n)) << "N=" << n;
  });
}

// What the limits of `count` rest on, with the engine `auto` counts each N with: N = 23 passes
// an hour on one thread, N = 30 a year on a thousand, and N = 27 on two threads is years.
TEST(RoughCost, PlacesTheSizesUsersAskAbout) {
  constexpr double kHour = 3600, kYear = 365.25 * 24 * kHour;
  const auto automatic = [](int n) -> double {
    nqueens::CountOptions options;
    options.engine = std::string(nqueens::kAutomaticEngine);
    const EngineDescription& engine = nqueens::choose_engine(n, options);
    if (engine.rough_costs.size() < 2) {
      std::cout << "NOTE: the engine auto takes for N=" << n << " here (" << engine.name << ") has no measurements\n";
      return -1;
    }
    return seconds(engine, n);
  };
  if (automatic(22) < 0 || automatic(23) < 0 || automatic(25) < 0 || automatic(27) < 0 || automatic(30) < 0)
    GTEST_SKIP() << "auto takes an engine without measurements here";
  EXPECT_GT(rough_wall_seconds(automatic(23), 1), kHour);
  EXPECT_LT(rough_wall_seconds(automatic(22), 2), kHour);
  EXPECT_GT(rough_wall_seconds(automatic(30), 1000), kYear);
  EXPECT_GT(rough_wall_seconds(automatic(27), 2), kYear);
  EXPECT_LT(rough_wall_seconds(automatic(25), 2), kYear);
}

// docs/usage.md says from which N a count on two threads is refused: the program decides it.
TEST(RoughCost, TheUsageGuideNamesTheFirstSizeRefusedOnTwoThreads) {
  std::ifstream in(std::string(NQUEENS_SOURCE_DIR) + "/docs/usage.md");
  const std::string usage((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::smatch match;
  ASSERT_TRUE(std::regex_search(usage, match, std::regex(R"(that is\s+N = (\d+) and above on two threads)")));
  const int first = std::stoi(match[1]);
  constexpr double kYear = 365.25 * 24 * 3600;
  const auto wall = [](int n) {
    nqueens::CountOptions options;
    options.engine = std::string(nqueens::kAutomaticEngine);
    return rough_wall_seconds(seconds(nqueens::choose_engine(n, options), n), 2);
  };
  EXPECT_LE(wall(first - 1), kYear) << "N=" << first - 1 << " is refused too";
  EXPECT_GT(wall(first), kYear) << "N=" << first << " is not refused";
}

TEST(RoughCost, EnginesWithoutMeasurementsHaveNone) {
  for (const EngineDescription* engine : nqueens::registered_engines())
    if (engine->rough_costs.size() < 2) {
      EXPECT_FALSE(rough_thread_seconds(*engine, 20)) << engine->name;
    }
  EXPECT_DOUBLE_EQ(rough_wall_seconds(100, 0), 100) << "no threads is taken as one";
}

}  // namespace
