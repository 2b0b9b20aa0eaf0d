#pragma once
// Results on standard output, written one way by every command: with write(2), so that a failed
// write surfaces at the call that made it (stdio would hide it until a later flush) and the
// command can stop at once. main() ignores SIGPIPE, so a reader that has gone away (`| head`)
// shows up as EPIPE: the reader has seen what it wanted, and the program ends quietly with exit
// 0. Any other failure (a full disk) is a runtime error that names its reason (exit 3).
#include <stdexcept>
#include <string_view>

namespace nqueens::shell {

//! Thrown by print_stdout when the reader of standard output has gone. Each program's main()
//! ends quietly with exit 0 on it; nothing more is written or counted.
struct ReaderGone : std::runtime_error {
  ReaderGone() : std::runtime_error("standard output was closed by its reader") {}
};

//! Writes all of `text` to standard output, retrying short writes and EINTR. Returns false when
//! the reader has gone (EPIPE); throws std::runtime_error with the reason on any other failure.
bool write_stdout(std::string_view text);

//! write_stdout for output that stops the command when it cannot arrive: throws ReaderGone when
//! the reader has gone.
void print_stdout(std::string_view text);

}  // namespace nqueens::shell
