#include "files/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace nqueens::detail {

namespace {

std::atomic<WriteCall> write_call{&::write};

std::filesystem::path parent_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

}  // namespace

WriteCall replace_write_call(WriteCall call) { return write_call.exchange(call); }

int write_fully(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = write_call.load()(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) return errno;
    if (wrote == 0) return ENOSPC;  // a write that makes no progress never will
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return 0;
}

std::string io_error(std::string_view what, const std::filesystem::path& path, int error) {
  return std::string(what) + " " + path.string() + ": " + std::strerror(error);
}

void sync_directory(const std::filesystem::path& path) {
  const int fd = ::open(parent_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  fsync(fd);
  ::close(fd);
}

void create_parent_directory(const std::filesystem::path& path) {
  if (!path.has_parent_path()) return;
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error)
    throw std::runtime_error("cannot create directory " + path.parent_path().string() + " for " + path.string() + ": " +
                             error.message());
}

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)), temporary_(path_) {
  temporary_ += ".partial";
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(io_error("cannot create", temporary_, errno));
}

AtomicFile::~AtomicFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(temporary_.c_str());
}

void AtomicFile::fail(const char* what, int error) {
  ::close(fd_);
  fd_ = -1;
  ::unlink(temporary_.c_str());
  throw std::runtime_error(io_error(what, path_, error));
}

void AtomicFile::write(std::string_view bytes) {
  if (const int error = write_fully(fd_, bytes)) fail("cannot write", error);
}

void AtomicFile::commit() {
  if (fsync(fd_) != 0) fail("cannot write", errno);
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0 || std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary_.c_str());
    throw std::runtime_error(io_error("cannot write", path_, error));
  }
  sync_directory(path_);
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

std::string not_regular_file(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return io_error("cannot read", path, errno);
  if (S_ISDIR(info.st_mode)) return path.string() + " is a directory";
  if (!S_ISREG(info.st_mode)) return path.string() + " is not a regular file (a device, a pipe or a socket)";
  return {};
}

std::string read_from(int fd, const std::filesystem::path& path, std::size_t offset, std::size_t max_bytes) {
  std::string bytes;
  char buffer[1 << 16];
  while (bytes.size() < max_bytes) {
    const std::size_t want = std::min(sizeof buffer, max_bytes - bytes.size());
    const ssize_t got = pread(fd, buffer, want, static_cast<off_t>(offset + bytes.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(io_error("cannot read", path, errno));
    if (got == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  return bytes;
}

}  // namespace nqueens::detail
