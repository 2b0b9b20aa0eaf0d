#include "nqueens/count.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/setup_stop.hpp"
#include "run/prepare.hpp"
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

// Reports at most this often, besides the first report and the last unit's: a caller drawing a
// bar needs no more, and N = 24 has 677,295 units.
constexpr auto kProgressPeriod = std::chrono::milliseconds(100);

// What progress_observer's reports share across the workers.
struct ProgressState {
  std::mutex lock;
  std::size_t units_done = 0;
  std::uint64_t cost_done = 0;
  std::chrono::steady_clock::time_point last_report{};
};

// Reports the progress once now, with what a journal held, and returns the observer that counts
// each unit (after options.on_unit_done, which sees every unit) and reports at most every
// kProgressPeriod and at the last unit. The count and the report are made under one lock, so
// reports come one at a time, never at once from two threads, and their values only grow.
UnitObserver progress_observer(const Run& run, const CountOptions& options) {
  const Engine& engine = run.engine();
  std::uint64_t cost_total = 0, cost_before = 0;
  for (const std::size_t id : run.wanted()) cost_total += engine.cost(id);
  for (const std::size_t id : run.done()) cost_before += engine.cost(id);
  auto state = std::make_shared<ProgressState>();
  state->units_done = run.done_before();
  state->cost_done = cost_before;
  state->last_report = std::chrono::steady_clock::now();
  const std::size_t total = run.wanted().size();
  options.on_progress({state->units_done, total, work_share(cost_before, cost_total)});
  return [state, cost_total, total, &engine, &options](std::size_t id, const Tally& tally) {
    if (options.on_unit_done) options.on_unit_done(id, tally);
    const std::uint64_t cost = engine.cost(id);
    const std::lock_guard<std::mutex> guard(state->lock);
    state->cost_done += cost;
    ++state->units_done;
    const auto now = std::chrono::steady_clock::now();
    if (state->units_done < total && now - state->last_report < kProgressPeriod) return;
    state->last_report = now;
    options.on_progress({state->units_done, total, work_share(state->cost_done, cost_total)});
  };
}

}  // namespace

CountResult count(int n, const CountOptions& options) {
  RunPlace place;
  if (!options.checkpoint.empty()) place.checkpoint = options.checkpoint;
  // Prepared as the programs prepare theirs (run/prepare.hpp): the request (`auto` resumes a
  // journal with its own engine; the default budget), the journal free, the memory plan made once.
  PreparedRuns runs = prepare_runs({n}, options, place);
  const RunRequest& request = runs.requests.front();
  const int threads = request.threads;
  const auto start = std::chrono::steady_clock::now();
  RunArena arena(threads);
  std::optional<detail::SetupScope> setup(std::in_place, options.stop, nullptr);
  check_runs(runs, arena);
  std::optional<JournalRequest> journal;
  if (place.checkpoint) journal = JournalRequest{*place.checkpoint};
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
