#include "shell/output/gpu_model_plan.hpp"

#include <stdexcept>

#include <fmt/core.h>

#include "gpu/device_model.hpp"
#include "gpu/gpu_devices.hpp"
#include "shell/output/gpu_model_sample.hpp"
#include "shell/output/plan_report.hpp"

namespace nqueens::shell {

bool gpu_plan_by_model(const std::string& card) { return !card.empty() || gpu::devices().list.empty(); }

std::string known_card_names() {
  std::string names;
  for (const gpu::CardModel& card : gpu::known_cards()) names += (names.empty() ? "" : ", ") + std::string(card.name);
  return names;
}

nlohmann::ordered_json gpu_model_plan_json(const GpuModelRequest& request) {
  const std::string name = request.card.empty() ? kDefaultModelCard : request.card;
  const gpu::CardModel* known = gpu::find_card(name);
  if (known == nullptr)
    throw std::invalid_argument(
        fmt::format("--card '{}' is not a card the device model knows: {}", name, known_card_names()));
  if (request.cards < 1) throw std::invalid_argument("a plan needs at least one card");
  gpu::CardModel card = *known;
  if (request.host_threads > 0) card.host_threads = request.host_threads;
  const double replay = request.replay_seconds > 0 ? request.replay_seconds : kDefaultReplaySeconds;
  // The engine's own path: halves built on the device from recipes (built_matcher.hpp).
  const GpuSample sample = sampled_gpu_run(request.n, card, replay);
  const gpu::ModelledRun& run = sample.run;

  nlohmann::ordered_json json;
  json["type"] = "plan";
  json["n"] = request.n;
  json["engine"] = "gpu";
  json["priced_by"] = "device model";
  json["modelled_path"] = "device-built";
  json["device_here"] = !gpu::devices().list.empty();
  json["card"] = run.card;
  json["card_description"] = card.source;
  json["cards"] = request.cards;
  json["host_threads"] = card.host_threads;
  json["units"] = sample.units;
  json["units_replayed"] = sample.units_replayed;
  json["bands"] = sample.bands;
  json["replayed_share"] = sample.share_replayed;
  json["replay_budget_seconds"] = replay;
  json["host_thread_seconds"] = run.work.host_seconds;
  json["device_seconds"] = run.device_seconds;
  json["plan_kernel_seconds"] = run.plan_seconds;  // of device_seconds: each unit alone plans its own batches
  json["transfer_seconds"] = run.transfer_seconds;
  json["host_seconds"] = run.host_seconds;
  json["bound_by"] = run.bound_by;
  // Each card takes its share of the units; with units in the millions at the frontier the
  // shares are even, and the model has no term for the last unit.
  json["wall_seconds"] = run.seconds / request.cards;
  json["relative_error"] = sample.relative_error;  // half the sample's 95 % bar, over the wall time
  json["keys"] = run.work.keys;
  json["pair_tests"] = run.work.pair_tests;
  json["bytes_to_device"] = run.work.bytes_to_device;
  json["bytes_to_host"] = run.work.bytes_to_host;
  json["build_candidates"] = run.work.build_candidates;
  return json;
}

std::string gpu_model_plan_text(const nlohmann::ordered_json& r) {
  const auto number = [&r](const char* key) { return r[key].get<double>(); };
  const auto count = [&r](const char* key) { return r[key].get<std::int64_t>(); };
  const std::string card = r["card"].get<std::string>();
  std::string text = fmt::format(
      "N={}, gpu engine priced by its device model of {} ({}): a model, not a measurement{}\n", count("n"), card,
      r["card_description"].get<std::string>(), r["device_here"].get<bool>() ? "" : " (no device here)");
  if (count("units_replayed") == count("units"))
    text +=
        fmt::format("replayed:    every unit of the run ({}), each alone, on this CPU, halves built on the device\n",
                    count("units"));
  else
    text += fmt::format(
        "replayed:    {} of {} units ({:.2g} % of the estimated cost), drawn at random from {} bands of the "
        "cost model, each alone, on this CPU, halves built on the device, scaled band by band to the run\n",
        count("units_replayed"), count("units"), 100 * number("replayed_share"), count("bands"));
  text += fmt::format("wall time:   {} on {} {} fed by {} host threads each, bound by the {}\n",
                      duration_text(number("wall_seconds")), count("cards"), count("cards") == 1 ? "card" : "cards",
                      count("host_threads"), r["bound_by"].get<std::string>());
  text += fmt::format("one card:    device {}, transfers {}, host {} (they overlap: the longest sets the time)\n",
                      duration_text(number("device_seconds")), duration_text(number("transfer_seconds")),
                      duration_text(number("host_seconds")));
  text += fmt::format("bar:         +-{:.0f} % (95 %, the spread of the replayed units' {} time in their bands)\n",
                      100 * number("relative_error"), r["bound_by"].get<std::string>());
  text += fmt::format(
      "note:        the model's constants are fitted to one measured card; its bar is the sample's, not the "
      "model's; `count --engine gpu` on {} measures the run\n",
      card);
  return text;
}

}  // namespace nqueens::shell
