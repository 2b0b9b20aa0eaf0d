#include "nqueens/engine.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include <oneapi/tbb/info.h>

namespace nqueens {

int hardware_threads() { return tbb::info::default_concurrency(); }

CountResult count(int n, const CountOptions& options) {
  const int threads = options.threads == 0 ? hardware_threads() : options.threads;
  if (threads < 1 || threads > kMaxThreads)
    throw std::invalid_argument("thread count must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(options.threads));
  const auto start = std::chrono::steady_clock::now();
  const WorkPlan plan = split(n, options.symmetry, options.split_depth);

  CountResult result;
  result.n = n;
  result.totals = run_units(plan, threads, options.on_unit_done);
  if (options.symmetry == Symmetry::full) result.unique = result.totals.unique();
  result.symmetry = options.symmetry;
  result.split_depth = plan.split_depth;
  result.work_units = plan.units.size();
  result.threads = threads;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace nqueens
