#include "bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
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

Timing summarize(std::vector<double> samples) {
  Timing timing;
  timing.seconds = std::move(samples);
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
  return timing;
}

Timing time_engine(int n, const CountOptions& options, Repeats repeats, CountResult& last) {
  for (int i = 0; i < repeats.warmup; ++i) last = count(n, options);
  std::vector<double> samples;
  for (int i = 0; i < repeats.timed; ++i) {
    last = count(n, options);
    samples.push_back(last.seconds);
  }
  return summarize(std::move(samples));
}

Timing time_textbook(int n, Repeats repeats, std::uint64_t& count) {
  for (int i = 0; i < repeats.warmup; ++i) count = textbook_count(n);
  std::vector<double> samples;
  for (int i = 0; i < repeats.timed; ++i) {
    const auto start = std::chrono::steady_clock::now();
    count = textbook_count(n);
    samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize(std::move(samples));
}

void check_against_baseline(const CountResult& result, std::uint64_t baseline_total) {
  if (result.totals.total == baseline_total) return;
  throw std::runtime_error("N=" + std::to_string(result.n) + ": the " + result.engine +
                           " engine counted " + to_string(result.totals.total) + " but the textbook baseline " +
                           std::to_string(baseline_total));
}

std::optional<double> speed_ratio(std::optional<double> reference_seconds, double seconds) {
  if (!reference_seconds || *reference_seconds < kShortestComparable || seconds < kShortestComparable)
    return std::nullopt;
  return *reference_seconds / seconds;
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
