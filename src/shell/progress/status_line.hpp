#pragma once
// The text of a count's progress: a status line fitted to a terminal's width, or a log line.
// Pure functions of a snapshot, so that every width can be tested without a terminal.
#include <cstddef>
#include <optional>
#include <string>

namespace nqueens::shell {

//! Where a count stands, as Progress measures it.
struct ProgressSnapshot {
  int n = 0;
  std::string part;                   //!< "shard 2/4", "units @s24.ids": a part of the run, named; empty for all
  std::size_t units_done = 0;         //!< before this process and since
  std::size_t units_total = 0;        //!< of this run (a shard's, or all)
  double work_share = 0;              //!< done fraction of the estimated work, 0..1
  double elapsed_seconds = 0;         //!< in this process
  std::optional<double> eta_seconds;  //!< on cores of the threads' own (eta.hpp)
  //! What each counting thread got of a core, where it is low (kLowCoreShare): the wall time
  //! left is the ETA over it.
  std::optional<double> core_share;
  double solutions_per_second = 0;
};

//! Where a run's setup stands (the engine's unit list, its cost model, its tables).
struct SetupSnapshot {
  int n = 0;
  std::string phase;  //!< "estimating unit costs", as the engine names it (setup_stop.hpp)
  double elapsed_seconds = 0;
  std::string part;  //!< as ProgressSnapshot's
};

//! "N=17 [########----------]  41.3%  2345/5678 units  0:00:12 elapsed  ETA 0:00:17  81.0M sol/s",
//! (with "N=17 shard 2/4" for a shard), its numbers padded to fixed widths so that nothing moves between redraws,
//! at most `width - 3` characters: a line that reaches the last column makes the terminal wrap,
//! and so does the "^C" it echoes after the line when Ctrl-C is typed; a wrapped line can not
//! be redrawn or erased in place. As the
//! width shrinks the bar shortens (to 10), then fields give way: elapsed time first, then the
//! threads' share of a core ("7% of a core", only where it is low), units, rate, the bar, the ETA; N and the percentage
//! stay, cut short only below 12 columns.
std::string fit_status(const ProgressSnapshot& snapshot, int width);

//! "setting up N=27: estimating unit costs  0:00:12 elapsed", within `width - 3` columns as
//! fit_status's line, the elapsed time left out first, then the phase cut short.
std::string fit_setup_status(const SetupSnapshot& snapshot, int width);

//! "N=27: setting up: estimating unit costs, 0:00:12 elapsed", for log lines.
std::string log_setup_status(const SetupSnapshot& snapshot);

//! "N=17: 2345/5678 units, ~41.3% of work, 0:00:12 elapsed, ETA 0:00:17, 81.0M sol/s": every
//! field, for log lines; where the threads got little of their cores, the ETA says so:
//! "ETA 0:00:17 on whole cores (the threads got 7% of one)".
std::string log_status(const ProgressSnapshot& snapshot);

//! "1:02:03" (hours unbounded).
std::string clock_text(double seconds);

}  // namespace nqueens::shell
