#include "plan/makespan.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

namespace nqueens::plan {

double list_schedule_makespan(std::span<const double> seconds, std::size_t workers) {
  // No more workers than units can be busy: a cluster of more cores than units needs no heap of
  // all of them.
  const std::size_t busy = std::max<std::size_t>(1, std::min(workers, seconds.size()));
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (std::size_t i = 0; i < busy; ++i) free_at.push(0);
  double makespan = 0;
  for (const double unit : seconds) {
    const double done = free_at.top() + unit;
    free_at.pop();
    free_at.push(done);
    makespan = std::max(makespan, done);
  }
  return makespan;
}

}  // namespace nqueens::plan
