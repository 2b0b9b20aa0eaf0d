#include "shell/output/console.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <mutex>

#include <fmt/core.h>

namespace nqueens::shell {

namespace {

// One lock for the one stderr: held for a whole line, never while waiting on anything else.
std::mutex& console_lock() {
  static std::mutex lock;
  return lock;
}

// Erases the current terminal line: back to its start, then clear to its end.
constexpr std::string_view kEraseLine = "\r\x1b[K";

}  // namespace

Console& Console::err() {
  static Console console(STDERR_FILENO);
  return console;
}

Console::Console(int fd) : fd_(fd), terminal_(isatty(fd) == 1) {}

int Console::width() const {
  if (!terminal_) return 0;
  winsize size{};
  if (ioctl(fd_, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

void Console::line(std::string_view line, Stamp stamp) noexcept {
  try {
    std::string text;
    if (stamp == Stamp::when_batch && !terminal_) text = timestamp();
    text.append(line);
    text.push_back('\n');
    const std::lock_guard<std::mutex> guard(console_lock());
    if (drawn_) {
      text.insert(0, kEraseLine);
      drawn_ = false;
    }
    write_locked(text);
  } catch (...) {  // out of memory while formatting a log line: the count matters more than the line
  }
}

void Console::status(std::string_view status) noexcept {
  try {
    std::string text(kEraseLine.substr(0, 1));
    text.append(status);
    text.append(kEraseLine.substr(1));  // clear what a longer line left behind
    const std::lock_guard<std::mutex> guard(console_lock());
    write_locked(text);
    drawn_ = true;
  } catch (...) {
  }
}

void Console::clear_status() noexcept {
  const std::lock_guard<std::mutex> guard(console_lock());
  if (!drawn_) return;
  write_locked(kEraseLine);
  drawn_ = false;
}

bool Console::broken() const noexcept {
  const std::lock_guard<std::mutex> guard(console_lock());
  return broken_;
}

// write(2), not stdio: no buffer to flush, no sticky error flag, and a short write is finished
// here. The first failure (EPIPE, ENOSPC, EIO...) ends all writing: retrying every line would
// only fail again, and nothing on stderr is worth more than the count it describes.
void Console::write_locked(std::string_view bytes) noexcept {
  while (!broken_ && !bytes.empty()) {
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      broken_ = true;
      return;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

std::string Console::timestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z ", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

}  // namespace nqueens::shell
