#pragma once
// The one writer to stderr. Log lines, progress and messages all pass through here, so that:
// - a failed write never takes a count down: the first failure marks stderr unusable and every
//   later write is dropped (a closed pipe or a full disk on stderr must not cost the result);
// - a status line drawn in place on a terminal is erased before any other line is written (the
//   next progress tick draws it again), so the two never run into each other;
// - log and progress lines carry a UTC timestamp when stderr is not a terminal (batch logs).
// Writes are whole lines under one lock: lines from different threads never interleave.
#include <string>
#include <string_view>

namespace nqueens::shell {

//! Whether a line is a log or progress line (timestamped in batch logs) or a message that
//! scripts match as it is ("nqueens: error: ...", the interrupt notice).
enum class Stamp { no, when_batch };

class Console {
 public:
  //! The process's console on stderr (file descriptor 2).
  static Console& err();

  //! Whether stderr is a terminal (decided once, at the first use).
  bool terminal() const { return terminal_; }

  //! The terminal's width in columns, asked at each call (so it follows resizes); 0 when stderr
  //! is not a terminal or does not say.
  int width() const;

  //! Writes `line` and a newline, after erasing a status line if one is drawn.
  void line(std::string_view line, Stamp stamp = Stamp::no) noexcept;

  //! Draws `status` in place of the previous one (terminals only; the caller fits the width).
  void status(std::string_view status) noexcept;

  //! Erases the status line, if one is drawn.
  void clear_status() noexcept;

  //! True once a write has failed: nothing more is written.
  bool broken() const noexcept;

  //! "2025-01-31T12:34:56.789Z ": the prefix of stamped lines in batch logs.
  static std::string timestamp();

 private:
  explicit Console(int fd);
  void write_locked(std::string_view bytes) noexcept;

  int fd_;
  bool terminal_;
  bool drawn_ = false;   //!< a status line is on screen; guarded by the lock in the .cpp
  bool broken_ = false;  //!< guarded likewise
};

}  // namespace nqueens::shell
