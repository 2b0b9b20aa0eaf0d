#pragma once
// Which threads receive the signals that stop a count (SIGINT, SIGTERM, SIGHUP). The kernel gives
// a signal sent to the process to any thread that does not block it; under a thread sanitizer,
// which runs a handler at the thread's next intercepted call, a thread that was about to end (the
// setup's watcher) took it away unseen, and a count stopped before its last unit ended 0. In a
// program every thread but the main one blocks them: the main thread hears them and sets the flag
// the others read.
#include <signal.h>

namespace nqueens::detail {

//! Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, for the rest of its life.
void leave_stop_signals_to_others();

//! Blocks them in the calling thread while it lives, and gives it back its mask after: the threads
//! it starts meanwhile take the mask with them (RunArena starts its workers so).
class StopSignalsBlocked {
 public:
  StopSignalsBlocked();
  ~StopSignalsBlocked();
  StopSignalsBlocked(const StopSignalsBlocked&) = delete;
  StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;

 private:
  sigset_t before_;
};

//! Says that this process hears the stop signals on its main thread (a program that handles
//! them: shell/supervision/signals.hpp). Only then does a RunArena start its workers with them
//! blocked; a library caller's threads keep the mask its program gave them.
void hear_stop_signals_on_main_thread();
bool stop_signals_heard_on_main_thread();

}  // namespace nqueens::detail
