// The planning block of gpu/plan_block.hpp (nq_plan_row_sets: a block a row set, a thread a
// slot) against the one-thread plan of gpu/batch_plan.hpp (plan_row_set_alone), on batches of
// row sets of every widest split, counts from none to millions, one or two parts a side, under
// rules that split, never split or store the side of fewer passes; blocks of one thread to the
// kernel's own, each step's slots in either order.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "gpu/batch_plan.hpp"
#include "gpu/block_steps.hpp"
#include "gpu/plan_block.hpp"

namespace nqueens::gpu {
namespace {

struct Batch {
  std::vector<SideSort> sides;
  std::vector<PlanRowSet> row_sets;
  std::vector<std::uint32_t> counters;
  std::size_t start_words = 0;
};

// A side on `bits` bits of `part_count` parts, its counters appended: each group empty or holding
// up to `most` halves.
SideSort random_side(int bits, std::uint32_t part_count, std::uint32_t most, double empty, std::mt19937_64& random,
                     std::vector<std::uint32_t>& counters) {
  SideSort side;
  side.recipe.pairing_count = 4;
  side.recipe.tied_pairings = part_count == 1 ? 4 : 2;
  side.rule.count = bits;
  side.next_first = static_cast<std::uint32_t>(counters.size());
  std::uniform_real_distribution<double> uniform(0, 1);
  for (std::uint32_t i = 0; i < part_count << bits; ++i)
    counters.push_back(uniform(random) < empty ? 0 : static_cast<std::uint32_t>(random() % (most + 1)));
  return side;
}

Batch random_batch(std::uint32_t count, std::mt19937_64& random) {
  Batch batch;
  constexpr std::uint32_t kMost[] = {0, 3, 40, 700, 5000, 60000};
  constexpr double kEmpty[] = {0, 0.3, 0.9};
  for (std::uint32_t r = 0; r < count; ++r) {
    const int bits = static_cast<int>(random() % (kMaxSplitBits + 1));
    for (int s = 0; s < 2; ++s) {
      const std::uint32_t most = kMost[random() % std::size(kMost)];
      const double empty = kEmpty[random() % std::size(kEmpty)];
      batch.sides.push_back(
          random_side(bits, static_cast<std::uint32_t>(1 + random() % 2), most, empty, random, batch.counters));
    }
    PlanRowSet row_set;
    if (random() % 2 == 0) row_set.weights[0][1] = row_set.weights[1][0] = 2;
    row_set.key_bits = 20 + static_cast<std::uint32_t>(random() % 20);
    row_set.starts_first = static_cast<std::uint32_t>(batch.start_words);
    batch.start_words += 2 * (2 * (std::size_t{1} << bits) + 1);
    batch.row_sets.push_back(row_set);
  }
  return batch;
}

std::vector<PlanRule> rules() {
  std::vector<PlanRule> all(4);
  all[0].least_stored = std::uint64_t{64} * kTileLanes;  // the engine's
  all[1].least_stored = 0;                               // every side worth a split
  all[1].most_passes_kept = 0.95;
  all[2].store_by_price = 0;  // the side of fewer passes stored, tables not counted
  all[2].least_stored = std::uint64_t{4} * kTileLanes;
  all[3].max_bits = 0;  // never split
  return all;
}

void expect_same_plan(const RowSetPlan& block, const RowSetPlan& alone) {
  EXPECT_EQ(block.halves, alone.halves);
  EXPECT_EQ(block.query_keys, alone.query_keys);
  EXPECT_EQ(block.stored_keys, alone.stored_keys);
  EXPECT_EQ(block.east_stored, alone.east_stored);
  EXPECT_EQ(block.split_count, alone.split_count);
  EXPECT_EQ(block.jobs, alone.jobs);
  EXPECT_EQ(block.tiles, alone.tiles);
}

TEST(PlanBlock, EachRowSetIsPlannedAsOneThreadAlonePlansIt) {
  std::mt19937_64 random(44);
  std::uint32_t split = 0, matched = 0;
  const std::vector<PlanRule> all = rules();
  for (std::size_t rule_index = 0; rule_index < all.size(); ++rule_index)
    for (int round = 0; round < 3; ++round) {
      const PlanRule& rule = all[rule_index];
      const Batch batch = random_batch(60, random);
      const auto count = static_cast<std::uint32_t>(batch.row_sets.size());
      std::vector<std::uint32_t> alone_starts(batch.start_words, 0);
      std::vector<std::uint64_t> scratch(std::size_t{2} * kMaxGroups);
      std::vector<RowSetPlan> alone(count);
      for (std::uint32_t r = 0; r < count; ++r)
        plan_row_set_alone(r, batch.sides.data(), batch.row_sets.data(), batch.counters.data(), rule,
                           alone_starts.data(), scratch.data(), alone.data());
      for (const std::uint32_t threads : {1u, 32u, kPlanThreads})
        for (const bool reversed : {false, true}) {
          SCOPED_TRACE(testing::Message()
                       << "rule " << rule_index << ", " << threads << " threads" << (reversed ? ", reversed" : ""));
          std::vector<std::uint32_t> starts(batch.start_words, 0);
          std::vector<RowSetPlan> plans(count);
          plan_row_sets_on_host(batch.sides.data(), batch.row_sets.data(), count, batch.counters.data(), rule,
                                starts.data(), plans.data(), HostBlock{threads, reversed});
          for (std::uint32_t r = 0; r < count; ++r) {
            SCOPED_TRACE(testing::Message() << "row set " << r << " of "
                                            << (1 << batch.sides[std::size_t{2} * r].rule.count) << " groups");
            expect_same_plan(plans[r], alone[r]);
          }
          EXPECT_EQ(starts, alone_starts);
        }
      for (const RowSetPlan& plan : alone) {
        split += plan.split_count != 0 ? 1 : 0;
        matched += plan.query_keys != 0 ? 1 : 0;
      }
    }
  // The batches hold split row sets, unsplit ones and unmatched ones.
  EXPECT_GT(split, 20u);
  EXPECT_GT(matched, split + 20);
  EXPECT_LT(matched, 4 * 3 * 60u);
}

// The trips the device model prices: a step of n slots costs the longest thread ceil(n / threads)
// trips, and each warp with a slot its first thread's.
TEST(PlanBlock, ItsStepsCostTheLongestThreadAndEachWarpTheirTrips) {
  BlockTrips trips;
  const HostBlock block{64, false, &trips};
  int ran = 0;
  block.each(100, [&](std::uint32_t) { ++ran; });
  EXPECT_EQ(ran, 100);
  EXPECT_EQ(trips.longest, 2);
  EXPECT_EQ(trips.warps, 2 + 2);  // threads 0 and 32 each take slots i and i + 64
  block.each(1, [&](std::uint32_t) { ++ran; });
  EXPECT_EQ(trips.longest, 3);
  EXPECT_EQ(trips.warps, 5);
  block.each(0, [&](std::uint32_t) { ++ran; });
  EXPECT_EQ(ran, 101);
  EXPECT_EQ(trips.longest, 3);
}

}  // namespace
}  // namespace nqueens::gpu
