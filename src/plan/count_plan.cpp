// The library's plan_count(): the same steps as `nqueens plan` (src/cli/plan_command.cpp), without
// the report.
#include <memory>
#include <stdexcept>
#include <string>

#include "nqueens/plan.hpp"
#include "plan/memory_ask.hpp"
#include "plan/plan.hpp"
#include "run/registry.hpp"

namespace nqueens {

CountPlan plan_count(int n, const CountPlanOptions& options) {
  // Built for the run's threads, as count builds it (and `nqueens plan`): its memory plan shares
  // the budget among them, and a budget too small for them is refused as count refuses it.
  if (options.ranks_per_node < 1 || options.ranks_per_node > options.ranks)
    throw std::invalid_argument("a node holds 1 to all " + std::to_string(options.ranks) + " ranks, not " +
                                std::to_string(options.ranks_per_node));
  const RunRequest request = request_run(n, options.count);
  const int threads = request.threads;
  const std::uint64_t program = plan::program_memory_bytes();  // before anything is built for the run
  // One arena, the sample's, for the engine's setup and the sample, as `nqueens plan`.
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
  result.wall_error = plan::counting_error_seconds(run);
  result.busy_cores = run.busy_cores;
  result.busy_factor = run.busy_factor;
  result.memory_bytes = run.counting_memory_bytes;
  result.program_memory_bytes = program;
  result.count_memory = plan::count_memory_option(run.counting_memory_bytes);
  result.ranks_per_node = options.ranks_per_node;
  result.node_memory_bytes = plan::node_memory_bytes(program + run.counting_memory_bytes, options.ranks_per_node);
  result.slurm_mem = plan::slurm_mem_option(result.node_memory_bytes);
  result.journal_bytes = run.journal_bytes;
  result.sample_seconds = run.sample_seconds;
  result.advised_sample_seconds = run.advised_sample_seconds;
  return result;
}

}  // namespace nqueens
