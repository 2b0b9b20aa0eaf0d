#pragma once
// `nqueens plan --engine gpu` where no device is at hand (or a card is named): the gpu engine's
// run priced by its device model (gpu/device_model.hpp) rather than by timing units, and said
// to be a model of a named card, not a measurement.
#include <string>

#include <nlohmann/json.hpp>

namespace nqueens::shell {

struct GpuModelRequest {
  int n = 0;
  std::string card;           //!< a card the model knows (gpu::known_cards); empty: the default
  int host_threads = 0;       //!< threads feeding each card; 0: the card's as measured
  int cards = 1;              //!< cards counting at once (ranks or shards, one card each)
  double replay_seconds = 0;  //!< CPU time to replay units here; 0: the default
};

//! The card the model prices when none is named.
inline constexpr const char* kDefaultModelCard = "H100";
//! How long the model replays units by default: a stratified sample of them, scaled.
inline constexpr double kDefaultReplaySeconds = 30;

//! Whether a plan of the gpu engine is made by the model: a card was named, or no device is here.
bool gpu_plan_by_model(const std::string& card);

//! The known cards' names, for messages: "H100, H200, A100, ...".
std::string known_card_names();

//! Replays n's gpu run and prices it on the card: one JSON object ("type": "plan",
//! "priced_by": "device model"). Throws std::invalid_argument for an unknown card or an n the
//! engine cannot count.
nlohmann::ordered_json gpu_model_plan_json(const GpuModelRequest& request);

//! The text form of gpu_model_plan_json's record, lines ending in '\n'.
std::string gpu_model_plan_text(const nlohmann::ordered_json& record);

}  // namespace nqueens::shell
