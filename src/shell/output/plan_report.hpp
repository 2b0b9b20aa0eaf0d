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

//! Runs past this wall time are worth a --checkpoint journal.
inline constexpr double kCheckpointAdvisedSeconds = 600;

//! What to ask for: a process is given --memory of its counting memory rounded up to a MiB, and
//! a node of R processes asks the batch system for R x the memory of one (counting and the
//! program) plus a margin for what a budget does not cover (the allocator, thread stacks,
//! the libraries' own): 10 % and 64 MiB, rounded up to a MiB.
inline constexpr double kNodeMemoryMargin = 0.10;
inline constexpr std::uint64_t kNodeMemoryExtraBytes = std::uint64_t{64} << 20;
//! The --memory option for count: `counting_bytes` rounded up to a MiB, in MiB ("9936M").
std::string count_memory_option(std::uint64_t counting_bytes);
//! A node's memory, in bytes rounded up to a MiB, for `ranks_per_node` processes of
//! `process_bytes` each.
std::uint64_t node_memory_bytes(std::uint64_t process_bytes, int ranks_per_node);

nlohmann::ordered_json plan_json(const PlanRecord& record);

//! The text form of plan_json's record, lines ending in '\n'.
std::string plan_text(const nlohmann::ordered_json& record);

}  // namespace nqueens::shell
