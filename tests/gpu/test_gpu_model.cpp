// The gpu engine's device model (gpu/device_model.hpp): its replay of the engine's batches
// against the join's own enumeration (every key sent once, every pair of halves tested once where
// no split or cut applies), a sampled replay scaled to the whole, and the pricing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "engine/engine.hpp"
#include "gpu/device_model.hpp"
#include "gpu/half_build.hpp"
#include "join/diagonal_fold.hpp"
#include "join/half_boards.hpp"
#include "join/join_engine.hpp"
#include "join/join_layout.hpp"
#include "join/join_plan.hpp"
#include "join/slice_cache.hpp"

namespace nqueens::gpu {
namespace {

struct Halves {
  double keys = 0, pairs = 0;  // every side's halves; east times west, row set by row set
};

// The join's own enumeration: a folded side holds the halves ranking at least the unit's rank.
Halves joins_halves(int n) {
  join::SliceCache cache(n, UINT64_MAX);
  join::HalfEnumerator enumerator;
  join::KeyBuffer keys;
  Halves halves;
  for (const join::JoinUnit& unit : join::split(n).units)
    for (const std::uint32_t rows : join::row_sets(n, unit)) {
      const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
      const join::DiagonalFold fold = join::diagonal_fold(layout);
      double side_sizes[2] = {0, 0};
      for (const bool east : {true, false}) {
        const join::SideLayout& side = east ? layout.east : layout.west;
        const auto north = cache.get(side.north_rows), south = cache.get(side.south_rows);
        if (unit.kind == join::JoinCase::off_centre)
          enumerator.enumerate({north->slice}, {south->slice}, layout, side, keys);
        else
          enumerator.enumerate_folded({north->slice}, {south->slice}, layout, side, east ? fold.east : fold.west, keys);
        side_sizes[east ? 0 : 1] = static_cast<double>(keys.size());
      }
      // A row set with an empty side sends neither.
      if (side_sizes[0] > 0 && side_sizes[1] > 0) halves.keys += side_sizes[0] + side_sizes[1];
      halves.pairs += side_sizes[0] * side_sizes[1];
    }
  return halves;
}

// Up to N = 16 no side is split into slots (they hold a few tiles) and none has a cut of queries:
// each stored key meets each query once.
TEST(GpuModel, AFullReplaySendsEveryHalfOnceAndTestsEveryPairOnce) {
  for (const int n : {8, 12, 15, 16}) {
    SCOPED_TRACE("N=" + std::to_string(n));
    const ModelledRun run = modelled_run(n, *find_card("H100"));
    const Halves want = joins_halves(n);
    EXPECT_EQ(run.batches_replayed, run.batches_total);
    EXPECT_EQ(run.work.keys, want.keys);
    EXPECT_EQ(run.work.pair_tests, want.pairs);
    EXPECT_GE(run.work.tables, 1);
    EXPECT_GE(run.work.bytes_to_device, 8 * run.work.keys) << "every key, and the jobs and tiles";
    EXPECT_GT(run.work.host_seconds, 0);
  }
}

// The device-built path replayed (built_matcher.hpp): the same halves matched, each pair tested
// once, but built on the device: the build passes test every candidate twice (count and write),
// and the bus carries slices and recipes, not keys. At N = 16 that is under a quarter of the
// keys' bytes; at N = 15, whose off-centre units have many small sides, it is not.
TEST(GpuModel, TheDeviceBuiltReplayBuildsTheSameHalvesOnTheDevice) {
  for (const int n : {12, 16}) {
    SCOPED_TRACE("N=" + std::to_string(n));
    const ModelledRun run = modelled_run(n, *find_card("H100"), {.device_built = true});
    const Halves want = joins_halves(n);
    EXPECT_EQ(run.batches_replayed, run.batches_total);
    EXPECT_EQ(run.work.keys, want.keys);
    EXPECT_EQ(run.work.pair_tests, want.pairs);
    EXPECT_GE(run.work.build_candidates, 2 * run.work.keys);
    EXPECT_GT(run.work.host_seconds, 0);
    if (n == 16) {
      EXPECT_LT(run.work.bytes_to_device, 8 * run.work.keys / 4);
    }
    // An H100 holds the table and its group index: each side goes as its description, not its
    // pairings, and the bytes by kind add up to the bytes each way.
    const DeviceWork& w = run.work;
    EXPECT_GT(w.group_index_bytes, 0);
    EXPECT_GT(w.spec_bytes, 0);
    EXPECT_LT(w.spec_bytes, w.pairing_bytes);
    EXPECT_NEAR(w.entry_bytes + w.group_index_bytes + w.spec_bytes + w.side_bytes + w.row_set_bytes, w.bytes_to_device,
                1e-12 * w.bytes_to_device);
    EXPECT_DOUBLE_EQ(w.total_bytes + w.result_bytes, w.bytes_to_host);
  }
}

// A card whose memory cannot hold the table once is sent each side's pairings, as the engine's
// own rooms are.
TEST(GpuModel, ACardThatCannotHoldTheTableIsSentThePairings) {
  CardModel small = *find_card("H100");
  small.memory_bytes = 1e3;
  const ModelledRun run = modelled_run(14, small, {.device_built = true});
  const ModelledRun h100 = modelled_run(14, *find_card("H100"), {.device_built = true});
  EXPECT_EQ(run.work.group_index_bytes, 0);
  EXPECT_GT(run.work.pairing_bytes, 0);
  EXPECT_DOUBLE_EQ(run.work.bytes_to_device - h100.work.bytes_to_device,
                   run.work.pairing_bytes - h100.work.spec_bytes - h100.work.group_index_bytes);
}

// docs/data/kernel-instructions.csv, as scripts/dev/kernel-instructions.py writes it from the
// built cubin: instructions by (arch, kernel, pass, per).
std::map<std::tuple<std::string, std::string, std::string, std::string>, double> kernel_instructions() {
  std::ifstream in(std::string(NQUEENS_SOURCE_DIR) + "/docs/data/kernel-instructions.csv");
  std::map<std::tuple<std::string, std::string, std::string, std::string>, double> figures;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string arch, kernel, pass, instructions, per;
    std::getline(fields, arch, ',');
    std::getline(fields, kernel, ',');
    std::getline(fields, pass, ',');
    std::getline(fields, instructions, ',');
    std::getline(fields, per);
    figures[{arch, kernel, pass, per}] = std::stod(instructions);
  }
  return figures;
}

// The model's instruction counts are the cubin's, as the script over `cuobjdump -sass` read them:
// each card's pass over a tile from its architecture's 7-bit 6-chunk kernel (N = 22's), and the
// build kernel's steps from its sm_90 code. A kernel change carried to the data but not to the
// model, or the other way round, fails here.
TEST(GpuModel, ItsInstructionCountsAreTheCubinsData) {
  const auto figures = kernel_instructions();
  ASSERT_FALSE(figures.empty()) << "docs/data/kernel-instructions.csv";
  for (const CardModel& card : known_cards()) {
    SCOPED_TRACE(std::string(card.name));
    const std::string arch(card.source.substr(card.source.rfind("sm_")));
    const auto query = figures.find({arch, "nq_match_w7_c6", "query", "query pass over a tile"});
    ASSERT_NE(query, figures.end()) << arch;
    EXPECT_DOUBLE_EQ(card.pass_instructions, query->second);
  }
  const auto build = [&](const char* pass, const char* per) {
    return figures.at({"sm_90", "nq_sort_sides", pass, per});
  };
  EXPECT_DOUBLE_EQ(kCountStepInstructions, build("count", "candidate") + build("count", "half"));
  EXPECT_DOUBLE_EQ(kWriteStepInstructions, build("write", "candidate") + build("write", "half"));
  for (const auto& [kernel, size] :
       {std::pair{"nq_plan_row_sets", kPlanRowSetsSize}, std::pair{"nq_place_row_sets", kPlaceRowSetsSize},
        std::pair{"nq_write_plans", kWritePlansSize}, std::pair{"nq_sum_row_sets", kSumRowSetsSize},
        std::pair{"nq_choose_splits", kChooseSplitsSize}}) {
    SCOPED_TRACE(kernel);
    EXPECT_DOUBLE_EQ(size.whole, figures.at({"sm_90", kernel, "whole", "kernel"}));
    EXPECT_DOUBLE_EQ(size.loop, figures.at({"sm_90", kernel, "loop", "innermost loop"}));
  }
  EXPECT_DOUBLE_EQ(kSampleStepInstructions, figures.at({"sm_90", "nq_choose_splits", "sample", "candidate"}));
}

// The plan's four kernels run on every batch of the device-built path: their time is the
// device's, a small share of it beside the build and the matching.
TEST(GpuModel, ThePlanKernelsArePricedInTheDevicesTime) {
  const CardModel& h100 = *find_card("H100");
  const ModelledRun built = modelled_run(14, h100, {.device_built = true});
  EXPECT_GT(built.work.plan_warp_instructions, 0);
  // Every launch's longest thread is one of its warps'.
  EXPECT_GT(built.work.plan_lone_instructions, 0);
  EXPECT_LE(built.work.plan_lone_instructions, built.work.plan_warp_instructions);
  EXPECT_GT(built.plan_seconds, 0);
  EXPECT_LT(built.plan_seconds, built.device_seconds);
  DeviceWork unplanned = built.work;
  unplanned.plan_warp_instructions = unplanned.plan_lone_instructions = 0;
  const ModelledRun without = priced_run(14, h100, unplanned, true);
  EXPECT_DOUBLE_EQ(without.device_seconds + built.plan_seconds, built.device_seconds);
  // The keys-fed path has no plan kernels.
  EXPECT_EQ(modelled_run(14, h100).plan_seconds, 0);
}

TEST(GpuModel, ASampledReplayIsScaledToTheWholeRun) {
  const ModelledRun whole = modelled_run(16, *find_card("H100"));
  // Stops after the first batch that sends work.
  const ModelledRun sample = modelled_run(16, *find_card("H100"), {.most_seconds = 0});
  EXPECT_LE(sample.batches_replayed, 2u);
  EXPECT_LT(sample.share_replayed, 1.0);
  EXPECT_GT(sample.share_replayed, 0.0);
  EXPECT_EQ(sample.batches_total, whole.batches_total);
  // A batch of the run's costliest units, scaled by the estimated costs: the same order of
  // magnitude as the whole.
  EXPECT_GT(sample.work.keys, whole.work.keys / 10);
  EXPECT_LT(sample.work.keys, whole.work.keys * 10);
  // The device-built replay's bytes by kind are scaled with the bytes each way.
  const ModelledRun built = modelled_run(16, *find_card("H100"), {.most_seconds = 0, .device_built = true});
  const DeviceWork& w = built.work;
  EXPECT_LT(built.share_replayed, 1.0);
  // Summed in another order: equal to a few units in the last place.
  EXPECT_NEAR(w.entry_bytes + w.group_index_bytes + w.spec_bytes + w.side_bytes + w.row_set_bytes, w.bytes_to_device,
              1e-12 * w.bytes_to_device);
  EXPECT_DOUBLE_EQ(w.total_bytes + w.result_bytes, w.bytes_to_host);
}

TEST(GpuModel, TheSlowestOfHostDeviceAndTransfersSetsTheTime) {
  const CardModel& h100 = *find_card("h100");
  const ModelledRun run = modelled_run(14, h100);
  EXPECT_EQ(run.seconds, std::max({run.device_seconds, run.transfer_seconds, run.host_seconds}));
  EXPECT_EQ(run.host_seconds, run.work.host_seconds / h100.host_threads);
  const double issue = h100.multiprocessors * h100.schedulers * h100.clock_ghz * 1e9;
  EXPECT_DOUBLE_EQ(run.device_seconds,
                   (run.work.passes + run.work.tables * 1024) * h100.pass_instructions / (issue * h100.issue_share));
  EXPECT_DOUBLE_EQ(run.transfer_seconds,
                   (run.work.bytes_to_device + run.work.bytes_to_host) / h100.copy_bytes_per_second);
  const std::string bound = run.seconds == run.host_seconds     ? "host"
                            : run.seconds == run.device_seconds ? "device"
                                                                : "transfers";
  EXPECT_EQ(run.bound_by, bound);
}

// The device-built design's tally: a recipe for both sides of every row set, whose candidates
// hold every half and at most every pair of the two slices' entries; the quarter table once;
// the build's passes added to the device's time.
TEST(GpuModel, TheDeviceBuiltDesignSendsARecipePerSideAndTheTableOnce) {
  const int n = 12;
  const CardModel& h100 = *find_card("H100");
  const ModelledRun run = modelled_run(n, h100);
  join::SliceCache cache(n, UINT64_MAX);
  double sides = 0, entry_pairs = 0;
  for (const join::JoinUnit& unit : join::split(n).units)
    for (const std::uint32_t rows : join::row_sets(n, unit)) {
      const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
      for (const join::SideLayout* side : {&layout.east, &layout.west}) {
        sides += 1;
        entry_pairs += static_cast<double>(cache.get(side->north_rows)->slice.entries().size()) *
                       static_cast<double>(cache.get(side->south_rows)->slice.entries().size());
      }
    }
  const DeviceWork::Built& built = run.work.built;
  EXPECT_EQ(built.sides, sides);
  EXPECT_GE(built.recipe_bytes, sides * sizeof(SideSort));
  EXPECT_GE(built.candidates, run.work.keys) << "every half sent is a candidate the build tests";
  EXPECT_LE(built.candidates, entry_pairs);
  EXPECT_GT(built.table_bytes, 0);
  EXPECT_GT(built.host_seconds, 0);
  const double issue = h100.multiprocessors * h100.schedulers * h100.clock_ghz * 1e9;
  EXPECT_DOUBLE_EQ(run.built.build_seconds,
                   built.candidates / 32 * kBuildStepInstructions * kBuildKernelPasses / (issue * h100.issue_share));
  EXPECT_DOUBLE_EQ(run.built.device_seconds, run.device_seconds + run.built.build_seconds);
  EXPECT_DOUBLE_EQ(run.built.transfer_seconds,
                   (built.table_bytes + built.recipe_bytes + built.bytes_to_host) / h100.copy_bytes_per_second);
  EXPECT_EQ(run.built.seconds,
            std::max({run.built.device_seconds, run.built.transfer_seconds, run.built.host_seconds}));
}

TEST(GpuModel, CardsAreFoundByNameWhateverTheCase) {
  EXPECT_NE(find_card("H100"), nullptr);
  EXPECT_EQ(find_card("rtx 4090"), find_card("RTX 4090"));
  EXPECT_EQ(find_card("H1000"), nullptr);
  for (const CardModel& card : known_cards()) {
    EXPECT_GT(card.multiprocessors * card.clock_ghz * card.pass_instructions * card.copy_bytes_per_second, 0)
        << card.name;
    EXPECT_GT(card.host_threads, 0) << card.name;
    EXPECT_GT(card.issue_share, 0) << card.name;
    EXPECT_LE(card.issue_share, 1) << card.name;
  }
}

}  // namespace
}  // namespace nqueens::gpu
