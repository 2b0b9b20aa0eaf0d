// The scheduler may run units in any order on any thread; the numbers must not notice.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dfs/dfs_engine.hpp"
#include "nqueens/nqueens.hpp"
#include "run/run.hpp"
#include "run/schedule.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::Symmetry;
using nqueens::Tally;
using nqueens::Totals;
using nqueens::WorkPlan;
using test_support::describe;
using test_support::kModes;

Totals sum_of_units(const WorkPlan& plan, const std::vector<std::size_t>& ids) {
  Totals sum;
  for (std::size_t id : ids) sum += nqueens::count_from(plan.units[id], plan.n);
  return sum;
}

// Records every observer call; the observer runs on worker threads, hence the lock.
struct Recorder {
  std::mutex lock;
  std::vector<int> calls;
  std::vector<Tally> tallies;

  explicit Recorder(std::size_t units) : calls(units), tallies(units) {}
  nqueens::UnitObserver observer() {
    return [this](std::size_t id, const Tally& tally) {
      const std::lock_guard<std::mutex> guard(lock);
      ++calls.at(id);
      tallies.at(id) = tally;
    };
  }
};

TEST(Schedule, ThreadCountDoesNotChangeTotals) {
  for (Symmetry mode : kModes)
    for (int n = 8; n <= 13; ++n) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " mode=" << nqueens::to_string(mode));
      const WorkPlan plan = nqueens::split(n, mode);
      const std::string one_thread = describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), 1));
      for (int threads : {2, 3, 8}) {
        EXPECT_EQ(describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), threads)), one_thread)
            << threads << " threads";
        EXPECT_EQ(describe(nqueens::count(n, test_support::options(mode, threads)).totals), one_thread)
            << threads << " threads";
      }
    }
}

TEST(Schedule, ObserverSeesEveryUnitOnceWithItsKernelTally) {
  for (Symmetry mode : kModes) {
    SCOPED_TRACE(nqueens::to_string(mode));
    const WorkPlan plan = nqueens::split(11, mode, 3);
    Recorder recorder(plan.units.size());
    const Totals totals = nqueens::run_units(*nqueens::make_dfs_engine(plan), 3, recorder.observer());
    Totals observed;
    for (std::size_t id = 0; id < plan.units.size(); ++id) {
      EXPECT_EQ(recorder.calls[id], 1) << "unit " << id;
      EXPECT_EQ(describe(recorder.tallies[id]), describe(nqueens::count_from(plan.units[id], plan.n))) << "unit " << id;
      observed += recorder.tallies[id];
    }
    EXPECT_EQ(describe(observed), describe(totals));
  }
}

TEST(Schedule, CountPassesTheObserverOn) {
  const WorkPlan plan = nqueens::split(9, Symmetry::full);
  Recorder recorder(plan.units.size());
  nqueens::CountOptions options = test_support::options(Symmetry::full, 2);
  options.on_unit_done = recorder.observer();
  nqueens::count(9, options);
  EXPECT_EQ(std::count(recorder.calls.begin(), recorder.calls.end(), 1),
            static_cast<std::ptrdiff_t>(plan.units.size()));
}

// Shards and resumed runs rely on this: running some ids gives exactly those units' sum.
TEST(Schedule, SubsetOfIdsGivesTheSumOfThoseUnits) {
  for (Symmetry mode : kModes) {
    SCOPED_TRACE(nqueens::to_string(mode));
    const WorkPlan plan = nqueens::split(10, mode, 3);
    std::vector<std::size_t> ids;
    for (std::size_t id = 0; id < plan.units.size(); id += 3) ids.push_back(id);
    if (ids.back() != plan.units.size() - 1) ids.push_back(plan.units.size() - 1);
    Recorder recorder(plan.units.size());
    const Totals got = nqueens::run_units(*nqueens::make_dfs_engine(plan), 2, recorder.observer(), ids);
    EXPECT_EQ(describe(got), describe(sum_of_units(plan, ids)));
    for (std::size_t id = 0; id < plan.units.size(); ++id)
      EXPECT_EQ(recorder.calls[id], std::count(ids.begin(), ids.end(), id) > 0 ? 1 : 0) << id;
  }
}

