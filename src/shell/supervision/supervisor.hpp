#pragma once
// One N counted the way `count` runs it: all units or one shard's, resumed from and recorded
// into a checkpoint journal when one is given, with progress on stderr, and stopped cleanly by
// SIGINT or SIGTERM. The library's Run (src/run/run.hpp) does the counting; this file only
// wires it to a worker thread and a watching main thread.
#include <chrono>
#include <filesystem>
#include <functional>
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
#include "run/prepare.hpp"
#include "run/run.hpp"
#include "run/run_arena.hpp"
#include "run/run_request.hpp"
#include "run/selection.hpp"
#include "shell/progress/progress.hpp"

namespace nqueens::shell {

//! Where the runs keep their records (run/journal_place.hpp), and how the program shows them.
struct RunSettings : RunPlace {
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

//! `session` for board size `n` of a run of `sizes` sizes: its checkpoint, if any, is N's journal.
RunSettings settings_for_size(const RunSettings& session, int n, std::size_t sizes);

//! Logs that `request` resumes the journal with another engine than `auto` would choose for N;
//! nothing otherwise.
void log_resumed_engine(const RunRequest& request, const RunSettings& settings);

//! check_runs (run/prepare.hpp) of the command's runs, `runs`, prepared for `session`: everything
//! about each N's run that can be checked before the first N is counted, so that a command is
//! refused whole, not after hours of counting. A stale FILE.partial removed is said on the log.
//! `watched`: each memory plan is made as count_run's setup is, stopped by an interrupt that ends
//! the process at once (catch_interrupts() first): at N = 26 it takes half a minute. The checks run
//! in `arena`, the command's, which then counts every N (count_each).
void check_every_run(const RunSettings& session, PreparedRuns& runs, RunArena& arena, bool watched = true);

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
//! The same in `arena`, the command's, which counts every N of a list (count_each).
RunOutcome count_run(const RunRequest& request, const RunSettings& settings, RunArena& arena);

//! Counts each N of `requests` in order, as count_run does, in `arena`, the one arena of the whole
//! command (made with command_threads, before its checks): its threads are started and proven
//! once, not once per N. Hands each N's outcome to `counted` as soon as it is ready.
void count_each(std::span<const RunRequest> requests, const RunSettings& session, RunArena& arena,
                const std::function<void(const RunOutcome&)>& counted);

}  // namespace nqueens::shell
