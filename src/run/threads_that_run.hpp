#pragma once
// The threads a run will really have at once, for pricing it. More may be asked for (tests do,
// and so may a user on a shared node), but the machine runs at most its hardware threads, or the
// CPUs this process is bound to, at once: a cost priced on 4096 threads on a 2-core machine hid
// a run of years behind a warning of days.
#include <string>

namespace nqueens {

//! The threads in all: `per_process` (resolved, not 0) on each of `processes` processes, each
//! process running at most as many at once as it has hardware threads (its CPU affinity).
struct ThreadsThatRun {
  int asked = 1;    //!< what the command asked for, in all
  int running = 1;  //!< what runs at once, in all: what a run's wall time is priced on
  //! "" when all that were asked for run; else "; 4096 threads were asked for, but this machine runs
  //! at most 2 of them at once".
  std::string note() const;
};
ThreadsThatRun threads_that_run(int per_process, int processes = 1);

}  // namespace nqueens
