#pragma once
// SIGINT and SIGTERM during a count. The first one only sets a flag, which the running count
// polls to stop handing out units and save what finished; the handler is one-shot, so a second
// Ctrl-C ends the process at once the default way.
#include <filesystem>
#include <string_view>

namespace nqueens::shell {

//! Installs the handlers. Call once, before counting starts.
void catch_interrupts();

//! The signal received since catch_interrupts(), or 0.
int interrupt_signal();

//! "SIGINT" or "SIGTERM" (anything else: "a signal").
std::string_view signal_name(int signal);

//! A file this process made and holds for a write still to come (a shard file's FILE.partial),
//! which an interrupt must not leave behind: it ends the process at once (std::_Exit, no
//! destructors). Held until forget_on_interrupt(), once the file is renamed away.
void remove_on_interrupt(const std::filesystem::path& path);
void forget_on_interrupt(const std::filesystem::path& path);

//! Removes those files: called by an interrupted process just before it ends.
void remove_interrupt_leftovers();

//! For a command that does not poll for interrupts (merge, check --repair), and until a count
//! installs its own: SIGINT, SIGTERM and SIGHUP remove the temporary files the process holds
//! (detail::remove_held_temporaries) and then end it the default way, so that no FILE.partial
//! survives them. Call once, first thing: from then on a run's threads are started with these
//! signals blocked (system/stop_signals.hpp), so that the main thread hears them.
void remove_temporaries_on_signal();

//! The shell's exit code for a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
constexpr int interrupted_exit_code(int signal) { return 128 + signal; }

}  // namespace nqueens::shell
