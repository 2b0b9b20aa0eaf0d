#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "baseline.hpp"

namespace nqueens {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

Timing time_engine(int n, const CountOptions& options, int repeats, CountResult& last) {
  Timing timing;
  for (int i = 0; i < repeats; ++i) {
    last = count(n, options);
    timing.seconds.push_back(last.seconds);
  }
  timing.median_seconds = median(timing.seconds);
  return timing;
}

Timing time_textbook(int n, int repeats, std::uint64_t& count) {
  Timing timing;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    count = textbook_count(n);
    timing.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  timing.median_seconds = median(timing.seconds);
  return timing;
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