// The scheduler runs units costliest first whatever order the ids are listed in, so a test of
// other orders must change what "costliest" means: this engine is the dfs engine over `plan`,
// with costs that make `order` its costliest-first order. Its counters are the dfs engine's own.
class ReorderedDfsEngine final : public nqueens::Engine {
 public:
  ReorderedDfsEngine(const WorkPlan& plan, const std::vector<std::size_t>& order)
      : inner_(nqueens::make_dfs_engine(plan)) {
    std::vector<std::uint64_t> costs(order.size());
    for (std::size_t rank = 0; rank < order.size(); ++rank) costs.at(order[rank]) = order.size() - rank;
    set_units(inner_->header(), std::move(costs));
  }
  std::unique_ptr<nqueens::UnitCounter> make_counter() const override { return inner_->make_counter(); }
  std::string describe() const override { return inner_->describe(); }
  std::uint64_t planned_memory_bytes(int threads) const override { return inner_->planned_memory_bytes(threads); }

 private:
  std::unique_ptr<nqueens::Engine> inner_;
};

// The ids in the order the observer saw them, and each one's tally.
struct OrderRecorder {
  std::mutex lock;
  std::vector<std::size_t> seen;
  std::vector<Tally> tallies;

  explicit OrderRecorder(std::size_t units) : tallies(units) {}
  nqueens::UnitObserver observer() {
    return [this](std::size_t id, const Tally& tally) {
      const std::lock_guard<std::mutex> guard(lock);
      seen.push_back(id);
      tallies.at(id) = tally;
    };
  }
};

TEST(Schedule, UnitsRunInAnyOrderGiveTheSameUnitCountsAndTotals) {
  const WorkPlan plan = nqueens::split(10, Symmetry::mirror, 3);
  const std::size_t units = plan.units.size();
  std::vector<std::size_t> ascending(units);
  std::iota(ascending.begin(), ascending.end(), std::size_t{0});

  OrderRecorder expected(units);
  const Totals expected_totals = nqueens::run_units(ReorderedDfsEngine(plan, ascending), 1, expected.observer());
  ASSERT_EQ(expected.seen, ascending) << "one thread runs the units in the engine's order";

  std::vector<std::vector<std::size_t>> orders = {{ascending.rbegin(), ascending.rend()}};
  for (const unsigned seed : {1u, 2u, 3u, 20240601u}) {
    std::vector<std::size_t> shuffled = ascending;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(seed));
    orders.push_back(shuffled);
  }
  for (const std::vector<std::size_t>& order : orders) {
    ASSERT_NE(order, ascending);
    for (const int threads : {1, 2, 3}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, order starting " << order[0] << " " << order[1] << " "
                                      << order[2]);
      const ReorderedDfsEngine engine(plan, order);
      ASSERT_TRUE(std::ranges::equal(engine.costliest_first(), order));
      OrderRecorder got(units);
      // The ids listed in yet another order: the engine's order is the one that counts.
      const Totals totals = nqueens::run_units(engine, threads, got.observer(), order);
      if (threads == 1) {
        EXPECT_EQ(got.seen, order) << "one thread runs the units in the engine's order";
      }
      std::vector<std::size_t> each_once = got.seen;
      std::sort(each_once.begin(), each_once.end());
      EXPECT_EQ(each_once, ascending) << "every unit seen exactly once";
      EXPECT_EQ(got.tallies, expected.tallies);
      EXPECT_EQ(describe(totals), describe(expected_totals));
    }
  }
  EXPECT_EQ(describe(expected_totals), describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), 2)));
}

// An engine that asks for batches: the dfs engine over `plan`, its order split into runs of
// 1, 2, 3, ... units, whose counter records each batch it is given and counts it one by one
// with the dfs counter.
class BatchedDfsEngine final : public nqueens::Engine {
 public:
  struct Log {
    std::mutex lock;
    std::vector<std::vector<std::size_t>> batches;  // as count_batch received them
    std::size_t single = 0;                         // units given to count() alone
  };

