#include "nqueens/count.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/setup_stop.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "run/run_arena.hpp"
#include "run/run_request.hpp"

namespace nqueens {

std::vector<EngineInfo> available_engines() {
  std::vector<EngineInfo> engines;
  for (const EngineDescription* engine : registered_engines()) {
    EngineInfo info{std::string(engine->name), std::string(engine->summary), {}};
    for (const SettingDescription& setting : engine->settings) info.settings.emplace_back(setting.name);
    engines.push_back(std::move(info));
  }
  return engines;
}

namespace {

// The share of the work that `done` of `total` cost is; a run of no cost is done.
double work_share(std::uint64_t done, std::uint64_t total) {
  return total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
}

// Reports the progress once now, with what a journal held, and returns the observer that reports
// it after each unit (after options.on_unit_done). Units and cost are two relaxed counters each
// worker adds to, so a report may pair a unit count with a cost a unit ahead or behind: progress,
// not a count.
UnitObserver progress_observer(const Run& run, const CountOptions& options) {
  const Engine& engine = run.engine();
  std::uint64_t cost_total = 0, cost_before = 0;
  for (const std::size_t id : run.wanted()) cost_total += engine.cost(id);
  for (const std::size_t id : run.done()) cost_before += engine.cost(id);
  auto units_done = std::make_shared<std::atomic<std::size_t>>(run.done_before());
  auto cost_done = std::make_shared<std::atomic<std::uint64_t>>(cost_before);
  const std::size_t total = run.wanted().size();
  options.on_progress({*units_done, total, work_share(cost_before, cost_total)});
  return [units_done, cost_done, cost_total, total, &engine, &options](std::size_t id, const Tally& tally) {
    if (options.on_unit_done) options.on_unit_done(id, tally);
    const std::uint64_t cost = engine.cost(id);
    const std::uint64_t cost_now = cost_done->fetch_add(cost, std::memory_order_relaxed) + cost;
    const std::size_t units_now = units_done->fetch_add(1, std::memory_order_relaxed) + 1;
    options.on_progress({units_now, total, work_share(cost_now, cost_total)});
  };
}

}  // namespace

CountResult count(int n, const CountOptions& options) {
  const RunRequest request = request_run(n, options);
  const int threads = request.threads;
  const auto start = std::chrono::steady_clock::now();
  std::optional<JournalRequest> journal;
  if (!options.checkpoint.empty()) journal = JournalRequest{options.checkpoint};
  RunArena arena(threads);
  std::optional<detail::SetupScope> setup(std::in_place, options.stop, nullptr);
  Run run(make_engine(request, arena), Selection::whole_run(), journal);
  setup.reset();
  UnitObserver observer = options.on_unit_done;
  if (options.on_progress) observer = progress_observer(run, options);
  run.execute(arena, observer, options.stop);
  if (!run.complete())
    throw Cancelled("the count of N=" + std::to_string(n) + " was stopped before all " +
                    std::to_string(run.wanted().size()) + " work units were counted");
  return run.result(threads, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace nqueens
