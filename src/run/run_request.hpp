#pragma once
// What one N's run is, decided once before anything is built (engine/run_request.hpp): the
// engine (`auto` resolved, and for a resumed journal the engine it was started with:
// resume_engine.hpp), the thread count and the memory budget. The memory plan, the cost notice,
// the engine's construction and the count all read it, so every driver (count(), `nqueens
// count`, `nqueens-mpi`, `nqueens plan`, plan_count()) makes these choices the same way and once
// per N.
#include <filesystem>
#include <optional>

#include "engine/catalogue.hpp"
#include "engine/run_request.hpp"
#include "nqueens/count.hpp"

namespace nqueens {

//! The run of n with `options`, as given. Throws std::invalid_argument as resolve_threads and
//! choose_engine do.
RunRequest request_run(int n, const CountOptions& options);

//! The run of n with `options` that resumes `journal` when one is given: for `auto`, the engine
//! the journal was started with where it can count n (resume_options, resume_engine.hpp).
RunRequest request_run(int n, const CountOptions& options, const std::optional<std::filesystem::path>& journal);

}  // namespace nqueens
