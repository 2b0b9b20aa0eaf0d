#pragma once
// SIGINT and SIGTERM during a count. The first one only sets a flag, which the running count
// polls to stop handing out units and save what finished; the handler is one-shot, so a second
// Ctrl-C ends the process at once the default way.
#include <string_view>

namespace nqueens::shell {

//! Installs the handlers. Call once, before counting starts.
void catch_interrupts();

//! The signal received since catch_interrupts(), or 0.
int interrupt_signal();

//! "SIGINT" or "SIGTERM" (anything else: "a signal").
std::string_view signal_name(int signal);

//! The shell's exit code for a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
constexpr int interrupted_exit_code(int signal) { return 128 + signal; }

}  // namespace nqueens::shell
