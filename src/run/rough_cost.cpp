#include "run/rough_cost.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace nqueens {

namespace {

// Geometric interpolation between two measured sizes, or extrapolation past the second.
double between(const RoughCost& low, const RoughCost& high, int n) {
  const double growth = std::pow(high.thread_seconds / low.thread_seconds, 1.0 / (high.n - low.n));
  return low.thread_seconds * std::pow(growth, n - low.n);
}

}  // namespace

std::optional<double> rough_thread_seconds(const EngineDescription& engine, int n) {
  const std::span<const RoughCost> table = engine.rough_costs;
  if (table.size() < 2) return std::nullopt;
  if (n <= table.front().n) return table.front().thread_seconds;
  const auto above = std::find_if(table.begin(), table.end(), [n](const RoughCost& m) { return m.n >= n; });
  if (above == table.end()) return between(table[table.size() - 2], table.back(), n);
  if (above->n == n) return above->thread_seconds;
  return between(*(above - 1), *above, n);
}

double rough_wall_seconds(double thread_seconds, int threads) { return thread_seconds / std::max(threads, 1); }

}  // namespace nqueens
