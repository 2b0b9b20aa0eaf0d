// The measurement helpers behind `nqueens bench`: medians, the critical path, timed repeats.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/baseline.hpp"
#include "bench/bench.hpp"
#include "nqueens/nqueens.hpp"

namespace {

TEST(Bench, MedianOfOddEvenAndEmptySamples) {
  EXPECT_EQ(nqueens::median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(nqueens::median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(nqueens::median({}), 0.0);
}

TEST(Bench, SummaryOfSamples) {
  const nqueens::Timing timing = nqueens::summarize({0.3, 0.1, 0.2, 0.6});
  EXPECT_EQ(timing.seconds, (std::vector<double>{0.3, 0.1, 0.2, 0.6})) << "samples stay in run order";
  EXPECT_DOUBLE_EQ(timing.min_seconds, 0.1);
  EXPECT_DOUBLE_EQ(timing.max_seconds, 0.6);
  EXPECT_DOUBLE_EQ(timing.median_seconds, 0.25);
  EXPECT_DOUBLE_EQ(timing.mean_seconds, 0.3);
  // Sample standard deviation: squares 0, 0.04, 0.01, 0.09 sum to 0.14, over n - 1 = 3.
  EXPECT_NEAR(timing.stddev_seconds, std::sqrt(0.14 / 3), 1e-12);
  EXPECT_EQ(nqueens::summarize({2.0}).stddev_seconds, 0.0);
  EXPECT_EQ(nqueens::summarize({}).mean_seconds, 0.0);
}

TEST(Bench, NoRatioFromSamplesTooShortToTime) {
  using nqueens::speed_ratio;
  using nqueens::summarize;
  EXPECT_EQ(speed_ratio(summarize({2.0}), summarize({0.5})), 4.0);
  EXPECT_EQ(speed_ratio(summarize({0.2}), summarize({0.1})), 2.0) << "the threshold itself is long enough";
  EXPECT_FALSE(speed_ratio(summarize({0.018}), summarize({0.001}))) << "N = 10 on 1 and 2 threads once read as 18x";
  EXPECT_FALSE(speed_ratio(summarize({2.0}), summarize({0.05})));
  EXPECT_FALSE(speed_ratio(summarize({0.05}), summarize({2.0})));
  EXPECT_FALSE(speed_ratio(std::nullopt, summarize({2.0})));
  // The same runs, each sample repeating them until it lasts long enough, are compared.
  EXPECT_NEAR(*speed_ratio(summarize({0.018}, 10), summarize({0.001}, 100)), 18.0, 1e-9);
}

TEST(Bench, RatioSpreadCombinesBothRelativeDeviations) {
  const nqueens::Timing slow = nqueens::summarize({1.9, 2.1}), fast = nqueens::summarize({0.45, 0.55});
  const double ratio = *nqueens::speed_ratio(slow, fast);
  EXPECT_DOUBLE_EQ(ratio, 4.0);
  const double a = slow.stddev_seconds / slow.mean_seconds, b = fast.stddev_seconds / fast.mean_seconds;
  EXPECT_NEAR(*nqueens::speed_ratio_stddev(slow, fast), ratio * std::sqrt(a * a + b * b), 1e-12);
  EXPECT_FALSE(nqueens::speed_ratio_stddev(std::nullopt, fast));
}

// A run of 2 ms is repeated inside each sample until the sample lasts kShortestComparable; the
// figures are of one run.
TEST(Bench, ShortRunsAreRepeatedInsideEachSample) {
  using nqueens::kShortestComparable;
  int runs = 0;
  const nqueens::Timing timing = nqueens::time_calibrated(
      [&runs] {
        ++runs;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      },
      {1, 3});
  EXPECT_GT(timing.inner_repeats, 1);
  EXPECT_LE(timing.inner_repeats, 100) << "about 0.14 s / 2 ms";
  EXPECT_EQ(timing.seconds.size(), 3u);
  EXPECT_TRUE(timing.comparable);
  EXPECT_GE(timing.median_seconds, 0.002);
  EXPECT_LT(timing.median_seconds, 0.05) << "a sample's time is divided by its runs";
  EXPECT_GE(timing.max_seconds * timing.inner_repeats, 0.999 * kShortestComparable) << "the sample that calibrated it";
  EXPECT_GE(runs, 3 * timing.inner_repeats + 1) << "a warm-up (the first try) and three samples";
}

// A run long enough alone costs no run more than before: the warm-up run is the calibration.
TEST(Bench, LongRunsAreNotRepeatedAndCostNoExtraRun) {
  int runs = 0;
  const nqueens::Timing timing = nqueens::time_calibrated(
      [&runs] {
        ++runs;
        std::this_thread::sleep_for(std::chrono::milliseconds(110));
      },
      {1, 2});
  EXPECT_EQ(timing.inner_repeats, 1);
  EXPECT_EQ(timing.seconds.size(), 2u);
  EXPECT_EQ(runs, 3);
  EXPECT_TRUE(timing.comparable);
  int cold = 0;
  const nqueens::Timing no_warmup = nqueens::time_calibrated(
      [&cold] {
        ++cold;
        std::this_thread::sleep_for(std::chrono::milliseconds(110));
      },
      {0, 2});
  EXPECT_EQ(no_warmup.seconds.size(), 2u);
  EXPECT_EQ(cold, 2);
}

TEST(Bench, CriticalPathIsBoundedByTheLargestUnit) {
  // 100 nodes in all, the largest unit 25: no schedule beats 100 / 25 = 4x, whatever the threads.
  const nqueens::CriticalPath path = nqueens::critical_path({25, 5, 10, 20, 15, 25});
  EXPECT_DOUBLE_EQ(path.largest_unit_share, 0.25);
  EXPECT_DOUBLE_EQ(path.ceiling_16, 4.0);
  EXPECT_DOUBLE_EQ(path.ceiling_256, 4.0);
  // Many equal units: the ceiling is the thread count until the units run out.
  const nqueens::CriticalPath even = nqueens::critical_path(std::vector<std::uint64_t>(100, 1));
  EXPECT_DOUBLE_EQ(even.ceiling_16, 16.0);
  EXPECT_DOUBLE_EQ(even.ceiling_64, 64.0);
  EXPECT_DOUBLE_EQ(even.ceiling_256, 100.0);
  EXPECT_DOUBLE_EQ(nqueens::critical_path({}).ceiling_16, 0.0);
}

TEST(Bench, TimedRunsRepeatAndKeepTheLastResult) {
  nqueens::CountOptions options;
  options.engine = "dfs";
  options.threads = 1;
  nqueens::CountResult last;
  // N = 8 on the DFS engine: tens of microseconds, a thousand times under the 0.1 s a sample
  // must last even under a sanitizer on a busy machine (the join's setup at N = 10 is not).
  const nqueens::Timing timing = nqueens::time_engine(8, options, {1, 3}, last);
  EXPECT_EQ(timing.seconds.size(), 3u) << "the warm-up run is not a sample";
  EXPECT_GT(timing.inner_repeats, 1) << "N = 8 takes well under 0.1 s";
  EXPECT_TRUE(timing.comparable);
  EXPECT_EQ(last.totals.total, 92u);
  EXPECT_EQ(last.engine, "dfs");
  std::uint64_t textbook = 0;
  EXPECT_EQ(nqueens::time_textbook(10, {0, 2}, textbook).seconds.size(), 2u);
  EXPECT_EQ(textbook, 724u);
}

TEST(Bench, TextbookBaselineCountsTheOeisValues) {
  for (int n = 1; n <= 12; ++n) EXPECT_EQ(nqueens::textbook_count(n), nqueens::oeis_total(n)) << "n=" << n;
  EXPECT_THROW(nqueens::textbook_count(0), std::invalid_argument);
}

// `bench` quotes the engine's speed against the baseline only when both counted the same: a
// disagreement ends the run (exit 3) instead of printing a ratio.
TEST(Bench, FailsWhenTheBaselineCountsOtherwise) {
  nqueens::CountOptions options;
  options.threads = 1;
  const nqueens::CountResult result = nqueens::count(10, options);
  EXPECT_NO_THROW(nqueens::check_against_baseline(result, nqueens::textbook_count(10)));
  try {
    nqueens::check_against_baseline(result, 723);
    FAIL() << "a baseline of 723 against the engine's 724 was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()),
              "N=10: the " + result.engine + " engine counted 724 but the textbook baseline 723");
  }
}

}  // namespace
