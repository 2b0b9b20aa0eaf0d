// The measurement helpers behind `nqueens bench`: medians, the critical path, timed repeats.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
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

TEST(Bench, NoRatioFromRunsTooShortToTime) {
  EXPECT_EQ(nqueens::speed_ratio(2.0, 0.5), 4.0);
  EXPECT_EQ(nqueens::speed_ratio(0.2, 0.1), 2.0) << "the threshold itself is long enough";
  EXPECT_FALSE(nqueens::speed_ratio(0.018, 0.001)) << "N = 10 on 1 and 2 threads once read as 18x";
  EXPECT_FALSE(nqueens::speed_ratio(2.0, 0.05));
  EXPECT_FALSE(nqueens::speed_ratio(0.05, 2.0));
  EXPECT_FALSE(nqueens::speed_ratio(std::nullopt, 2.0));
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
  options.engine = "join";
  options.threads = 1;
  nqueens::CountResult last;
  const nqueens::Timing timing = nqueens::time_engine(10, options, {1, 3}, last);
  EXPECT_EQ(timing.seconds.size(), 3u) << "the warm-up run is not a sample";
  EXPECT_EQ(last.totals.total, 724u);
  EXPECT_EQ(last.engine, "join");
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
    EXPECT_EQ(std::string(error.what()), "N=10: the " + result.engine +
                                             " engine counted 724 but the textbook baseline 723");
  }
}

}  // namespace