  BatchedDfsEngine(const WorkPlan& plan, Log& log) : inner_(nqueens::make_dfs_engine(plan)), log_(log) {
    std::vector<std::uint64_t> costs(inner_->unit_count());
    for (std::size_t id = 0; id < costs.size(); ++id) costs[id] = inner_->cost(id);
    set_units(inner_->header(), std::move(costs));
  }
  std::unique_ptr<nqueens::UnitCounter> make_counter() const override {
    return std::make_unique<Counter>(inner_->make_counter(), log_);
  }
  std::vector<std::size_t> batch_starts(std::span<const std::size_t> order) const override {
    std::vector<std::size_t> starts;
    for (std::size_t start = 0, size = 1; start < order.size(); start += size++) starts.push_back(start);
    return starts;
  }
  std::string describe() const override { return inner_->describe(); }
  std::uint64_t planned_memory_bytes(int threads) const override { return inner_->planned_memory_bytes(threads); }

 private:
  class Counter final : public nqueens::UnitCounter {
   public:
    Counter(std::unique_ptr<nqueens::UnitCounter> inner, Log& log) : inner_(std::move(inner)), log_(log) {}
    Tally count(std::size_t id) override {
      const std::lock_guard<std::mutex> guard(log_.lock);
      ++log_.single;
      return inner_->count(id);
    }
    void count_batch(std::span<const std::size_t> ids, std::span<Tally> tallies) override {
      {
        const std::lock_guard<std::mutex> guard(log_.lock);
        log_.batches.emplace_back(ids.begin(), ids.end());
      }
      for (std::size_t i = 0; i < ids.size(); ++i) tallies[i] = inner_->count(ids[i]);
    }

   private:
    std::unique_ptr<nqueens::UnitCounter> inner_;
    Log& log_;
  };

  std::unique_ptr<nqueens::Engine> inner_;
  Log& log_;
};

