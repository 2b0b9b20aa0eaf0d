#pragma once
// What one N's run is, decided once before anything is built (run/run_request.hpp makes it):
// the engine, the thread count and the memory budget. It stands on the engine's floor because
// the engines are built from it (EngineDescription::make, memory_plan): they read the resolved
// threads and budget here and never resolve them again, and the memory plan made for it once.
#include <cstdint>
#include <memory>

#include "engine/kept_tables.hpp"
#include "engine/memory_plan.hpp"
#include "nqueens/options.hpp"

namespace nqueens {

struct EngineDescription;

struct RunRequest {
  int n = 0;
  const EngineDescription* engine = nullptr;  //!< never null in a request made by request_run
  //! The options the engine is built with: its own name for `auto`, the threads and the memory
  //! budget resolved.
  CountOptions options;
  int threads = 1;                 //!< resolved: never 0
  std::uint64_t memory_bytes = 0;  //!< the budget resolved (engine/memory_budget.hpp): never 0
  //! The engine's memory plan for this request (run/registry.hpp, plan_memory), made once and
  //! read by the engine's construction; null until made, and for an engine without one.
  std::shared_ptr<const MemoryPlan> memory_plan;
  //! Where the runs of a command of several N leave tables for the next N (engine/kept_tables.hpp):
  //! one for all its requests, set with their memory plans (run/prepare.hpp); null for one N.
  std::shared_ptr<KeptTables> kept;
  //! The most this run may leave there for the next N of its command, within what the next run's
  //! memory plan gives those tables (MemoryPlan::hand_on_bytes): 0 leaves nothing.
  std::uint64_t hand_on_bytes = 0;
  //! The engine is the one the journal was started with, where `auto` was asked for.
  bool engine_from_journal = false;
  //! ... and `auto` would have chosen another for N: worth a line on the log.
  bool engine_unlike_auto = false;
};

}  // namespace nqueens
