#pragma once
// Which threads receive the signals that stop a count (SIGINT, SIGTERM, SIGHUP). The kernel gives
// a signal sent to the process to any thread that does not block it; under a thread sanitizer,
// which runs a handler at the thread's next intercepted call, a thread that was about to end (the
// setup's watcher) took it away unseen, and a count stopped before its last unit ended 0. Every
// thread but the main one blocks them: the main thread hears them and sets the flag the others read.
namespace nqueens::detail {

//! Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, for the rest of its life.
void leave_stop_signals_to_others();

}  // namespace nqueens::detail
