// Units too costly to time whole, timed in exact parts (plan.cpp, time_in_parts): a unit's time
// from a random share of its parts, the two-stage variance, and a plan of a run whose costliest
// units the cost model prices at half what they take, beyond the budget whole.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "nqueens/version.hpp"
#include "plan/estimate.hpp"
#include "plan/plan.hpp"
#include "plan/strata.hpp"
#include "plan/unit_timer.hpp"
#include "support/spin.hpp"

namespace {

using namespace nqueens;
using namespace nqueens::plan;

TEST(PlanParts, AUnitsTimeIsItsPartsMeanTimesItsParts) {
  const std::vector<double> parts{1, 3};
  const Drawn unit = unit_from_parts(5, 10, parts);
  EXPECT_DOUBLE_EQ(unit.weight, 5);
  EXPECT_DOUBLE_EQ(unit.seconds, 20);
  // M^2 (1 - m/M) s^2 / m: 100 x 0.8 x 2 / 2.
  EXPECT_DOUBLE_EQ(unit.variance, 80);
  const std::vector<double> every{1, 3};
  EXPECT_DOUBLE_EQ(unit_from_parts(5, 2, every).variance, 0) << "every part timed: the unit's time is known";
  EXPECT_THROW(unit_from_parts(5, 10, std::vector<double>{1}), std::invalid_argument);
  EXPECT_THROW(unit_from_parts(5, 1, parts), std::invalid_argument);
}

TEST(PlanParts, TheUnitsOwnVarianceWidensItsStratum) {
  StratumSample whole{4, 8, {{2, 2, 0}, {2, 2, 0}}};
  StratumSample in_parts = whole;
  in_parts.drawn[0].variance = in_parts.drawn[1].variance = 1;
  EXPECT_DOUBLE_EQ(stratum_estimate(whole).standard_error, 0) << "no spread between the units";
  // (N / n) sum w_i = 2 x 2.
  EXPECT_DOUBLE_EQ(stratum_estimate(in_parts).standard_error, 2);
  in_parts.units = 2;
  EXPECT_DOUBLE_EQ(stratum_estimate(in_parts).standard_error, std::sqrt(2.0)) << "every unit drawn: sum w_i";
}

TEST(PlanParts, DrawnPartsAreAFixedSampleOfTheUnitsParts) {
  class Parted final : public Engine {
   public:
    Parted() { set_units(RunHeader{kVersion, "parted", 8, {}, 2, 99}, {1, 1}); }
    std::unique_ptr<UnitCounter> make_counter() const override { return nullptr; }
    std::size_t part_count(std::size_t id) const override { return id == 0 ? 50 : 1; }
    std::string describe() const override { return "parted"; }
    std::uint64_t planned_memory_bytes(int) const override { return 0; }
  } engine;
  const std::vector<std::size_t> ten = drawn_parts(engine, 0, 10);
  ASSERT_EQ(ten.size(), 10u);
  EXPECT_EQ(drawn_parts(engine, 0, 10), ten);
  const std::vector<std::size_t> twenty = drawn_parts(engine, 0, 20);
  EXPECT_TRUE(std::equal(ten.begin(), ten.end(), twenty.begin())) << "a larger draw extends a smaller one";
  EXPECT_NE(ten, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})) << "at random, not the first parts";
  EXPECT_EQ(drawn_parts(engine, 1, 10), std::vector<std::size_t>{0});
}

// A part the unit's others share (the join's enumeration for its shares) is timed with every
// sample of the unit and added once; the others are drawn from the rest and scaled.
TEST(PlanParts, ASharedPartIsAlwaysTimedAndAddedUnscaled) {
  class Shared final : public Engine {
   public:
    Shared() { set_units(RunHeader{kVersion, "shared", 8, {}, 1, 98}, {1}); }
    std::unique_ptr<UnitCounter> make_counter() const override { return nullptr; }
    std::size_t part_count(std::size_t) const override { return 11; }
    std::optional<std::size_t> shared_part_of(std::size_t, std::size_t) const override { return 10; }
    std::string describe() const override { return "shared"; }
    std::uint64_t planned_memory_bytes(int) const override { return 0; }
  } engine;
  EXPECT_EQ(drawable_parts(engine, 0), 10u);
  const std::vector<std::size_t> drawn = drawn_parts(engine, 0, 3);
  ASSERT_EQ(drawn.size(), 4u);
  EXPECT_EQ(drawn.front(), 10u) << "the shared part first, then three of the ten others";
  EXPECT_EQ(std::count(drawn.begin(), drawn.end(), 10u), 1);
  const Drawn unit = unit_from_parts(5, 10, std::vector<double>{1, 3}, 7);
  EXPECT_DOUBLE_EQ(unit.seconds, 27) << "7 + 10 x 2";
  EXPECT_DOUBLE_EQ(unit.variance, 80) << "the shared part adds no spread";
}

