#pragma once
// What one N's run is, decided once before anything is built (engine/run_request.hpp): the
// engine (`auto` resolved, and for a resumed journal the engine it was started with:
// resume_engine.hpp), the thread count and the memory budget. The memory plan, the cost notice,
// the engine's construction and the count all read it, so every driver (count(), `nqueens
// count`, `nqueens-mpi`, `nqueens plan`, plan_count()) makes these choices the same way and once
// per N.
#include <filesystem>
#include <optional>
#include <string>

#include "engine/catalogue.hpp"
#include "engine/run_request.hpp"
#include "nqueens/count.hpp"

namespace nqueens {

//! Without a budget (options.memory_bytes 0), sets the default budget of one of
//! `processes_on_machine` processes (the MPI ranks of one node) that each run options.threads
//! (resolved) and one thread more, the driver's own (default_budget: the room of the threads comes
//! out of the address space first), settled once before anything is allocated: the address space
//! left under `ulimit -v` shrinks as a run maps memory, and every N must be planned under one
//! budget. Returns where the default comes from, for the log; "" when a budget was given. Every
//! request follows it (request_run): count(), the programs, plan, check and bench alike.
std::string settle_memory_budget(CountOptions& options, int processes_on_machine = 1);

//! The run of n with `options`, as given. Throws std::invalid_argument as resolve_threads and
//! choose_engine do.
RunRequest request_run(int n, const CountOptions& options);

//! The run of n with `options` that resumes `journal` when one is given: for `auto`, the engine
//! the journal was started with where it can count n (resume_options, resume_engine.hpp).
RunRequest request_run(int n, const CountOptions& options, const std::optional<std::filesystem::path>& journal);

}  // namespace nqueens
