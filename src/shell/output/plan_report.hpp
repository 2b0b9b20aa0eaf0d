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
  int ranks_per_node = 1;                  //!< of the ranks, those that share one node's memory
  double setup_seconds = 0;                //!< building the engine: every process does it once
  std::uint64_t program_memory_bytes = 0;  //!< resident before the engine was built
  std::string part;                        //!< "shard 3/512", "units 7-9": plan.part_thread's units; "" for none
};

//! "0.55 ms", "42.10 s", "3.50 min", "7.20 h", "410.5 days", "2.30 years": durations from a
//! sampled unit to a cluster year, in the largest unit that keeps the figure at 2 or more,
//! always with a decimal point.
std::string duration_text(double seconds);
//! "X +- Y", or where the bar is at least as wide as the estimate, "about X, unbounded": a bar
//! reaching below zero bounds nothing, and its figure is not given.
std::string bar_text(double seconds, double error);

//! Runs past this wall time are worth a --checkpoint journal.
inline constexpr double kCheckpointAdvisedSeconds = 600;

nlohmann::ordered_json plan_json(const PlanRecord& record);

//! The text form of plan_json's record, lines ending in '\n'.
std::string plan_text(const nlohmann::ordered_json& record);

}  // namespace nqueens::shell