TEST(Schedule, AnEnginesBatchesAreCountedTogetherAndEachUnitIsReportedOnce) {
  const WorkPlan plan = nqueens::split(11, Symmetry::mirror, 3);
  const std::size_t units = plan.units.size();
  for (const int threads : {1, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    BatchedDfsEngine::Log log;
    const BatchedDfsEngine engine(plan, log);
    Recorder recorder(units);
    const Totals totals = nqueens::run_units(engine, threads, recorder.observer());
    EXPECT_EQ(log.single, 1u) << "the first batch, of one unit, goes to count()";
    std::vector<std::vector<std::size_t>> want;
    const auto order = engine.costliest_first();
    for (std::size_t start = 1, size = 2; start < units; start += size++)
      want.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(start),
                        order.begin() + static_cast<std::ptrdiff_t>(std::min(start + size, units)));
    std::sort(log.batches.begin(), log.batches.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(log.batches, want);
    Totals observed;
    for (std::size_t id = 0; id < units; ++id) {
      EXPECT_EQ(recorder.calls[id], 1) << "unit " << id;
      EXPECT_EQ(describe(recorder.tallies[id]), describe(nqueens::count_from(plan.units[id], plan.n))) << id;
      observed += recorder.tallies[id];
    }
    EXPECT_EQ(describe(observed), describe(totals));
    EXPECT_EQ(describe(totals), describe(sum_of_units(plan, {order.begin(), order.end()})));
  }
}

// The dfs engine over `plan`, whose counter logs each unit as it starts and holds the costliest
// unit until `hold` more units have started: what the other thread starts meanwhile shows the
// order the scheduler deals units in. With `deal` set, its order splits into deals of that many
// units (Engine::deal_starts).
class StartLoggingDfsEngine final : public nqueens::Engine {
 public:
  struct Log {
    std::mutex lock;
    std::condition_variable more_started;
    std::vector<std::size_t> started;
    std::size_t hold = 0;
    std::size_t deal = 0;
    int dealt_to = 0;  // the threads deal_starts was told of
  };

  StartLoggingDfsEngine(const WorkPlan& plan, Log& log) : inner_(nqueens::make_dfs_engine(plan)), log_(log) {
    std::vector<std::uint64_t> costs(inner_->unit_count());
    for (std::size_t id = 0; id < costs.size(); ++id) costs[id] = inner_->cost(id);
    set_units(inner_->header(), std::move(costs));
  }
  std::unique_ptr<nqueens::UnitCounter> make_counter() const override {
    return std::make_unique<Counter>(inner_->make_counter(), log_, costliest_first()[0]);
  }
  std::vector<std::size_t> deal_starts(std::span<const std::size_t> order, int threads) const override {
    log_.dealt_to = threads;
    std::vector<std::size_t> starts;
    for (std::size_t start = 0; log_.deal > 0 && start < order.size(); start += log_.deal) starts.push_back(start);
    return starts;
  }
  std::string describe() const override { return inner_->describe(); }
  std::uint64_t planned_memory_bytes(int threads) const override { return inner_->planned_memory_bytes(threads); }

 private:
  class Counter final : public nqueens::UnitCounter {
   public:
    Counter(std::unique_ptr<nqueens::UnitCounter> inner, Log& log, std::size_t held)
        : inner_(std::move(inner)), log_(log), held_(held) {}
    Tally count(std::size_t id) override {
      {
        std::unique_lock<std::mutex> guard(log_.lock);
        log_.started.push_back(id);
        log_.more_started.notify_all();
        // Bounded, so that a scheduler that never starts a second unit fails instead of hanging.
        if (id == held_)
          log_.more_started.wait_for(guard, std::chrono::seconds(60),
                                     [this] { return log_.started.size() > log_.hold; });
      }
      return inner_->count(id);
    }
    void count_batch(std::span<const std::size_t> ids, std::span<Tally> tallies) override {
      for (std::size_t i = 0; i < ids.size(); ++i) tallies[i] = count(ids[i]);
    }

   private:
    std::unique_ptr<nqueens::UnitCounter> inner_;
    Log& log_;
    std::size_t held_;
  };

  std::unique_ptr<nqueens::Engine> inner_;
  Log& log_;
};

TEST(Schedule, WhileOneThreadHoldsTheCostliestUnitTheOtherStartsTheNextOnesInOrder) {
  const WorkPlan plan = nqueens::split(11, Symmetry::mirror, 3);
  StartLoggingDfsEngine::Log log;
  log.hold = 12;
  const StartLoggingDfsEngine engine(plan, log);
  const auto order = engine.costliest_first();
  ASSERT_GT(order.size(), 4 * log.hold);
  EXPECT_EQ(describe(nqueens::run_units(engine, 2)), describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), 1)));
  ASSERT_EQ(log.started.size(), order.size());
  // The two threads take the first two units in either order; then the free one goes on down
  // the list while the other holds the costliest.
  EXPECT_EQ(std::min(log.started[0], log.started[1]), std::min(order[0], order[1]));
  EXPECT_EQ(std::max(log.started[0], log.started[1]), std::max(order[0], order[1]));
  const std::vector<std::size_t> next(order.begin() + 2, order.begin() + static_cast<std::ptrdiff_t>(log.hold + 1));
  const std::vector<std::size_t> got(log.started.begin() + 2,
                                     log.started.begin() + static_cast<std::ptrdiff_t>(log.hold + 1));
  EXPECT_EQ(got, next);
}

TEST(Schedule, AThreadTakesADealWholeWhileTheOtherGoesOnWithTheNextDeals) {
  const WorkPlan plan = nqueens::split(11, Symmetry::mirror, 3);
  StartLoggingDfsEngine::Log log;
  log.hold = 12;
  log.deal = 3;
  const StartLoggingDfsEngine engine(plan, log);
  const auto order = engine.costliest_first();
  ASSERT_GT(order.size(), 4 * log.hold);
  EXPECT_EQ(describe(nqueens::run_units(engine, 2)), describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), 1)));
  EXPECT_EQ(log.dealt_to, 2);
  ASSERT_EQ(log.started.size(), order.size());
  // The thread holding the costliest unit keeps the rest of its deal (order[1] and order[2]);
  // the other starts the second deal and goes on down the list.
  EXPECT_EQ(std::min(log.started[0], log.started[1]), std::min(order[0], order[3]));
  EXPECT_EQ(std::max(log.started[0], log.started[1]), std::max(order[0], order[3]));
  const std::vector<std::size_t> next(order.begin() + 4, order.begin() + static_cast<std::ptrdiff_t>(log.hold + 3));
  const std::vector<std::size_t> got(log.started.begin() + 2,
                                     log.started.begin() + static_cast<std::ptrdiff_t>(log.hold + 1));
  EXPECT_EQ(got, next);
  const auto position = [&](std::size_t id) { return std::find(log.started.begin(), log.started.end(), id); };
  EXPECT_LT(position(order[0]), position(order[1]));
  EXPECT_LT(position(order[1]), position(order[2]));
}

