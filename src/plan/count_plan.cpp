// The library's plan_count(): the same steps as `nqueens plan` (src/cli/plan_command.cpp), without
// the report.
#include <memory>

#include "nqueens/plan.hpp"
#include "plan/plan.hpp"
#include "run/registry.hpp"

namespace nqueens {

CountPlan plan_count(int n, const CountPlanOptions& options) {
  // Built for the run's threads, as count builds it (and `nqueens plan`): its memory plan shares
  // the budget among them, and a budget too small for them is refused as count refuses it.
  // One arena, the sample's, for the engine's setup and the sample, as `nqueens plan`.
  const RunRequest request = request_run(n, options.count);
  const int threads = request.threads;
  plan::PlanOptions planning;
  planning.threads = threads;
  planning.ranks = options.ranks;
  planning.sample_seconds = options.sample_seconds;
  planning.confidence = options.confidence;
  RunArena arena(plan::sampling_threads(planning));
  const std::unique_ptr<Engine> engine = make_engine(request, arena);
  const plan::RunPlan run = plan::plan_run(*engine, planning, arena);

  CountPlan result;
  result.n = n;
  result.engine = engine->header().engine;
  result.threads = threads;
  result.ranks = options.ranks;
  result.units = run.units;
  result.sampled_units = run.sampled_units;
  result.thread_seconds = run.thread.total;
  result.thread_error = run.half_width;
  result.confidence = run.confidence;
  result.wall_seconds = run.counting_seconds;
  result.memory_bytes = run.counting_memory_bytes;
  result.journal_bytes = run.journal_bytes;
  result.sample_seconds = run.sample_seconds;
  result.advised_sample_seconds = run.advised_sample_seconds;
  return result;
}

}  // namespace nqueens
