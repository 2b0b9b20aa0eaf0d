#pragma once
// One preparation of a command's runs, the same for every driver: the library's count(),
// `nqueens count` and `nqueens-mpi count`. Before anything is built, each N's request is made
// once (the engine, `auto` resolved and a resumed journal's engine kept: resume_engine.hpp; the
// threads; the memory budget, its default included), and a whole count past a day is given the
// journal it keeps by default. Before the first N is counted, every N's run is checked: its
// journal held by no other process (a stale FILE.partial beside it removed), its memory plan made
// once and kept in its request, and, with several N, every journal already there of the run it
// is for and every journal writable, so that a command is refused whole, never after hours of
// counting. A driver adds only what it shows: the cost notice, the log lines, the progress.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "nqueens/count.hpp"
#include "run/journal_place.hpp"
#include "run/run_arena.hpp"
#include "run/run_request.hpp"
#include "run/threads_that_run.hpp"

namespace nqueens {

//! Wall time past which a whole count keeps a journal, the one named or one made by default.
inline constexpr double kJournalSeconds = 24 * 3600;

//! Who counts: how many processes, and whether a long count keeps a journal unasked.
struct Preparation {
  int processes = 1;  //!< the processes that count each N together (an MPI job's ranks)
  //! A whole count planned past kJournalSeconds on every process's threads keeps a journal when
  //! none is named: the programs' rule, unless --no-checkpoint. The library's count() writes no
  //! file it was not given.
  bool journal_by_default = false;
};

//! A command's runs, prepared.
struct PreparedRuns {
  RunPlace place;                    //!< the command's, with the journal kept by default where there is one
  std::vector<RunRequest> requests;  //!< each N's, in the order given
  ThreadsThatRun threads;            //!< what runs at once, in all, for every N (one --threads)
  bool journal_by_default = false;   //!< place.checkpoint is the journal kept by default
};

//! Each N's request and the default journal; nothing is built, read or written but a journal's
//! header (the resume rule). Throws std::invalid_argument as request_run does, or for a default
//! journal of several N that names a file (check_checkpoint).
PreparedRuns prepare_runs(const std::vector<int>& sizes, CountOptions options, RunPlace place,
                          const Preparation& preparation = {});

//! The runs another process prepared, as a process that counts them with it makes them (an MPI
//! rank other than 0, which may not see the journals): each N's request names the engine that
//! process's prepare_runs chose (`engines`, in the order of `sizes`: a resumed journal's engine
//! included), and takes the threads and the budget as prepare_runs resolves them, here; no
//! journal is read, none is kept. check_runs then makes each request's memory plan. Throws
//! std::invalid_argument as request_run does, std::logic_error when the engines do not match the sizes.
PreparedRuns follow_runs(const std::vector<int>& sizes, CountOptions options, std::span<const std::string> engines,
                         const Preparation& preparation = {});

//! Runs one N's memory plan (`plan`): a program watches signals while it runs, since at N = 26 it
//! takes half a minute; the library just calls it.
using PlanWatch = std::function<void(int n, const std::function<void()>& plan)>;

//! The checks of every N's run before the first is counted, in the order of their cost: each N's
//! journal held by no other process (detail::FileInUse) with any stale FILE.partial beside it
//! removed (said through `note`), its memory plan made and kept in its request (run through
//! `watch` where given; std::invalid_argument for a budget too small), and with several N what
//! each N's run may leave for the next N (RunRequest::kept, hand_on_bytes); then every journal's header
//! against its run and every journal writable (check_journal_headers, check_journals_writable).
//! The plans, and the engines built for the headers of journals already there, run in `arena`,
//! the command's (RunArena: one for every N, made with command_threads), so that the command
//! starts its threads once.
void check_runs(PreparedRuns& runs, RunArena& arena, const PlanWatch& watch = {},
                const std::function<void(const std::string&)>& note = {});

//! The threads of the one arena a command counts all its N in: the most any N's request has. One
//! --threads resolves alike for every N, so each N has them all: no N runs on more than it asked.
int command_threads(std::span<const RunRequest> requests);

//! The request of board size `n` among `requests`. Throws std::logic_error if none.
const RunRequest& request_for(std::span<const RunRequest> requests, int n);

}  // namespace nqueens
