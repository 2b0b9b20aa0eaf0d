#pragma once
// Which threads receive the signals that stop a count (SIGINT, SIGTERM, SIGHUP). The kernel gives
// a signal sent to the process to any thread that does not block it; a worker asleep in the
// thread library may then be the one, and a thread sanitizer runs the handler only when that
// thread wakes: a stop sent just before a count's last unit was seen after its end. The run's
// workers block them, so the thread that watches the count is the one that hears them.
namespace nqueens::detail {

//! Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, for the rest of its life.
void leave_stop_signals_to_others();

}  // namespace nqueens::detail
