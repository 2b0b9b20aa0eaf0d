#pragma once
// A test setting: NQUEENS_STOP_BEFORE_RENAME=K stops the process (SIGSTOP) just before the K-th
// file it writes whole is renamed into place, while FILE.partial exists. A test then signals the
// stopped process at exactly that moment (SIGKILL; or SIGTERM, then SIGCONT to deliver it), where
// a random delay might never land, and checks what the signal and the next run leave behind.
#include <string>

namespace nqueens::shell {

//! Reads NQUEENS_STOP_BEFORE_RENAME and, when set, installs the stop. Returns "" or, for a value
//! that is not a whole number from 1 up, the one-line refusal (bad input, exit 2).
std::string stop_before_rename_when_asked();

}  // namespace nqueens::shell