// Two units of four shares and the part they share (part 4), whose counter builds a unit's shared
// work, untimed, before a share of a unit it does not hold, as JoinCounter::prepare_part does.
class HeldEngine final : public Engine {
 public:
  HeldEngine() { set_units(RunHeader{kVersion, "held", 8, {}, 2, 97}, {1, 1}); }
  std::size_t part_count(std::size_t) const override { return 5; }
  std::optional<std::size_t> shared_part_of(std::size_t, std::size_t) const override { return 4; }
  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<Counter>(built_again); }
  std::string describe() const override { return "held"; }
  std::uint64_t planned_memory_bytes(int) const override { return 0; }
  mutable std::atomic<int> built_again{0};

 private:
  class Counter final : public UnitCounter {
   public:
    explicit Counter(std::atomic<int>& built_again) : built_again_(built_again) {}
    Tally count(std::size_t) override { return {}; }
    void prepare_part(std::size_t id, std::size_t part) override {
      if (part == 4 || held_ == id) return;
      ++built_again_;
      held_ = id;
    }
    void count_part(std::size_t id, std::size_t part) override {
      if (part == 4) held_ = id;
    }

   private:
    std::atomic<int>& built_again_;
    std::size_t held_ = SIZE_MAX;
  };
};

// Drawn part by part in any order, a unit's shares are counted after its shared part on the
// counter that counted it: none builds the shared work again (part by part in the order given,
// one thread built it four times here).
TEST(PlanParts, SharesAreCountedAfterTheirSharedPartByTheCounterThatHoldsIt) {
  const std::vector<UnitPart> parts{{0, 4}, {1, 4}, {0, 0}, {1, 0}, {0, 3}, {1, 1}};
  for (const int threads : {1, 2}) {
    const HeldEngine engine;
    UnitTimer timer(engine, threads);
    const std::vector<TimedPart> timed = timer.count_parts(parts);
    EXPECT_EQ(engine.built_again.load(), 0) << threads << " threads";
    ASSERT_EQ(timed.size(), parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      EXPECT_EQ(timed[i].part.id, parts[i].id);
      EXPECT_EQ(timed[i].part.part, parts[i].part);
    }
  }
}

// A unit's shared parts are timed whole whatever share of its other parts is drawn: a budget
// pays for them first. Units of 10 s whose shared parts take 3 s are timed on 1/7 of their other
// parts in 4 s (3 + 7 x 1/7); a budget below their shared parts affords none.
TEST(PlanParts, TheSharedPartsArePaidBeforeTheShares) {
  EXPECT_DOUBLE_EQ(affordable_share(4, 10, 0.3), 1.0 / 7);
  EXPECT_DOUBLE_EQ(seconds_in_parts(10, 0.3, 1.0 / 7), 4);
  EXPECT_DOUBLE_EQ(affordable_share(4, 10, 0), 0.4) << "no shared part: the budget's share of the unit";
  EXPECT_DOUBLE_EQ(affordable_share(2, 10, 0.3), 0);
  EXPECT_DOUBLE_EQ(affordable_share(40, 10, 0.3), 1);
  EXPECT_DOUBLE_EQ(affordable_share(4, 0, 0.3), 1) << "units that take no time";
}

using testing_support::spin_for;

// A run whose units take a known thread time: kLight light units priced right, and kHeavy heavy
// ones of kParts parts each that take twice what the model prices them at, so that a rate carried
// from the light units puts them at half their time (as N = 25's cheap bands put its costliest).
class SpinEngine final : public Engine {
 public:
  static constexpr std::size_t kLight = 400, kHeavy = 12, kParts = 1000;
  static constexpr double kLightSeconds = 0.01, kHeavyPriced = 1, kPartSeconds = 2 * kHeavyPriced / kParts;

  // Weights (cost + 1) of exactly 1e7 and 1e9: four strata of one share each, three of four heavy
  // units and one of every light unit.
  SpinEngine() {
    std::vector<std::uint64_t> costs(kLight + kHeavy, static_cast<std::uint64_t>(kLightSeconds * 1e9) - 1);
    for (std::size_t id = kLight; id < costs.size(); ++id)
      costs[id] = static_cast<std::uint64_t>(kHeavyPriced * 1e9) - 1;
    const std::size_t units = costs.size();
    set_units(RunHeader{kVersion, "spin", 8, {}, units, 7}, std::move(costs));
  }
  static double total_seconds() { return kLight * kLightSeconds + kHeavy * kParts * kPartSeconds; }

