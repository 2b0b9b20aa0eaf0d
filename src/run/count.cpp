#include "nqueens/count.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <oneapi/tbb/info.h>

#include "engine/setup_stop.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"

namespace nqueens {

std::vector<EngineInfo> available_engines() {
  std::vector<EngineInfo> engines;
  for (const EngineDescription* engine : registered_engines())
    engines.push_back({std::string(engine->name), std::string(engine->summary),
                       std::vector<std::string>(engine->settings.begin(), engine->settings.end())});
  return engines;
}

int hardware_threads() { return tbb::info::default_concurrency(); }

int resolve_threads(int requested) {
  if (requested < 0 || requested > kMaxThreads)
    throw std::invalid_argument("thread count must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(requested));
  return requested == 0 ? hardware_threads() : requested;
}

CountResult count(int n, const CountOptions& options) {
  const int threads = resolve_threads(options.threads);
  const auto start = std::chrono::steady_clock::now();
  std::optional<JournalRequest> journal;
  if (!options.checkpoint.empty()) journal = JournalRequest{options.checkpoint};
  std::optional<detail::SetupScope> setup(std::in_place, options.stop, nullptr);
  Run run(make_engine(n, options), Selection::whole_run(), journal);
  setup.reset();
  UnitObserver observer = options.on_unit_done;
  if (options.on_progress) {
    auto done = std::make_shared<std::atomic<std::size_t>>(run.done_before());
    const std::size_t total = run.wanted().size();
    options.on_progress({*done, total});
    observer = [done, total, &options](std::size_t id, const Tally& tally) {
      if (options.on_unit_done) options.on_unit_done(id, tally);
      options.on_progress({++*done, total});
    };
  }
  run.execute(threads, observer, options.stop);
  if (!run.complete())
    throw Cancelled("the count of N=" + std::to_string(n) + " was stopped before all " +
                    std::to_string(run.wanted().size()) + " work units were counted");
  return run.result(threads, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace nqueens
