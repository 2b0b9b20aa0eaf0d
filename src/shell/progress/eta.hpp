#pragma once
// The ETA a count's progress shows. The raw one extrapolates this process's pace over the share
// of its work done, weighed by the engine's cost model; it swings while few units are done (a
// costly unit finishing, a cost the model misjudged). Shown as it is, it jumps from minutes to
// hours and back. So no ETA is shown for the first seconds, and then the finish time it implies
// is smoothed exponentially over a window that widens with the run (a tenth of the time
// elapsed, at least kLeastWindowSeconds): a moment's burst moves it little, a lasting change of
// pace moves it within that window.
#include <optional>

namespace nqueens::shell {

class EtaSmoother {
 public:
  //! No ETA before this much of the run has passed: the first units say little of the pace.
  static constexpr double kFirstEtaSeconds = 3;
  static constexpr double kLeastWindowSeconds = 10;

  //! The seconds left, after `elapsed_seconds` in which `done_share` (0..1) of this process's
  //! work was done; nullopt while too early or nothing is done. Call with growing times.
  std::optional<double> update(double elapsed_seconds, double done_share);

 private:
  std::optional<double> finish_;  //!< the smoothed finish time, seconds from the start
  double last_elapsed_ = 0;
};

}  // namespace nqueens::shell
