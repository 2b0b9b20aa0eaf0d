#include "system/stop_signals.hpp"

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <initializer_list>

namespace nqueens::detail {

namespace {

sigset_t stop_signals() {
  sigset_t stops;
  sigemptyset(&stops);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, signal);
  return stops;
}

std::atomic<bool> heard_on_main_thread{false};

}  // namespace

void leave_stop_signals_to_others() {
  const sigset_t stops = stop_signals();
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
}

StopSignalsBlocked::StopSignalsBlocked() {
  const sigset_t stops = stop_signals();
  pthread_sigmask(SIG_BLOCK, &stops, &before_);
}

StopSignalsBlocked::~StopSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &before_, nullptr); }

void hear_stop_signals_on_main_thread() { heard_on_main_thread.store(true); }

bool stop_signals_heard_on_main_thread() { return heard_on_main_thread.load(); }

}  // namespace nqueens::detail
