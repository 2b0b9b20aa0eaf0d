#include "run/threads_that_run.hpp"

#include <algorithm>
#include <string>

#include "nqueens/options.hpp"

namespace nqueens {

std::string ThreadsThatRun::note() const {
  if (running >= asked) return {};
  return "; " + std::to_string(asked) + " threads were asked for, but this machine runs at most " +
         std::to_string(running) + " of them at once";
}

ThreadsThatRun threads_that_run(int per_process, int processes) {
  const int each = std::max(1, std::min(per_process, hardware_threads()));
  return {per_process * processes, each * processes};
}

}  // namespace nqueens
