#include "shell/supervision/signals.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <mutex>
#include <vector>

#include "files/file_io.hpp"
#include "system/stop_signals.hpp"

namespace nqueens::shell {

namespace {

// A lock-free atomic is one of the few things a signal handler may touch.
std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt(int signal) { received.store(signal, std::memory_order_relaxed); }

// Installed with SA_RESETHAND: raising the signal again ends the process as it would have.
extern "C" void on_fatal_signal(int signal) {
  nqueens::detail::remove_held_temporaries();
  std::raise(signal);
}

std::mutex leftovers_lock;
std::vector<std::filesystem::path> leftovers;  //!< guarded by leftovers_lock

}  // namespace

void remove_on_interrupt(const std::filesystem::path& path) {
  const std::lock_guard<std::mutex> guard(leftovers_lock);
  leftovers.push_back(path);
}

void forget_on_interrupt(const std::filesystem::path& path) {
  const std::lock_guard<std::mutex> guard(leftovers_lock);
  leftovers.erase(std::remove(leftovers.begin(), leftovers.end(), path), leftovers.end());
}

void remove_temporaries_on_signal() {
  nqueens::detail::hear_stop_signals_on_main_thread();  // a run's threads are started with them blocked
  struct sigaction action = {};
  action.sa_handler = on_fatal_signal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

void remove_interrupt_leftovers() {
  nqueens::detail::remove_held_temporaries();
  const std::lock_guard<std::mutex> guard(leftovers_lock);
  for (const std::filesystem::path& path : leftovers) ::unlink(path.c_str());
  leftovers.clear();
}

void catch_interrupts() {
  struct sigaction action = {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESETHAND: one-shot, so a second signal is not swallowed by a process that is already
  // winding down. SA_RESTART: a write(2) in flight is resumed rather than failed with EINTR.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return received.load(std::memory_order_relaxed); }

std::string_view signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

}  // namespace nqueens::shell
