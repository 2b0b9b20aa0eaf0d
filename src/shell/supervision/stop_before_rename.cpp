#include "shell/supervision/stop_before_rename.hpp"

#include <atomic>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "files/file_io.hpp"

namespace nqueens::shell {

namespace {

// The renames still to come before the one to stop at (1: the next).
std::atomic<unsigned> renames_to_stop_at{0};

void stop_at_the_chosen_rename(const std::filesystem::path& /*temporary*/) {
  if (renames_to_stop_at.fetch_sub(1) == 1) std::raise(SIGSTOP);
}

}  // namespace

std::string stop_before_rename_when_asked() {
  const char* text = std::getenv("NQUEENS_STOP_BEFORE_RENAME");
  if (text == nullptr || *text == '\0') return {};
  const char* end = text + std::strlen(text);
  unsigned rename = 0;
  const auto [stop, error] = std::from_chars(text, end, rename);
  if (error != std::errc{} || stop != end || rename == 0)
    return std::string("NQUEENS_STOP_BEFORE_RENAME is '") + text +
           "': the number of the rename to stop before, from 1 up (a test setting)";
  renames_to_stop_at = rename;
  detail::replace_before_rename(&stop_at_the_chosen_rename);
  return {};
}

}  // namespace nqueens::shell
