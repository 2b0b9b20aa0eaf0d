#include "shell/supervision/stop_before_rename.hpp"

#include <atomic>
#include <csignal>
#include <cstddef>
#include <filesystem>
#include <stdexcept>

#include "files/file_io.hpp"
#include "shell/supervision/test_setting.hpp"

namespace nqueens::shell {

namespace {

// The renames still to come before the one to stop at (1: the next).
std::atomic<std::size_t> renames_to_stop_at{0};

void stop_at_the_chosen_rename(const std::filesystem::path& /*temporary*/) {
  if (renames_to_stop_at.fetch_sub(1) == 1) std::raise(SIGSTOP);
}

}  // namespace

std::string stop_before_rename_when_asked() {
  std::size_t rename = 0;
  try {
    rename = test_setting("NQUEENS_STOP_BEFORE_RENAME", "the number of the rename to stop before, from 1 up");
  } catch (const std::invalid_argument& refused) {
    return refused.what();
  }
  if (rename == 0) return {};
  renames_to_stop_at = rename;
  detail::replace_before_rename(&stop_at_the_chosen_rename);
  return {};
}

}  // namespace nqueens::shell
