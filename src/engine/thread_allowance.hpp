#pragma once
// TBB caps every arena at the hardware thread count unless told otherwise. Asking for more
// threads than cores is legitimate (tests do it, and so may a user on a shared node), so a run
// that asks for more lifts the cap for its own duration, and only then. This is the one place
// the project makes a tbb::global_control: the scheduler, solve, engine setup and an MPI rank's
// arena all take their allowance from here.
//
// It is also where a thread count the system cannot give is refused. TBB starts its workers on
// threads of its own, where a failed pthread_create ends the process (std::terminate); so the
// allowance first starts that many threads itself, with TBB's stack size, all alive at once,
// and throws ThreadsUnavailable if the system refuses one. A count once proven is not tried again.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>

#include <oneapi/tbb/global_control.h>

#include "nqueens/options.hpp"

namespace nqueens::detail {

//! The system would not start the threads a run asked for (memory for their stacks, a process
//! limit): a runtime failure, with how many it did start.
struct ThreadsUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! Starts `threads - 1` threads (the caller is the last), all alive at once, then ends them.
//! Throws ThreadsUnavailable when the system refuses one; `beside` of the `threads` are not the
//! count's (an MPI rank's own thread), so that fewer --threads it advises leave them out.
void prove_threads(int threads, int beside = 0);

//! What threads take of the address space (`ulimit -v` counts it), measured in this process
//! once, the first time it is asked: `per_thread`, what starting one thread of oneTBB's stack
//! size maps (its stack, guard page and thread-local storage); `library`, what starting oneTBB
//! maps (an arena of one thread initialized). Where the system does not say, or a start fails,
//! the stack size and a 64 KiB margin, and 8 MiB.
struct ThreadRoom {
  std::uint64_t per_thread = 0, library = 0;
};
ThreadRoom measured_thread_room();

//! The limit, in KiB, that holds the program and `threads` threads where memory ran out before
//! it could measure itself (before main(), or while its options were parsed, under a limit that
//! holds little more than the program): the limit as what the program maps, and beside it what it
//! maps under a limit that holds it and not yet there (the stack of the first thread it starts,
//! oneTBB's start), and the threads' room reckoned from the stack size; a MiB to spare. 0 without a
//! limit. Allocates nothing: the heap has just failed.
std::uint64_t limit_kib_before_measuring(int threads);

//! The most threads proven in this process so far (at least 1): the threads a run started.
int proven_threads();

class ThreadAllowance {
 public:
  //! Lets TBB run `threads` threads in all, the calling thread included, while this lives;
  //! `beside` of them are not the count's (prove_threads).
  explicit ThreadAllowance(int threads, int beside = 0) {
    prove_threads(threads, beside);
    if (threads > hardware_threads())
      control_.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  }

 private:
  std::optional<tbb::global_control> control_;
};

}  // namespace nqueens::detail
