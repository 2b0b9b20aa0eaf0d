#include "draw_policy.hpp"

#include <algorithm>

namespace nqueens::mpi {

namespace {

// Each unit learnt weighs this much less on the rate than the one after it: the rate follows the
// last few hundred units, as the list moves from its costliest units to its cheapest and the
// estimate's scale drifts.
constexpr double kKeep = 1.0 - 1.0 / 256;

double weight(std::uint64_t cost) { return static_cast<double>(cost) + 1.0; }

}  // namespace

DrawPolicy::DrawPolicy(std::span<const std::uint64_t> costs, int ranks, int threads)
    : prefix_(costs.size() + 1, 0.0), ranks_(std::max(ranks, 1)), threads_(std::max(threads, 1)) {
  for (std::size_t i = 0; i < costs.size(); ++i) prefix_[i + 1] = prefix_[i] + weight(costs[i]);
}

double DrawPolicy::cost(std::uint64_t begin, std::uint64_t end) const {
  const std::uint64_t size = prefix_.size() - 1;
  begin = std::min(begin, size);
  end = std::clamp(end, begin, size);
  return prefix_[end] - prefix_[begin];
}

double DrawPolicy::worth(std::uint64_t at) const {
  const std::uint64_t threads = static_cast<std::uint64_t>(threads_);
  // Until a unit has been timed: one unit per thread.
  const double timed = rate() > 0 ? static_cast<double>(threads_) * static_cast<double>(kPerThread.count()) / rate()
                                  : cost(at, at + threads);
  const double share = cost(at, prefix_.size()) / (kShare * ranks_);
  return std::min(timed, share);
}

std::uint64_t DrawPolicy::positions(std::uint64_t at, double worth) const {
  const std::uint64_t size = prefix_.size() - 1;
  if (at >= size) return 1;
  // The last position whose prefix stays within prefix_[at] + worth.
  const auto end =
      std::upper_bound(prefix_.begin() + static_cast<std::ptrdiff_t>(at) + 1, prefix_.end(), prefix_[at] + worth);
  const auto taken = static_cast<std::uint64_t>(end - prefix_.begin()) - 1 - at;
  return std::max<std::uint64_t>(taken, 1);
}

void DrawPolicy::learn(std::uint64_t cost, std::uint64_t microseconds) {
  micros_seen_ = micros_seen_ * kKeep + static_cast<double>(microseconds);
  cost_seen_ = cost_seen_ * kKeep + weight(cost);
}

}  // namespace nqueens::mpi
