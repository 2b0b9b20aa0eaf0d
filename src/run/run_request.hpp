#pragma once
// What one N's run is, decided once before anything is built: the engine (`auto` resolved, and
// for a resumed journal the engine it was started with: resume_engine.hpp), the thread count and
// the memory budget. The memory plan, the cost notice, the engine's construction and the count
// all read it, so every driver (count(), `nqueens count`, `nqueens-mpi`) makes these choices the
// same way and once per N.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "engine/catalogue.hpp"
#include "nqueens/count.hpp"

namespace nqueens {

struct RunRequest {
  int n = 0;
  const EngineDescription* engine = nullptr;  //!< never null in a request made by request_run
  //! The options the engine is built with: its own name for `auto`, the threads and the memory
  //! budget resolved.
  CountOptions options;
  int threads = 1;                 //!< resolved: never 0
  std::uint64_t memory_bytes = 0;  //!< the budget resolved (engine/memory_budget.hpp): never 0
  //! The engine is the one the journal was started with, where `auto` was asked for.
  bool engine_from_journal = false;
  //! ... and `auto` would have chosen another for N: worth a line on the log.
  bool engine_unlike_auto = false;
};

//! The run of n with `options`, as given. Throws std::invalid_argument as resolve_threads and
//! choose_engine do.
RunRequest request_run(int n, const CountOptions& options);

//! The run of n with `options` that resumes `journal` when one is given: for `auto`, the engine
//! the journal was started with where it can count n (resume_options, resume_engine.hpp).
RunRequest request_run(int n, const CountOptions& options, const std::optional<std::filesystem::path>& journal);

}  // namespace nqueens
