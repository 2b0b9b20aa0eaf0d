#include "system/stop_signals.hpp"

#include <pthread.h>

#include <csignal>
#include <initializer_list>

namespace nqueens::detail {

void leave_stop_signals_to_others() {
  sigset_t stops;
  sigemptyset(&stops);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, signal);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
}

}  // namespace nqueens::detail
