// The two engines behind one seam: the join engine against the DFS engine and the slow
// reference, the unique and rotation-symmetric counts against brute force, the automatic
// choice, and the pipeline (threads, shards) run over the join engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/memory_budget.hpp"
#include "join/join_engine.hpp"
#include "join/join_plan.hpp"
#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "run/schedule.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::CountOptions;
using nqueens::CountResult;
using nqueens::to_string;
using test_support::describe;

CountOptions with_engine(std::string engine, int threads = 2) {
  CountOptions options;
  options.engine = engine;
  options.threads = threads;
  return options;
}

CountResult count_with(int n, std::string engine, int threads = 2) {
  return nqueens::count(n, with_engine(engine, threads));
}

// Brute force over every solution of the reference solver: how many are their own half-turn
// and quarter-turn images (test_support::image moves the queens square by square).
std::pair<std::uint64_t, std::uint64_t> brute_rotation_fixed(int n) {
  std::uint64_t half = 0, quarter = 0;
  nqueens::reference_solutions(n, [&](const std::vector<int>& board) {
    half += test_support::image(board, 3) == board ? 1 : 0;
    quarter += test_support::image(board, 6) == board ? 1 : 0;
  });
  return {half, quarter};
}

TEST(JoinEngine, AgreesWithTheDfsEngineAndTheReferenceForEverySmallN) {
  for (int n = nqueens::join::kMinJoinN; n <= 14; ++n) {
    const CountResult join = count_with(n, "join");
    const CountResult dfs = count_with(n, "dfs");
    EXPECT_EQ(join.engine, "join");
    EXPECT_EQ(to_string(join.totals.total), to_string(dfs.totals.total)) << "n=" << n;
    ASSERT_TRUE(join.unique && dfs.unique) << "n=" << n;
    EXPECT_EQ(to_string(*join.unique), to_string(*dfs.unique)) << "n=" << n;
    if (n <= 11) {
      EXPECT_EQ(join.totals.total, nqueens::reference_count(n)) << "n=" << n;
    }
  }
}

TEST(JoinEngine, RotationFixedCountsMatchBruteForceAndTheDfsOrbits) {
  for (int n = nqueens::join::kMinJoinN; n <= 13; ++n) {
    const CountResult join = count_with(n, "join");
    const CountResult dfs = count_with(n, "dfs");
    ASSERT_TRUE(join.half_turn_fixed && join.quarter_turn_fixed && dfs.half_turn_fixed) << "n=" << n;
    EXPECT_EQ(to_string(*join.half_turn_fixed), to_string(*dfs.half_turn_fixed)) << "n=" << n;
    EXPECT_EQ(to_string(*join.quarter_turn_fixed), to_string(*dfs.quarter_turn_fixed)) << "n=" << n;
    if (n <= 11) {
      const auto [half, quarter] = brute_rotation_fixed(n);
      EXPECT_EQ(*join.half_turn_fixed, half) << "n=" << n;
      EXPECT_EQ(*join.quarter_turn_fixed, quarter) << "n=" << n;
    }
  }
}

TEST(JoinEngine, MatchesTheOeisUpTo17) {
  for (int n = 15; n <= 17; ++n) {
    const CountResult r = count_with(n, "join");
    EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(n))) << "n=" << n;
    ASSERT_TRUE(r.unique.has_value());
    EXPECT_EQ(to_string(*r.unique), std::to_string(*nqueens::oeis_unique(n))) << "n=" << n;
  }
}

TEST(JoinEngine, EveryUnitCountsTheSameOnAnyThreadCount) {
  for (int n : {12, 13}) {
    const auto engine = nqueens::make_join_engine(n);
    std::map<int, std::vector<nqueens::Tally>> per_unit;
    for (int threads : {1, 3}) {
      std::vector<nqueens::Tally> tallies(engine->unit_count());
      nqueens::run_units(*engine, threads, [&tallies](std::size_t id, const nqueens::Tally& t) { tallies[id] = t; });
      per_unit[threads] = tallies;
    }
    EXPECT_EQ(per_unit[1], per_unit[3]) << "n=" << n;
  }
}

