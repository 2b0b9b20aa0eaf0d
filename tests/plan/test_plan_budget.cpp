// A plan's sampling budget is CPU time of its sampling threads, not the wall clock: on a machine
// that other jobs load, a thread waits for a core, and a wall-clock budget timed fewer units
// there (N = 25 at a load of 7: 8 bands of 16) than it would on a quiet one.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "nqueens/version.hpp"
#include "plan/plan.hpp"
#include "support/spin.hpp"

namespace {

using namespace nqueens;
using namespace nqueens::plan;

using testing_support::spin_for;

// Units that each take kWork of CPU time and wait kWaiting for a core besides, as on a machine
// where other jobs keep the cores busy: by the wall clock a unit takes eleven times its work.
class WaitingEngine final : public Engine {
 public:
  static constexpr std::size_t kUnits = 60;
  static constexpr double kWork = 0.002, kWaiting = 0.02;

  WaitingEngine() {
    std::vector<std::uint64_t> costs(kUnits, static_cast<std::uint64_t>(kWork * 1e9));
    set_units(RunHeader{kVersion, "waiting", 8, {}, kUnits, 11}, std::move(costs));
  }
  bool costs_predict_time() const override { return true; }
  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<Counter>(); }
  std::string describe() const override { return "waiting"; }
  std::uint64_t planned_memory_bytes(int) const override { return 0; }

 private:
  class Counter final : public UnitCounter {
   public:
    Tally count(std::size_t) override {
      spin_for(kWork);
      std::this_thread::sleep_for(std::chrono::duration<double>(kWaiting));
      return {};
    }
  };
};

// A budget of 0.25 s of CPU time covers the 0.12 s of work of every unit, as it would on a quiet
// machine, though the units take 1.3 s by the clock; a wall-clock budget timed about a tenth of them.
TEST(PlanBudget, IsCpuTimeSoThatABusyMachineTimesTheSameUnits) {
  const WaitingEngine engine;
  PlanOptions options;
  options.threads = 1;
  options.sample_seconds = 0.25;
  options.target_precision = 0;  // sample until the budget is spent or every unit is timed
  const RunPlan plan = plan_run(engine, options);
  EXPECT_EQ(plan.sampled_units, WaitingEngine::kUnits)
      << "in " << plan.sample_seconds << " s by the clock, of a budget of " << options.sample_seconds << " s";
  EXPECT_GT(plan.sample_seconds, 0.5) << "the clock ran past the budget while the threads waited";
}

}  // namespace
