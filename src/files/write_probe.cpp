#include "files/write_probe.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>

#include "files/file_io.hpp"

namespace nqueens::detail {

namespace {

namespace fs = std::filesystem;

// errno of creating `path` afresh (0: it could be), the new file removed again. It is locked
// before it is removed: a process that opened it meanwhile, taking it for its own FILE.partial,
// finds it held and is refused rather than left writing a file that no longer has a name.
int create_and_remove(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return errno == EEXIST ? 0 : errno;
  flock(fd, LOCK_EX | LOCK_NB);
  ::unlink(path.c_str());
  ::close(fd);
  return 0;
}

// errno of making a directory in `directory` (0: it could be), removed again.
int make_directory_in(const fs::path& directory) {
  std::string name = (directory / ".nqueens-probe-XXXXXX").string();
  if (::mkdtemp(name.data()) == nullptr) return errno;
  ::rmdir(name.c_str());
  return 0;
}

// The nearest directory above `path` that exists ("." for a bare name).
fs::path nearest_existing(fs::path directory) {
  std::error_code unknown;
  while (!directory.empty() && !fs::exists(directory, unknown)) directory = directory.parent_path();
  return directory.empty() ? fs::path(".") : directory;
}

}  // namespace

std::string write_refusal(const fs::path& path, std::string_view what, bool with_temporary) {
  const std::string cannot = "cannot write to " + std::string(what);
  std::error_code unknown;
  if (fs::exists(path, unknown)) {
    if (!fs::is_regular_file(path, unknown)) return {};  // refused as what it is, by its reader
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return io_error(cannot, path, errno);
    ::close(fd);
  }
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(directory, unknown)) {
    const fs::path above = nearest_existing(directory);
    if (!fs::is_directory(above, unknown)) return {};  // a file in the way: creating the folder says so
    if (const int error = make_directory_in(above)) return io_error(cannot, path, error);
    return {};
  }
  if (!fs::exists(path, unknown))
    if (const int error = create_and_remove(path)) return io_error(cannot, path, error);
  if (with_temporary)
    if (const int error = create_and_remove(temporary_path(path))) return io_error(cannot, path, error);
  return {};
}

}  // namespace nqueens::detail
