// `plan --engine gpu` by the device model: the record is the model's run of that card on the
// engine's device-built path (every unit of a small run, each alone), with the threads and cards
// asked for, and an unknown card is refused.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "gpu/device_model.hpp"
#include "shell/output/gpu_model_plan.hpp"

namespace {

using nqueens::shell::gpu_model_plan_json;

TEST(GpuModelPlan, TheRecordIsTheModelsRunOfTheNamedCard) {
  const nqueens::gpu::CardModel& a100 = *nqueens::gpu::find_card("A100");
  const nqueens::gpu::ModelledRun model = nqueens::gpu::modelled_run(14, a100, {.device_built = true});
  const nqueens::gpu::ModelledRun keys_fed = nqueens::gpu::modelled_run(14, a100);
  const auto plan = gpu_model_plan_json({.n = 14, .card = "a100", .host_threads = 4, .cards = 2});
  EXPECT_EQ(plan["priced_by"], "device model");
  EXPECT_EQ(plan["engine"], "gpu");
  EXPECT_EQ(plan["card"], "A100");
  EXPECT_EQ(plan["host_threads"], 4);
  EXPECT_EQ(plan["cards"], 2);
  // Every unit of N = 14 replayed, so the device's work is the batch replay's, exactly, with no
  // sampling error, but for the plan's kernels: a unit replayed alone is planned in batches of
  // its own, each launch paying for its longest thread.
  EXPECT_EQ(plan["units_replayed"], plan["units"]);
  EXPECT_EQ(plan["relative_error"].get<double>(), 0.0);
  EXPECT_EQ(plan["keys"].get<double>(), model.work.keys);
  const double plan_kernels = plan["plan_kernel_seconds"].get<double>();
  EXPECT_GT(plan_kernels, 0);
  const double matching = model.device_seconds - model.plan_seconds;
  EXPECT_NEAR(plan["device_seconds"].get<double>() - plan_kernels, matching, 1e-12 * matching);
  // Priced on the path the engine runs, where the host sends recipes rather than keys.
  EXPECT_EQ(plan["modelled_path"], "device-built");
  EXPECT_EQ(plan["build_candidates"].get<double>(), model.work.build_candidates);
  EXPECT_GT(model.work.build_candidates, 0);
  EXPECT_LT(plan["bytes_to_device"].get<double>(), keys_fed.work.bytes_to_device);
  // The host's thread time is shared by the threads asked for, and the cards share the run.
  EXPECT_DOUBLE_EQ(plan["host_seconds"].get<double>(), plan["host_thread_seconds"].get<double>() / 4);
  const double one_card = std::max({plan["device_seconds"].get<double>(), plan["transfer_seconds"].get<double>(),
                                    plan["host_seconds"].get<double>()});
  EXPECT_DOUBLE_EQ(plan["wall_seconds"].get<double>(), one_card / 2);
}

TEST(GpuModelPlan, TheTextSaysItIsAModelAndOfWhichCard) {
  const auto plan = gpu_model_plan_json({.n = 12, .card = "", .host_threads = 0, .cards = 1});
  const std::string text = nqueens::shell::gpu_model_plan_text(plan);
  EXPECT_NE(text.find("device model of H100"), std::string::npos) << text;
  EXPECT_NE(text.find("a model, not a measurement"), std::string::npos) << text;
  EXPECT_NE(text.find("every unit of the run"), std::string::npos) << text;
  EXPECT_NE(text.find("bar:         +-0 %"), std::string::npos) << text;
}

TEST(GpuModelPlan, AnUnknownCardIsRefusedWithTheKnownOnes) {
  try {
    gpu_model_plan_json({.n = 12, .card = "H1000"});
    FAIL() << "an unknown card was priced";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("H100, H200"), std::string::npos) << error.what();
  }
}

}  // namespace
