#pragma once
// `nqueens-mpi count` for one N: the work units of `nqueens count`, spread over the ranks of an
// MPI job. Every rank splits the board the same way; rank 0 reads the checkpoint journal and
// broadcasts the ids still to count, costliest first; every rank draws positions in that list
// from the dispenser and counts them on its own TBB arena; finished units travel to rank 0 as
// fixed-size records, where they are journalled, summed exactly (128 bits) and printed.
#include <chrono>
#include <memory>
#include <optional>

#include "nqueens/count.hpp"
#include "run/run_arena.hpp"
#include "shell/supervision/supervisor.hpp"
#include "world.hpp"

namespace nqueens::mpi {

//! NQUEENS_MPI_LATENCY_US, for tests and benchmarks only: an emulated network latency that every
//! draw from the dispenser and every batch sent to rank 0 first sleeps (0 when unset). Throws
//! std::invalid_argument for anything but a whole number of microseconds up to 1 s.
std::chrono::microseconds emulated_latency();

//! NQUEENS_MPI_OUT_OF_MEMORY_AT=R:K, for tests only: rank R's K-th unit (from 1) throws std::bad_alloc in place of
//! its count. The unit on rank `rank` (0 on another rank, or when unset); std::invalid_argument for a value of
//! another form.
std::size_t out_of_memory_test_unit(int rank);

//! NQUEENS_MPI_OUT_OF_MEMORY_IN=R:STEP, for tests only: rank R throws std::bad_alloc as it starts
//! STEP, one of the steps every rank agrees on before counting: parse (the command line), prepare
//! (rank 0's runs, the others' following them), check (each N's checks), open (rank 0 opens N's
//! run), output (rank 0's journal folder and report). Does nothing on another rank or when unset;
//! std::invalid_argument for a value of another form (checked with the command line: parse).
void out_of_memory_test_step(int rank, std::string_view step);

//! The rank's threads for every N of the command: `threads` workers besides the main thread
//! (RunArena::Caller::stays_apart), started and proven once. Collective: a rank that cannot start
//! them ends every rank with AgreedExit and its message.
std::unique_ptr<RunArena> rank_arena(const World& world, int threads);

//! Counts one N on every rank of `world`, in `arena`, the rank's (rank_arena). Collective: every
//! rank calls it with its request of N's run, prepared once for the command (run/prepare.hpp: rank
//! 0's prepare_runs, the others' follow_runs with the engines rank 0 chose), and the same settings.
//! Rank 0 returns what `count_run` would return for the same options (the totals over the units
//! asked for, with `threads` the threads of one rank); the other ranks return nothing. Throws
//! AgreedExit on every rank when rank 0 cannot open the journal. On SIGINT or SIGTERM every rank
//! stops drawing, rank 0 saves what finished and each process ends with 128 + the signal number. A
//! rank that fails while counting (out of memory, say) makes every rank stop drawing and end its
//! running units, then every rank throws AgreedExit with that rank's message (the `--memory` to
//! try); only a failure while ending so (rank 0's journal unwritable) ends the job through abort_job.
std::optional<shell::RunOutcome> count_distributed(const World& world, const RunRequest& request,
                                                   const shell::RunSettings& session, RunArena& arena);

}  // namespace nqueens::mpi
