// The placing block of gpu/batch_plan.hpp (nq_place_row_sets: each thread sums a run of row
// sets, one thread scans the runs, each places its run) against a plain running sum, for blocks
// of one thread to the kernel's own, on batches shorter and longer than the block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gpu/batch_plan.hpp"

namespace nqueens::gpu {
namespace {

struct Batch {
  std::vector<RowSetPlan> plans;
  std::vector<PlanRowSet> row_sets;
};

// Row sets of any size, a few of them with nothing matched (no query keys), whose key widths
// count only where matched.
Batch random_batch(std::uint32_t count, std::mt19937_64& random) {
  Batch batch;
  for (std::uint32_t r = 0; r < count; ++r) {
    RowSetPlan plan;
    const bool matched = random() % 5 != 0;
    plan.query_keys = matched ? static_cast<std::uint32_t>(random() % 5000) + 1 : 0;
    plan.stored_keys = static_cast<std::uint32_t>(random() % 5000);
    plan.jobs = static_cast<std::uint32_t>(random() % 9);
    plan.tiles = plan.jobs * static_cast<std::uint32_t>(random() % 4);
    PlanRowSet row_set;
    row_set.key_bits = static_cast<std::uint32_t>(random() % 60) + 2;
    batch.plans.push_back(plan);
    batch.row_sets.push_back(row_set);
  }
  return batch;
}

TEST(BatchPlan, TheBlockPlacesEachRowSetAfterTheEarlierOnesAsARunningSumDoes) {
  std::mt19937_64 random(44);
  for (const std::uint32_t count : {0u, 1u, 7u, 255u, 256u, 257u, 1000u, 5003u})
    for (const std::uint32_t threads : {1u, 3u, 64u, kPlaceThreads}) {
      SCOPED_TRACE(testing::Message() << count << " row sets, " << threads << " threads");
      Batch batch = random_batch(count, random);
      PlanTotals totals;
      place_row_sets_on_host(batch.plans.data(), batch.row_sets.data(), count, &totals, threads);
      std::uint64_t keys = 0;
      std::uint32_t jobs = 0, tiles = 0, key_bits = 1;
      for (std::uint32_t r = 0; r < count; ++r) {
        const RowSetPlan& plan = batch.plans[r];
        ASSERT_EQ(plan.keys_first, keys) << r;
        ASSERT_EQ(plan.jobs_first, jobs) << r;
        ASSERT_EQ(plan.tiles_first, tiles) << r;
        keys += plan.query_keys + plan.stored_keys;
        jobs += plan.jobs;
        tiles += plan.tiles;
        if (plan.query_keys != 0) key_bits = std::max(key_bits, batch.row_sets[r].key_bits);
      }
      EXPECT_EQ(totals.keys, keys);
      EXPECT_EQ(totals.jobs, jobs);
      EXPECT_EQ(totals.tiles, tiles);
      EXPECT_EQ(totals.key_bits, key_bits);
    }
}

}  // namespace
}  // namespace nqueens::gpu