  bool costs_predict_time() const override { return true; }
  std::size_t part_count(std::size_t id) const override { return id < kLight ? 1 : kParts; }
  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<Counter>(); }
  std::string describe() const override { return "spin"; }
  std::uint64_t planned_memory_bytes(int) const override { return 0; }

 private:
  class Counter final : public UnitCounter {
   public:
    Tally count(std::size_t id) override {
      spin_for(id < kLight ? kLightSeconds : kParts * kPartSeconds);
      return {};
    }
    void count_part(std::size_t id, std::size_t) override { spin_for(id < kLight ? kLightSeconds : kPartSeconds); }
  };
};

// The heavy units (24 s of thread time) are beyond a 2 s budget whole: timed in parts, their
// bands are estimated from what they take, and the plan lies within its bar of the run (28 s). A
// plan that carried the light units' rate to them put the run at 16 s +- 5 s.
TEST(PlanParts, BandsBeyondTheBudgetWholeAreTimedInParts) {
  const SpinEngine engine;
  PlanOptions options;
  options.threads = 1;
  options.strata = 4;
  options.sample_seconds = 2;
  const RunPlan plan = plan_run(engine, options);
  ASSERT_EQ(plan.bands.size(), 4u);
  EXPECT_EQ(plan.bands[3].units, SpinEngine::kLight);
  EXPECT_GT(plan.units_in_parts, 0u);
  EXPECT_GE(plan.parts_timed, 2 * plan.units_in_parts);
  EXPECT_LT(plan.extrapolated_bands, 3u) << "the costliest band of heavy units, the first one met, is timed";
  EXPECT_LE(std::abs(plan.thread.total - SpinEngine::total_seconds()), plan.half_width)
      << "plan " << plan.thread.total << " +- " << plan.half_width << " s from " << plan.sampled_units << " units ("
      << plan.units_in_parts << " in " << plan.parts_timed << " parts), run " << SpinEngine::total_seconds() << " s";
}

// A run whose cheapest band holds one unit of 1 us and many of 0.1 s, kParts parts each, every
// unit priced right (N = 27 and 28: the pilot's lightest units are decades of cost below its
// cheapest band's). The pilot times the light unit only: the next one's time by the power 1.5 of
// their cost ratio passes its share of the budget.
class DecadesEngine final : public Engine {
 public:
  static constexpr std::size_t kHeavy = 40, kParts = 10;
  static constexpr double kLightSeconds = 1e-6, kHeavySeconds = 0.1;

  DecadesEngine() {
    std::vector<std::uint64_t> costs(kHeavy + 1, static_cast<std::uint64_t>(kHeavySeconds * 1e9) - 1);
    costs.back() = static_cast<std::uint64_t>(kLightSeconds * 1e9) - 1;
    const std::size_t units = costs.size();
    set_units(RunHeader{kVersion, "decades", 8, {}, units, 11}, std::move(costs));
  }
  static double total_seconds() { return kHeavy * kHeavySeconds + kLightSeconds; }

  bool costs_predict_time() const override { return true; }
  std::size_t part_count(std::size_t id) const override { return id < kHeavy ? kParts : 1; }
  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<Counter>(); }
  std::string describe() const override { return "decades"; }
  std::uint64_t planned_memory_bytes(int) const override { return 0; }

 private:
  class Counter final : public UnitCounter {
   public:
    Tally count(std::size_t id) override {
      spin_for(id < kHeavy ? kHeavySeconds : kLightSeconds);
      return {};
    }
    void count_part(std::size_t id, std::size_t) override {
      spin_for(id < kHeavy ? kHeavySeconds / kParts : kLightSeconds);
    }
  };
};

// Every band is timed in exact parts, the first one's parts priced at the pilot's level, and the
// plan lies within its bar of the run (4 s). Priced by the power 1.5 from the pilot's light unit
// (5e4 times lighter: 1e7 times its time), even two parts of the first band passed the 2 s budget:
// no band was timed, and the run was put at the pilot's rate.
TEST(PlanParts, TheFirstBandsPartsArePricedAtThePilotsLevelNotCarriedAcrossDecades) {
  const DecadesEngine engine;
  PlanOptions options;
  options.threads = 1;
  options.strata = 4;
  options.sample_seconds = 2;
  const RunPlan plan = plan_run(engine, options);
  ASSERT_EQ(plan.pilots.size(), 1u) << "the pilot times the light unit only";
  EXPECT_EQ(plan.extrapolated_bands, 0u) << "every band timed";
  EXPECT_GT(plan.units_in_parts, 0u);
  EXPECT_LE(std::abs(plan.thread.total - DecadesEngine::total_seconds()), plan.half_width)
      << "plan " << plan.thread.total << " +- " << plan.half_width << " s from " << plan.sampled_units << " units ("
      << plan.units_in_parts << " in " << plan.parts_timed << " parts), run " << DecadesEngine::total_seconds() << " s";
}

}  // namespace
