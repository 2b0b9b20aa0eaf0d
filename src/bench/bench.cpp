#include "bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>

#include "bench/baseline.hpp"

namespace nqueens {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

Timing summarize(std::vector<double> samples, int inner_repeats) {
  Timing timing;
  timing.seconds = std::move(samples);
  timing.inner_repeats = inner_repeats;
  const std::vector<double>& s = timing.seconds;
  if (s.empty()) return timing;
  const auto [low, high] = std::minmax_element(s.begin(), s.end());
  timing.min_seconds = *low;
  timing.max_seconds = *high;
  timing.median_seconds = median(s);
  const double count = static_cast<double>(s.size());
  timing.mean_seconds = std::accumulate(s.begin(), s.end(), 0.0) / count;
  if (s.size() > 1) {
    double squares = 0;
    for (const double x : s) squares += (x - timing.mean_seconds) * (x - timing.mean_seconds);
    timing.stddev_seconds = std::sqrt(squares / (count - 1));
  }
  timing.comparable = timing.median_seconds * inner_repeats >= kShortestComparable;
  return timing;
}

namespace {

double time_runs(const std::function<void()>& run, int times) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < times; ++i) run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The inner repeats to try after `inner` runs took `seconds`, short of kShortestComparable:
// enough to pass it by 40% at the rate seen (noise must not leave a sample just short), growing
// at most tenfold a step, as a first run may be slow.
int more_inner_repeats(int inner, double seconds) {
  const double wanted = seconds > 0 ? std::ceil(kShortestComparable * 1.4 / seconds * inner) : 10.0 * inner;
  const double most = std::min(10.0 * inner, static_cast<double>(kMaxInnerRepeats));
  return static_cast<int>(std::clamp(wanted, inner + 1.0, most));
}

}  // namespace

Timing time_calibrated(const std::function<void()>& run, Repeats repeats) {
  int inner = 1;
  int warmups = repeats.warmup;
  std::vector<double> samples;
  // Calibration: each try is a warm-up while any remain; the first long enough with none left
  // is the first sample. A warm-up that lasts long enough ends nothing: a first run slowed by
  // the machine (threads started, pages touched) would otherwise fix `inner` at 1 for a count of
  // microseconds. A long run (N = 18) costs nothing more: the next try is its first sample.
  for (;;) {
    const double seconds = time_runs(run, inner);
    const bool long_enough = seconds >= kShortestComparable || inner >= kMaxInnerRepeats;
    if (warmups > 0) {
      --warmups;
      if (!long_enough) inner = more_inner_repeats(inner, seconds);
      continue;
    }
    if (long_enough) {
      samples.push_back(seconds / inner);
      break;
    }
    inner = more_inner_repeats(inner, seconds);
  }
  while (static_cast<int>(samples.size()) < repeats.timed) samples.push_back(time_runs(run, inner) / inner);
  Timing timing = summarize(std::move(samples), inner);
  // A sample may come out a little short of the time that chose `inner` (noise): it was still
  // calibrated to last that long. One capped at kMaxInnerRepeats is not.
  timing.comparable = timing.comparable || inner < kMaxInnerRepeats;
  return timing;
}

Timing time_engine(int n, const CountOptions& options, Repeats repeats, CountResult& last) {
  return time_calibrated([&] { last = count(n, options); }, repeats);
}

Timing time_textbook(int n, Repeats repeats, std::uint64_t& count) {
  return time_calibrated([&] { count = textbook_count(n); }, repeats);
}

void check_against_baseline(const CountResult& result, std::uint64_t baseline_total) {
  if (result.totals.total == baseline_total) return;
  throw std::runtime_error("N=" + std::to_string(result.n) + ": the " + result.engine + " engine counted " +
                           to_string(result.totals.total) + " but the textbook baseline " +
                           std::to_string(baseline_total));
}

std::optional<double> speed_ratio(const std::optional<Timing>& reference, const Timing& timing) {
  if (!reference || !reference->comparable || !timing.comparable || timing.median_seconds <= 0) return std::nullopt;
  return reference->median_seconds / timing.median_seconds;
}

std::optional<double> speed_ratio_stddev(const std::optional<Timing>& reference, const Timing& timing) {
  const std::optional<double> ratio = speed_ratio(reference, timing);
  if (!ratio || reference->mean_seconds <= 0 || timing.mean_seconds <= 0) return std::nullopt;
  const double a = reference->stddev_seconds / reference->mean_seconds;
  const double b = timing.stddev_seconds / timing.mean_seconds;
  return *ratio * std::sqrt(a * a + b * b);
}

CriticalPath critical_path(const std::vector<std::uint64_t>& unit_nodes) {
  CriticalPath path;
  const double total = std::accumulate(unit_nodes.begin(), unit_nodes.end(), 0.0);
  if (total == 0) return path;
  const double largest = static_cast<double>(*std::max_element(unit_nodes.begin(), unit_nodes.end()));
  path.largest_unit_share = largest / total;
  auto ceiling = [&](double threads) { return total / std::max(total / threads, largest); };
  path.ceiling_16 = ceiling(16);
  path.ceiling_64 = ceiling(64);
  path.ceiling_256 = ceiling(256);
  return path;
}

}  // namespace nqueens
