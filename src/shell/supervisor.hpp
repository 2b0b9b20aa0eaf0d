#pragma once
// One N counted the way `count` runs it: all units or one shard's, resumed from and recorded
// into a checkpoint journal when one is given, with progress on stderr, and stopped cleanly by
// SIGINT or SIGTERM. The library's Session (src/session.hpp) does the counting; this file only
// wires it to a worker thread and a watching main thread.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/engine.hpp"
#include "nqueens/count.hpp"
#include "nqueens/journal.hpp"
#include "nqueens/run_header.hpp"
#include "nqueens/shard.hpp"
#include "nqueens/unit_record.hpp"
#include "progress.hpp"
#include "run/run.hpp"

namespace nqueens::shell {

struct SessionOptions {
  std::optional<std::filesystem::path> checkpoint;  //!< the journal to resume from and record into
  bool repair = false;                              //!< keep a damaged journal's sound records
  //! Count only this shard's units, written as a shard file; {0, 0} with `units`.
  std::optional<ShardSpec> shard;
  std::optional<std::string> units;  //!< count --units: the ids to count (unit_ranges.hpp)
  ProgressOptions progress;
  //! When the whole run began (a list such as -n 8-17 is one run): the interrupt message counts
  //! from here, while each N's `seconds` counts from that N's start.
  std::chrono::steady_clock::time_point run_start = std::chrono::steady_clock::now();
};

struct SessionResult {
  CountResult result;  //!< totals over the units asked for (a shard's, or all)
  RunHeader header;
  //! Every unit asked for, ascending id; only for a shard file (`shard` set), as it is the one
  //! reader: a copy of the ledger costs real time at large unit counts (80 ms at N = 17).
  std::vector<UnitCount> units;
  UnitTime unit_time_here;  //!< the time of the units this process counted (not replayed)
};

//! Opens (or starts) the checkpoint journal of the run `header`, and says on the log when it
//! resumes or dropped a torn last record. Throws what Journal's constructor throws; a mismatch
//! tells the user how to start a new run.
std::unique_ptr<Journal> open_journal(const std::filesystem::path& path, const RunHeader& header, bool repair = false);

//! After SIGINT or SIGTERM: seals the journal and says on stderr how much of the run is saved
//! and how to resume. `program` names the one speaking ("nqueens", "nqueens-mpi").
void report_interrupt(std::string_view program, int signal, double seconds, const Session& session, Journal* journal);

//! The units a session is asked for, ascending: those of --units, a shard's, or all of them.
//! Throws std::invalid_argument for a unit list that does not fit the run.
std::vector<std::size_t> wanted_ids(const Engine& engine, const SessionOptions& session);

//! Says on the log which engine counts, what it built, and what a journal already holds.
void log_start(const Engine& engine, const Session& session, const Journal* journal);

//! The finished session's record for the report or the shard file.
SessionResult finish_session(const Session& session, const SessionOptions& options, int threads,
                             std::chrono::steady_clock::time_point start);

//! Counts one N. On SIGINT or SIGTERM (see signals.hpp) it stops handing out units, waits up
//! to a second for the ones running, makes the journal durable, says how to resume and ends
//! the process with 128 + the signal number; it does not return then.
SessionResult count_session(int n, const CountOptions& options, const SessionOptions& session);

}  // namespace nqueens::shell