// The engine's setup (unit list, costs, the costliest-first order shards are assigned by) runs
// in parallel on the run's threads; it must come out the same on any thread count, and the
// order must be a plain stable sort of the costs.
TEST(JoinEngine, SetupIsTheSameOnAnyThreadCountAndOrdersAsAStableSort) {
  for (int n : {13, 14, 17}) {
    const auto one = nqueens::make_engine(n, with_engine("join", 1));
    const auto three = nqueens::make_engine(n, with_engine("join", 3));
    ASSERT_EQ(one->header(), three->header()) << "n=" << n;
    std::vector<std::uint64_t> costs;
    for (std::size_t id = 0; id < one->unit_count(); ++id) {
      costs.push_back(one->cost(id));
      ASSERT_EQ(costs.back(), three->cost(id)) << "n=" << n << " unit " << id;
    }
    std::vector<std::size_t> stable(costs.size());
    std::iota(stable.begin(), stable.end(), std::size_t{0});
    std::stable_sort(stable.begin(), stable.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
    EXPECT_TRUE(std::ranges::equal(one->costliest_first(), stable)) << "n=" << n;
    EXPECT_TRUE(std::ranges::equal(three->costliest_first(), stable)) << "n=" << n;
  }
}

TEST(JoinEngine, ShardsOfAJoinRunAddUpToTheWholeRun) {
  const auto engine = nqueens::make_join_engine(13);
  nqueens::Totals summed;
  std::size_t units = 0;
  for (int i = 1; i <= 3; ++i) {
    nqueens::Run shard(nqueens::make_join_engine(13), nqueens::Selection::shard({i, 3}));
    shard.execute(2);
    const CountResult part = shard.result(2, 0);
    EXPECT_FALSE(part.unique.has_value()) << "a shard of a join run has no unique count of its own";
    summed += part.totals;
    units += shard.wanted().size();
  }
  EXPECT_EQ(units, engine->unit_count());
  EXPECT_EQ(to_string(summed.total), "73712");
  const CountResult merged = nqueens::make_count_result(engine->header(), summed, {}, true, 2, 0);
  ASSERT_TRUE(merged.unique.has_value());
  EXPECT_EQ(to_string(*merged.unique), "9233");
}

TEST(EngineChoice, AutoPicksTheMeasuredFasterEngineAndFallsBackWhereTheJoinCannotRun) {
  const CountOptions automatic = with_engine("auto");
  EXPECT_EQ(nqueens::choose_engine(1, automatic).name, "dfs");
  EXPECT_EQ(nqueens::choose_engine(3, automatic).name, "dfs");
  EXPECT_EQ(nqueens::choose_engine(12, automatic).name, "dfs") << "even boards: join from 14";
  EXPECT_EQ(nqueens::choose_engine(14, automatic).name, "join");
  EXPECT_EQ(nqueens::choose_engine(13, automatic).name, "dfs") << "odd boards: join from 15";
  EXPECT_EQ(nqueens::choose_engine(15, automatic).name, "join");
  EXPECT_EQ(nqueens::choose_engine(16, automatic).name, "join");
  EXPECT_EQ(nqueens::choose_engine(17, automatic).name, "join");
  EXPECT_EQ(nqueens::choose_engine(24, automatic).name, "join") << "no longer the DFS engine for memory";
  EXPECT_EQ(nqueens::choose_engine(27, automatic).name, "join");
  EXPECT_EQ(nqueens::choose_engine(32, automatic).name, "join");
  const CountOptions mirror = test_support::with_symmetry(automatic, nqueens::Symmetry::mirror);
  EXPECT_EQ(nqueens::choose_engine(16, mirror).name, "dfs") << "--symmetry is a dfs option";
  EXPECT_EQ(count_with(3, "auto").totals.total, 0u);
}

// A run's memory plan is made once (run/registry.hpp, plan_memory) and carried in its request:
// the join engine is built from the plan the request carries, not from a second one, so that the
// check before the count, the log line and the construction read one plan per N. A plan made
// under other figures (another budget) is not the run's, and is worked out again.
TEST(EngineMemoryPlan, TheJoinIsBuiltFromThePlanItsRequestCarries) {
  nqueens::RunRequest request = nqueens::request_run(16, with_engine("join"));
  const std::string line = nqueens::plan_memory(request);
  ASSERT_NE(request.memory_plan, nullptr);
  EXPECT_EQ(request.memory_plan->line(), line);
  EXPECT_NE(line.find("join engine: memory budget"), std::string::npos) << line;
  const std::shared_ptr<const nqueens::MemoryPlan> made = request.memory_plan;
  EXPECT_EQ(nqueens::plan_memory(request), line);
  EXPECT_EQ(request.memory_plan, made) << "a carried plan was made again";
  const std::uint64_t planned = nqueens::make_engine(request)->planned_memory_bytes(2);

  nqueens::join::JoinMemory altered = dynamic_cast<const nqueens::join::JoinMemoryPlan&>(*made).memory();
  altered.thread_buffer_bytes += 1000;  // figures of this run no second plan would give
  request.memory_plan = std::make_shared<const nqueens::join::JoinMemoryPlan>(line, altered);
  EXPECT_EQ(nqueens::make_engine(request)->planned_memory_bytes(2), planned + 2000);
  altered.budget += 1;
  request.memory_plan = std::make_shared<const nqueens::join::JoinMemoryPlan>(line, altered);
  EXPECT_EQ(nqueens::make_engine(request)->planned_memory_bytes(2), planned);
}

// The least budget a run's engine notes as it is built (for the advice after memory runs out) is
// the budget it refuses below: one byte less is refused, that much is not.
TEST(EngineMemoryPlan, TheLeastBudgetNotedIsTheRefusalsThreshold) {
  for (const auto& [n, engine] : {std::pair{16, "join"}, std::pair{22, "dfs"}}) {
    CountOptions options = with_engine(engine);
    options.threads = 2;
    (void)nqueens::make_engine(nqueens::request_run(n, options));
    const nqueens::LeastBudget least = nqueens::noted_least_budget();
    EXPECT_EQ(least.threads, 2) << engine;
    ASSERT_GT(least.on(2), 0u) << engine;
    options.memory_bytes = least.on(2);
    EXPECT_NO_THROW((void)nqueens::memory_plan(nqueens::request_run(n, options))) << engine;
    options.memory_bytes = least.on(2) - 1;
    EXPECT_THROW((void)nqueens::memory_plan(nqueens::request_run(n, options)), std::invalid_argument) << engine;
  }
}

TEST(EngineChoice, AnExplicitJoinThatCannotRunIsBadInputWithTheReason) {
  const CountOptions join = with_engine("join");
  CountOptions small_budget = join;
  small_budget.memory_bytes = std::uint64_t{256} << 20;  // N = 27's unit list alone takes 362 MiB
  for (int n : {1, 2, 3, 27}) {
    try {
      (void)nqueens::choose_engine(n, join).name;
      (void)nqueens::memory_plan(nqueens::request_run(n, small_budget));
      ADD_FAILURE() << "n=" << n << " was accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("the join engine cannot count N=" + std::to_string(n)),
                std::string::npos)
          << error.what();
    }
  }
  CountOptions depth = join;
  depth.settings["split-depth"] = "3";
  try {
    (void)nqueens::choose_engine(16, depth);
    ADD_FAILURE() << "a split depth was taken by the join engine";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("so it takes no --split-depth 3"), std::string::npos) << error.what();
  }
}

