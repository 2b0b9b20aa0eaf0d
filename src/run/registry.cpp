#include "run/registry.hpp"

#include <array>
#include <stdexcept>

#include "engine/memory_budget.hpp"

namespace nqueens {

// Each made in its engine's folder (src/<engine>/<engine>_engine.cpp).
const EngineDescription& gpu_engine_description();
const EngineDescription& join_engine_description();
const EngineDescription& dfs_engine_description();
const EngineDescription& reference_engine_description();

// The registry: one line per engine, in the order `auto` considers them (ADDING_AN_ENGINE.md).
std::span<const EngineDescription* const> engine_registry() {
  static const std::array engines = {
      &gpu_engine_description(),
      &join_engine_description(),
      &dfs_engine_description(),
      &reference_engine_description(),
  };
  return engines;
}

namespace {

// Handed to the catalogue as the library loads, before anything can ask it for an engine.
[[maybe_unused]] const bool catalogued = (catalogue_engines(engine_registry()), true);

}  // namespace

const EngineDescription& choose_engine(int n, const CountOptions& options) {
  if (options.engine == kAutomaticEngine) {
    std::string why;  // the last preferred engine's reason: the most general one's
    for (const EngineDescription* engine : registered_engines()) {
      if (!engine->preferred_for(n, options)) continue;
      why = engine->refusal(n, options);
      if (why.empty()) why = settings_problem(*engine, options.settings);
      if (why.empty()) return *engine;
    }
    throw std::invalid_argument("no engine can count N=" + std::to_string(n) + ": " + why);
  }
  const EngineDescription* engine = find_engine(options.engine);
  if (!engine)
    throw std::invalid_argument("unknown engine '" + options.engine + "' (engines: " + engine_choices() + ")");
  std::string why = engine->refusal(n, options);
  if (why.empty()) why = settings_problem(*engine, options.settings);
  if (!why.empty())
    throw std::invalid_argument("the " + options.engine + " engine cannot count N=" + std::to_string(n) + ": " + why);
  return *engine;
}

std::unique_ptr<Engine> make_engine(const RunRequest& request, RunArena& arena) {
  // An engine with a memory plan refuses a budget too small as it builds; the others, here.
  note_least_budget({.threads = request.threads, .n = request.n});  // the engine adds what it needs at the least
  if (!request.engine->memory_plan) (void)memory_plan(request);
  const AllocationStage stage("building the engine (its unit list and tables)");
  return arena.execute([&] { return request.engine->make(request); });
}

std::unique_ptr<Engine> make_engine(const RunRequest& request) {
  RunArena arena(request.threads);
  return make_engine(request, arena);
}

std::unique_ptr<Engine> make_engine(int n, const CountOptions& options) { return make_engine(request_run(n, options)); }

std::string plan_memory(RunRequest& request) {
  if (request.memory_plan) return request.memory_plan->line();
  if (request.engine->memory_plan) {
    request.memory_plan = request.engine->memory_plan(request);
    return request.memory_plan->line();
  }
  return memory_plan(request);
}

std::string memory_plan(const RunRequest& request) {
  const EngineDescription& engine = *request.engine;
  if (request.memory_plan) return request.memory_plan->line();
  if (engine.memory_plan) return engine.memory_plan(request)->line();
  if (engine.budget_refusal)
    if (const std::string why = engine.budget_refusal(request.n, request.options); !why.empty())
      throw std::invalid_argument("the " + std::string(engine.name) +
                                  " engine cannot count N=" + std::to_string(request.n) + ": " + why);
  return "";
}

CountOptions options_of(const RunHeader& header) {
  CountOptions options;
  options.engine = header.engine;
  options.settings = header.settings;
  return options;
}

}  // namespace nqueens
