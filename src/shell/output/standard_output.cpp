#include "shell/output/standard_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nqueens::shell {

bool write_stdout(std::string_view text) {
  while (!text.empty()) {
    const ssize_t wrote = ::write(STDOUT_FILENO, text.data(), text.size());
    if (wrote >= 0) {
      text.remove_prefix(static_cast<std::size_t>(wrote));
    } else if (errno == EPIPE) {
      return false;
    } else if (errno != EINTR) {
      throw std::runtime_error(std::string("could not write to standard output: ") + std::strerror(errno));
    }
  }
  return true;
}

void print_stdout(std::string_view text) {
  if (!write_stdout(text)) throw ReaderGone();
}

}  // namespace nqueens::shell
