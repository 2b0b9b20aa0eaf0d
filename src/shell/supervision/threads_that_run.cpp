#include "shell/supervision/threads_that_run.hpp"

#include <algorithm>

#include <fmt/core.h>

#include "nqueens/options.hpp"

namespace nqueens::shell {

std::string ThreadsThatRun::note() const {
  if (running >= asked) return {};
  return fmt::format("; {} threads were asked for, but this machine runs at most {} of them at once", asked, running);
}

ThreadsThatRun threads_that_run(int per_process, int processes) {
  const int each = std::max(1, std::min(per_process, hardware_threads()));
  return {per_process * processes, each * processes};
}

}  // namespace nqueens::shell
