#pragma once
// What a count will cost, said before anything is built: the rough cost of each N's whole run
// (run/rough_cost.hpp) on the threads given. A run past an hour is announced on the log; a
// command with a run past a year is refused whole, unless --force, before any setup (which
// takes minutes at the largest N) and before anything is counted.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "run/run_request.hpp"
#include "run/threads_that_run.hpp"
#include "shell/supervision/supervisor.hpp"

namespace nqueens::shell {

//! Wall time past which a run is announced, and past which it is refused without --force (past
//! kJournalSeconds a whole run keeps a journal: run/prepare.hpp).
inline constexpr double kAnnouncedSeconds = 3600;
inline constexpr double kRefusedSeconds = 365.25 * 24 * 3600;

//! "3.2 hours", "41 days", "17 years", "2.1e+05 years": a rough time in the unit that reads best.
std::string rough_duration_text(double seconds);

//! The announcement of each request's N whose whole run (with the engine run_request chose for
//! it) should take more than kAnnouncedSeconds on the threads that will run (`threads.running`,
//! saying so when more were asked for), for the caller to log (warn_each). Throws
//! std::invalid_argument naming the first N past kRefusedSeconds unless `force`, before anything
//! is announced: a refusal is its one line, not preceded by the announcement of a smaller N. A part of a run (--shard,
//! --units) is announced but never refused: its share of the cost is known only once the engine is built. Engines
//! without measurements are passed over.
[[nodiscard]] std::vector<std::string> announce_costs(const RunSettings& session, std::span<const RunRequest> requests,
                                                      const ThreadsThatRun& threads, bool force);

//! Logs each announcement as a warning.
void warn_each(const std::vector<std::string>& announcements);

}  // namespace nqueens::shell
