// The gpu run priced from a stratified sample of single units (shell/output/gpu_model_sample.hpp):
// a run replayed whole unit by unit is the batch replay's work with no bar; a sample scales each
// band to the band, puts the run's one-off costs in once, and states the bar of that sample.
#include <gtest/gtest.h>

#include "gpu/device_model.hpp"
#include "shell/output/gpu_model_sample.hpp"

namespace {

using nqueens::gpu::find_card;
using nqueens::gpu::modelled_run;
using nqueens::shell::sampled_gpu_run;

TEST(GpuModelSample, EveryUnitReplayedAloneIsTheBatchReplaysWorkWithNoBar) {
  const auto& h100 = *find_card("H100");
  const auto whole = sampled_gpu_run(14, h100, 1e9);
  const auto batches = modelled_run(14, h100, {.device_built = true});
  EXPECT_EQ(whole.units_replayed, whole.units);
  EXPECT_DOUBLE_EQ(whole.share_replayed, 1.0);
  EXPECT_EQ(whole.run.work.keys, batches.work.keys);
  EXPECT_EQ(whole.run.work.pair_tests, batches.work.pair_tests);
  EXPECT_EQ(whole.run.work.build_candidates, batches.work.build_candidates);
  EXPECT_EQ(whole.run.work.group_index_bytes, batches.work.group_index_bytes);
  EXPECT_EQ(whole.relative_error, 0.0);
}

// No budget: two units from each band, the least a bar rests on.
TEST(GpuModelSample, EveryBandGetsTwoUnitsWhateverTheBudget) {
  const auto& h100 = *find_card("H100");
  const auto sample = sampled_gpu_run(17, h100, 0);
  EXPECT_EQ(sample.bands, nqueens::shell::kGpuSampleBands);
  EXPECT_EQ(sample.units_replayed, 2 * sample.bands);
  EXPECT_GT(sample.relative_error, 0);
  EXPECT_GT(sample.run.seconds, 0);
}

// A sample of N = 16 against every unit of it: each band's units scaled to the band by their
// estimated costs come within the bar the sample states of the whole (the device's work, which
// does not depend on this machine's load); the shared table's slices are sent once, however small
// the share replayed.
TEST(GpuModelSample, ASampleScaledBandByBandLiesWithinItsBarOfTheWholeRun) {
  const auto& h100 = *find_card("H100");
  const auto whole = sampled_gpu_run(16, h100, 1e9);
  // No budget: two units a band, drawn in the run's fixed order, so the test is the same every time.
  const auto sample = sampled_gpu_run(16, h100, 0);
  ASSERT_EQ(sample.units_replayed, 2 * sample.bands);
  ASSERT_GT(sample.relative_error, 0);
  EXPECT_GT(sample.half_bars.device, 0);
  EXPECT_NEAR(sample.run.device_seconds, whole.run.device_seconds, 2 * sample.half_bars.device);
  EXPECT_EQ(sample.run.work.group_index_bytes, whole.run.work.group_index_bytes);
  EXPECT_LE(sample.run.work.entry_bytes, sample.run.work.built.table_bytes);
}

}  // namespace
