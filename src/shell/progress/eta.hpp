#pragma once
// The ETA a count's progress shows. The raw one extrapolates this process's pace over the share
// of its work done, weighed by the engine's cost model, on the clock of its threads' CPU time
// (thread_clock_seconds): on a machine that other jobs load, the wall clock runs ahead of the work
// (N = 26 on 2 threads got 1/14 of a core each, and a wall-clock ETA read 17 times the run that
// the warning and `plan` price on cores of its own). The raw ETA swings while few units are done (a
// costly unit finishing, a cost the model misjudged). Shown as it is, it jumps from minutes to
// hours and back. So no ETA is shown for the first seconds, and then the finish time it implies
// is smoothed exponentially over a window that widens with the run (a tenth of the time
// elapsed, at least kLeastWindowSeconds): a moment's burst moves it little, a lasting change of
// pace moves it within that window.
#include <optional>

namespace nqueens::shell {

//! The clock the ETA runs on: the count's threads' CPU time per thread, `cpu_seconds` of the
//! process over `threads`, which other jobs on the cores do not lengthen; never past the wall
//! clock, `wall_seconds` (the process's other threads, watching and writing, add a little).
double thread_clock_seconds(double wall_seconds, double cpu_seconds, int threads);

//! Where the thread clock over the wall clock (the share of a core each counting thread got) is
//! below this, the progress says what the threads got: the ETA is for cores of their own, and
//! the wall time stretches by the share's inverse.
inline constexpr double kLowCoreShare = 0.75;

class EtaSmoother {
 public:
  //! No ETA before this much of the run has passed: the first units say little of the pace.
  static constexpr double kFirstEtaSeconds = 3;
  static constexpr double kLeastWindowSeconds = 10;

  //! The seconds left, after `elapsed_seconds` (of the thread clock) in which `done_share` (0..1)
  //! of this process's work was done; nullopt while too early or nothing is done. Call with
  //! growing times.
  std::optional<double> update(double elapsed_seconds, double done_share);

 private:
  std::optional<double> finish_;  //!< the smoothed finish time, seconds from the start
  double last_elapsed_ = 0;
};

}  // namespace nqueens::shell