std::vector<std::size_t> costliest_first(const WorkPlan& plan) {
  const auto engine = nqueens::make_dfs_engine(plan);
  return {engine->costliest_first().begin(), engine->costliest_first().end()};
}

TEST(Schedule, CostliestFirstIsADeterministicPermutation) {
  for (Symmetry mode : kModes) {
    const WorkPlan plan = nqueens::split(12, mode);
    const std::vector<std::size_t> order = costliest_first(plan);
    EXPECT_EQ(costliest_first(plan), order);
    std::vector<std::size_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::size_t> all(plan.units.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    EXPECT_EQ(sorted, all);
  }
}

TEST(Schedule, CostliestFirstSortsByCostThenId) {
  const WorkPlan plan = nqueens::split(12, Symmetry::none, 3);
  const std::vector<std::size_t> order = costliest_first(plan);
  for (std::size_t i = 1; i < order.size(); ++i) {
    const auto before = nqueens::estimated_cost(plan.units[order[i - 1]], plan.n);
    const auto after = nqueens::estimated_cost(plan.units[order[i]], plan.n);
    EXPECT_GE(before, after) << "position " << i;
    if (before == after) {
      EXPECT_LT(order[i - 1], order[i]) << "position " << i;
    }
  }
}

// Hand-checked: after queens in columns 0 and 2 of a 5 x 5 board, row 2 can take column 4
// only, and row 3 then column 1 only, so exactly one two-row extension exists.
TEST(Schedule, EstimatedCostCountsTwoRowExtensions) {
  nqueens::WorkUnit unit;
  nqueens::place_queen(unit, 0);
  nqueens::place_queen(unit, 2);
  EXPECT_EQ(nqueens::estimated_cost(unit, 5), 1u);
}

// The estimate of a deepest-prefix unit places rows 4 and 5, past the unit's `queens` slots: it
// once wrote beyond them (UBSan: index out of bounds) and corrupted the row count. Checked
// against every legal pair of columns, queen against queen.
TEST(Schedule, EstimatedCostOfDeepestUnitsCountsTwoRowExtensions) {
  const int n = 9;
  const WorkPlan plan = nqueens::split(n, Symmetry::none, nqueens::kMaxSplitDepth);
  for (const nqueens::WorkUnit& unit : plan.units) {
    std::vector<int> queens(unit.queens.begin(), unit.queens.begin() + unit.rows);
    auto fits = [&queens](int col) {
      const int row = static_cast<int>(queens.size());
      for (int r = 0; r < row; ++r)
        if (queens[static_cast<std::size_t>(r)] == col ||
            std::abs(queens[static_cast<std::size_t>(r)] - col) == row - r)
          return false;
      return true;
    };
    std::uint64_t pairs = 0;
    for (int a = 0; a < n; ++a) {
      if (!fits(a)) continue;
      queens.push_back(a);
      for (int b = 0; b < n; ++b) pairs += fits(b) ? 1 : 0;
      queens.pop_back();
    }
    EXPECT_EQ(nqueens::estimated_cost(unit, n), pairs);
  }
}

TEST(Schedule, NonPositiveThreadCountsThrow) {
  const WorkPlan plan = nqueens::split(6, Symmetry::none);
  EXPECT_THROW(nqueens::run_units(*nqueens::make_dfs_engine(plan), 0), std::invalid_argument);
  EXPECT_THROW(nqueens::run_units(*nqueens::make_dfs_engine(plan), -3), std::invalid_argument);
  EXPECT_THROW(nqueens::count(6, test_support::options(Symmetry::full, -1)), std::invalid_argument);
  EXPECT_THROW(nqueens::count(6, test_support::options(Symmetry::full, nqueens::kMaxThreads + 1)),
               std::invalid_argument);
  EXPECT_EQ(nqueens::count(6, test_support::options(Symmetry::full, 0)).threads,
            nqueens::hardware_threads());  // 0 = auto
}

}  // namespace
