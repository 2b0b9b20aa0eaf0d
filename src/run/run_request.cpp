#include "run/run_request.hpp"

#include <string>

#include "engine/memory_budget.hpp"
#include "run/registry.hpp"
#include "run/resume_engine.hpp"

namespace nqueens {

std::string settle_memory_budget(CountOptions& options, int processes_on_machine) {
  if (options.memory_bytes != 0) return "";
  // The threads of each process, and one more: the supervisor's, count()'s caller's or the MPI
  // rank's own.
  const DefaultBudget budget = default_budget(processes_on_machine, resolve_threads(options.threads) + 1);
  options.memory_bytes = budget.bytes;
  return budget.text;
}

RunRequest request_run(int n, const CountOptions& options) {
  RunRequest request;
  request.n = n;
  request.options = options;
  // Resolved here, once: the engine's refusal, its memory plan and its construction see these.
  request.threads = resolve_threads(options.threads);
  request.options.threads = request.threads;
  request.engine = &choose_engine(n, request.options);
  CountOptions settled = options;
  settle_memory_budget(settled);
  request.memory_bytes = settled.memory_bytes;
  request.options.engine = std::string(request.engine->name);
  request.options.memory_bytes = request.memory_bytes;
  return request;
}

RunRequest request_run(int n, const CountOptions& options, const std::optional<std::filesystem::path>& journal) {
  if (!journal) return request_run(n, options);
  const CountOptions resumed = resume_options(n, options, *journal);
  RunRequest request = request_run(n, resumed);
  request.engine_from_journal = resumed.engine != options.engine;
  // A second choice only where a journal overruled `auto`, to say so when it differs.
  request.engine_unlike_auto = request.engine_from_journal && request.engine != &choose_engine(n, options);
  return request;
}

}  // namespace nqueens
