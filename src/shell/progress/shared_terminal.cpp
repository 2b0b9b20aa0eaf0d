#include "shell/progress/shared_terminal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>

namespace nqueens::shell {

namespace {

// The terminal's device opened once, its mark taken: -1 when stderr is no terminal or the mark
// cannot be taken. Kept open to the end: a record lock goes with the process's last descriptor
// of the file.
int marked_terminal() {
  static const int fd = [] {
    std::array<char, 256> name{};
    if (ttyname_r(STDERR_FILENO, name.data(), name.size()) != 0) return -1;
    const int opened = ::open(name.data(), O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (opened < 0) return -1;
    // A read lock on the byte at this process's id: no two live processes share one.
    struct flock mark {};
    mark.l_type = F_RDLCK;
    mark.l_whence = SEEK_SET;
    mark.l_start = getpid();
    mark.l_len = 1;
    if (fcntl(opened, F_SETLK, &mark) != 0) {
      ::close(opened);
      return -1;
    }
    return opened;
  }();
  return fd;
}

}  // namespace

bool terminal_shared_with_another_status() {
  const int fd = marked_terminal();
  if (fd < 0) return false;
  // A write lock over the whole device conflicts with any other process's mark, never with ours.
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  probe.l_start = 0;
  probe.l_len = 0;
  return fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
}

}  // namespace nqueens::shell
