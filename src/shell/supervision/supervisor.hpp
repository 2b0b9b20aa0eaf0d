#pragma once
// One N counted the way `count` runs it: all units or one shard's, resumed from and recorded
// into a checkpoint journal when one is given, with progress on stderr, and stopped cleanly by
// SIGINT or SIGTERM. The library's Run (src/run/run.hpp) does the counting; this file only
// wires it to a worker thread and a watching main thread.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "nqueens/count.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/run.hpp"
#include "run/run_arena.hpp"
#include "run/run_request.hpp"
#include "run/selection.hpp"
#include "shell/progress/progress.hpp"

namespace nqueens::shell {

struct RunSettings {
  std::optional<std::filesystem::path> checkpoint;  //!< the journal to resume from and record into
  bool repair = false;                              //!< keep a damaged journal's sound records
  //! The units to count: all, one shard's, or a list (--units): a part is written as a shard file.
  Selection selection = Selection::whole_run();
  ProgressOptions progress;
  //! When the whole run began (a list such as -n 8-17 is one run): the interrupt message counts
  //! from here, while each N's `seconds` counts from that N's start.
  std::chrono::steady_clock::time_point run_start = std::chrono::steady_clock::now();
};

struct RunOutcome {
  CountResult result;  //!< totals over the units asked for (a part's, or all)
  RunHeader header;
  //! Every unit asked for, ascending id; only for a part of a run, as its shard file is the one
  //! reader: a copy of the ledger costs real time at large unit counts (80 ms at N = 17).
  std::vector<UnitCount> units;
  UnitTime unit_time_here;  //!< the time of the units this process counted (not replayed)
  Totals totals_here;       //!< the counts of those units: what this run's rates are of
  //! Whether this run counted any unit: false when the journal held every one, and the result's
  //! seconds timed only the replay.
  bool counted_here = true;
};

//! The request of N's run under these settings: with a journal, for `auto`, the engine the
//! journal was started with where it can count N (run/resume_engine.hpp), so that running the
//! same command again resumes. Both drivers open their runs with it (nqueens-mpi: rank 0 reads
//! the journal, every rank follows). Throws std::invalid_argument as request_run does.
RunRequest run_request(int n, const CountOptions& options, const RunSettings& settings);

//! run_request of each N of `sizes`, in their order: each N's decisions, made once.
std::vector<RunRequest> run_requests(const RunSettings& session, const std::vector<int>& sizes,
                                     const CountOptions& options);

//! The request of board size `n` among `requests` (run_requests). Throws std::logic_error if none.
const RunRequest& request_for(std::span<const RunRequest> requests, int n);

//! Logs that `request` resumes the journal with another engine than `auto` would choose for N;
//! nothing otherwise.
void log_resumed_engine(const RunRequest& request, const RunSettings& settings);

//! Everything about each N's run that can be checked before the first N is counted, so that a
//! command is refused whole, not after hours of counting: the engine's memory plan under the
//! budget (std::invalid_argument, as open_run would throw it; the plan is kept in its request, which
//! open_run then logs and builds the engine from) and a journal that another process
//! holds or is writing (detail::FileInUse), for each request (run_requests, whose settings are
//! those of `session` for its N). `watched`: each plan is made as count_run's setup is, stopped
//! by an interrupt that ends the process at once (catch_interrupts() first): at N = 26 it takes
//! half a minute.
void check_every_run(const RunSettings& session, std::span<RunRequest> requests, bool watched = true);

//! What a refusal of `journal`, the journal of another run than one of `engine`, ends with:
//! " (to resume it, give --engine dfs; to start a new run, give another --checkpoint file)".
std::string journal_mismatch_advice(const std::filesystem::path& journal, std::string_view engine);

//! The Run of one N: the engine, built in the run's arena, the selected units and the
//! checkpoint journal (created, resumed or repaired), with a log line for what the journal held
//! and what the engine built. Throws what make_engine and Run's constructor throw; a journal of
//! another run tells the user how to start a new one.
std::unique_ptr<Run> open_run(const RunRequest& request, RunArena& arena, const RunSettings& settings);
//! The same over an engine already made (an MPI rank checks its unit list with the others first).
std::unique_ptr<Run> open_run(std::unique_ptr<Engine> engine, const RunSettings& settings);

//! After SIGINT or SIGTERM: seals the journal and says on stderr how much of the run is saved
//! and how to resume. `program` names the one speaking ("nqueens", "nqueens-mpi").
void report_interrupt(std::string_view program, int signal, double seconds, const Run& run);

//! The finished run's record for the report, or with its units for the shard file of a part.
RunOutcome outcome_of(const Run& run, const RunSettings& settings, int threads,
                      std::chrono::steady_clock::time_point start);

//! Counts one N. On SIGINT or SIGTERM (see signals.hpp) it stops handing out units, waits up
//! to a second for the ones running, makes the journal durable, says how to resume and ends
//! the process with 128 + the signal number; it does not return then.
RunOutcome count_run(const RunRequest& request, const RunSettings& settings);

}  // namespace nqueens::shell