// An engine's own settings are its to read: the dfs engine takes its two and refuses anything
// else by name; the others take none; and available_engines() says which take what.
TEST(EngineChoice, EachEngineTakesOnlyItsOwnSettings) {
  CountOptions dfs = with_engine("dfs");
  dfs.settings = {{"symmetry", "mirror"}, {"split-depth", "4"}};
  EXPECT_EQ(nqueens::choose_engine(16, dfs).name, "dfs");
  EXPECT_EQ(nqueens::count(10, dfs).settings, dfs.settings);
  for (const nqueens::EngineSettings& bad : std::vector<nqueens::EngineSettings>{
           {{"symmetry", "half"}}, {{"split-depth", "9"}}, {{"split-depth", "3x"}}, {{"colour", "red"}}}) {
    dfs.settings = bad;
    EXPECT_THROW((void)nqueens::choose_engine(16, dfs), std::invalid_argument) << bad.begin()->first;
  }
  CountOptions automatic = with_engine("auto");
  automatic.settings = {{"split-depth", "3"}};
  EXPECT_EQ(nqueens::choose_engine(20, automatic).name, "dfs") << "only the dfs engine takes a split depth";
  for (const nqueens::EngineDescription* engine : nqueens::registered_engines()) {
    CountOptions unknown = with_engine(std::string(engine->name));
    unknown.settings = {{"colour", "red"}};
    EXPECT_NE(engine->refusal(16, unknown), "") << engine->name << " took a setting no engine has";
  }
  const auto listed = nqueens::available_engines();
  const auto dfs_listed = std::ranges::find(listed, "dfs", &nqueens::EngineInfo::name);
  ASSERT_NE(dfs_listed, listed.end());
  EXPECT_EQ(dfs_listed->settings, (std::vector<std::string>{"symmetry", "split-depth"}));
}

}  // namespace
