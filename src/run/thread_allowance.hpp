#pragma once
// TBB caps every arena at the hardware thread count unless told otherwise. Asking for more
// threads than cores is legitimate (tests do it, and so may a user on a shared node), so a run
// that asks for more lifts the cap for its own duration, and only then. This is the one place
// the project makes a tbb::global_control: the scheduler, solve, engine setup and an MPI rank's
// arena all take their allowance from here.
#include <cstddef>
#include <optional>

#include <oneapi/tbb/global_control.h>

#include "nqueens/count.hpp"

namespace nqueens::detail {

class ThreadAllowance {
 public:
  //! Lets TBB run `threads` threads in all, the calling thread included, while this lives.
  explicit ThreadAllowance(int threads) {
    if (threads > hardware_threads())
      control_.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  }

 private:
  std::optional<tbb::global_control> control_;
};

}  // namespace nqueens::detail
