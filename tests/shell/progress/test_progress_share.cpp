// The progress line's share of work and `plan`'s prediction read one cost model: for the units a
// stopped count left in its journal, the share the resumed count shows is what `plan --units`
// predicts of those units over its whole run, within plan's bar.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "join/join_engine.hpp"
#include "plan/plan.hpp"
#include "shell/progress/progress.hpp"

namespace {

struct Split {
  std::vector<std::size_t> done, todo;
};

// The units a count stopped after `share` of its units has done: the first of its costliest-first
// order, the others still to do.
Split stopped_after(const nqueens::Engine& engine, double share) {
  const auto order = engine.costliest_first();
  const auto cut = static_cast<std::size_t>(share * static_cast<double>(order.size()));
  return {{order.begin(), order.begin() + static_cast<std::ptrdiff_t>(cut)},
          {order.begin() + static_cast<std::ptrdiff_t>(cut), order.end()}};
}

double progress_share(const nqueens::Engine& engine, const Split& split) {
  nqueens::shell::ProgressOptions quiet;
  quiet.enabled = false;
  nqueens::shell::Progress progress(engine, split.todo, split.done, quiet);
  return progress.snapshot().work_share;
}

// Both read N = 17's units: the model's weights (the share) and the units' CPU time (the plan).
// A model whose shape differs from the units' time fails every attempt; a plan disturbed by
// another job's burst seldom three in a row (as PlanHonesty.PlanLiesWithinItsBarOfTheRunItPlans).
TEST(ProgressShare, IsWhatPlanPredictsOfTheSameUnits) {
  const auto engine = nqueens::make_join_engine(17);
  for (const double share : {0.02, 0.3}) {
    const Split split = stopped_after(*engine, share);
    const double shown = progress_share(*engine, split);
    bool within = false;
    std::string attempts;
    for (int attempt = 0; attempt < 3 && !within; ++attempt) {
      nqueens::plan::PlanOptions options;
      options.sample_seconds = 0.5;
      options.part = split.done;
      const nqueens::plan::RunPlan plan = nqueens::plan::plan_run(*engine, options);
      const double predicted = plan.part_thread.total / plan.thread.total;
      const double bar = plan.part_half_width / plan.thread.total;
      within = std::abs(shown - predicted) <= bar;
      attempts += " [plan " + std::to_string(predicted) + " +- " + std::to_string(bar) + "]";
    }
    EXPECT_TRUE(within) << "the first " << split.done.size() << " units of N=17, costliest first: progress shows "
                        << shown << ", plan predicts" << attempts;
  }
}

// The share weighs units by the model's cost, not by their number: the costliest units first
// are more of the work than of the units.
TEST(ProgressShare, WeighsUnitsByTheirCost) {
  const auto engine = nqueens::make_join_engine(17);
  const Split split = stopped_after(*engine, 0.02);
  EXPECT_GT(progress_share(*engine, split), 0.05);
}

}  // namespace
