#include "shell/progress/eta.hpp"

#include <algorithm>
#include <cmath>

namespace nqueens::shell {

double thread_clock_seconds(double wall_seconds, double cpu_seconds, int threads) {
  return std::clamp(cpu_seconds / std::max(threads, 1), 0.0, std::max(wall_seconds, 0.0));
}

std::optional<double> EtaSmoother::update(double elapsed_seconds, double done_share) {
  if (done_share >= 1) return 0.0;
  if (done_share <= 0 || elapsed_seconds < kFirstEtaSeconds) return std::nullopt;
  const double raw_finish = elapsed_seconds / done_share;
  if (!finish_) {
    finish_ = raw_finish;
  } else {
    const double window = std::max(kLeastWindowSeconds, elapsed_seconds / 10);
    const double weight = 1 - std::exp(-std::max(elapsed_seconds - last_elapsed_, 0.0) / window);
    *finish_ += weight * (raw_finish - *finish_);
  }
  last_elapsed_ = elapsed_seconds;
  return std::max(*finish_ - elapsed_seconds, 0.0);
}

}  // namespace nqueens::shell
