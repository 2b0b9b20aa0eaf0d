#include "plan/rough_cost.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace nqueens::plan {

namespace {

struct Measured {
  int n;
  double thread_seconds;
};

// `bench -n N -t 1` medians at N = 12 to 18 (docs/data/bench-122f8c8.csv): about 7.2 times
// more each N.
constexpr Measured kDfs[] = {{12, 5.95e-4}, {13, 2.62e-3}, {14, 0.0139}, {15, 0.0766},
                             {16, 0.521},   {17, 3.49},    {18, 25.1}};

// One-thread bench medians at N = 16 to 19 (bench-122f8c8.csv; N = 19 in "N = 19 to 22"), the CPU
// time of the two-thread counts at N = 20 to 22, and the plan that timed every band at N = 24
// (1.05 M s). N = 23 was not measured: it lies between its neighbours, and from N = 24 on each N
// costs the mean growth from 22 to 24 (13.5 times, odd and even N alike).
constexpr Measured kJoin[] = {{16, 0.0557}, {17, 0.820}, {18, 2.19},   {19, 13.9},
                              {20, 67.8},   {21, 803.4}, {22, 5742.4}, {24, 1.05e6}};

std::span<const Measured> measurements(std::string_view engine) {
  if (engine == "dfs") return kDfs;
  if (engine == "join") return kJoin;
  return {};
}

// Geometric interpolation between two measured sizes, or extrapolation past the second.
double between(const Measured& low, const Measured& high, int n) {
  const double growth = std::pow(high.thread_seconds / low.thread_seconds, 1.0 / (high.n - low.n));
  return low.thread_seconds * std::pow(growth, n - low.n);
}

}  // namespace

std::optional<double> rough_thread_seconds(std::string_view engine, int n) {
  const std::span<const Measured> table = measurements(engine);
  if (table.size() < 2) return std::nullopt;
  if (n <= table.front().n) return table.front().thread_seconds;
  const auto above = std::find_if(table.begin(), table.end(), [n](const Measured& m) { return m.n >= n; });
  if (above == table.end()) return between(table[table.size() - 2], table.back(), n);
  if (above->n == n) return above->thread_seconds;
  return between(*(above - 1), *above, n);
}

double rough_wall_seconds(double thread_seconds, int threads) { return thread_seconds / std::max(threads, 1); }

}  // namespace nqueens::plan
