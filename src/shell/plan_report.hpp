#pragma once
// What `nqueens plan` prints: one JSON object ("type": "plan") whose fields the text form
// reads, so that the two always say the same.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/engine.hpp"
#include "plan/plan.hpp"

namespace nqueens::shell {

//! A plan with what the command measured around it.
struct PlanRecord {
  const Engine& engine;
  plan::RunPlan plan;
  int threads = 1;
  int ranks = 1;
  double setup_seconds = 0;                //!< building the engine: every process does it once
  std::uint64_t program_memory_bytes = 0;  //!< resident before the engine was built
};

//! Runs past this wall time are worth a --checkpoint journal.
inline constexpr double kCheckpointAdvisedSeconds = 600;

nlohmann::ordered_json plan_json(const PlanRecord& record);

//! The text form of plan_json's record, lines ending in '\n'.
std::string plan_text(const nlohmann::ordered_json& record);

}  // namespace nqueens::shell
