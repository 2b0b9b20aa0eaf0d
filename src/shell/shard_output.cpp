#include "shard_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <spdlog/spdlog.h>

#include "files/file_io.hpp"
#include "nqueens/unit_ranges.hpp"
#include "standard_output.hpp"

namespace nqueens::shell {

namespace {

// Between another run's open and its flock, the file it opened may have been renamed into place
// by the run that held it: the lock then sits on a finished shard file, not on FILE.partial.
bool still_named(int fd, const std::string& path) {
  struct stat held = {}, named = {};
  return fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

}  // namespace

ShardOutput::ShardOutput(std::string path) : path_(std::move(path)), temporary_(path_ + ".partial") {
  if (path_.empty()) return;
  struct stat existing = {};
  if (::stat(path_.c_str(), &existing) == 0 && S_ISDIR(existing.st_mode))
    throw std::runtime_error("cannot write the shard file " + path_ + ": it is a directory");
  // No O_TRUNC: until the lock is ours the file may be another run's.
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create");
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    if (error != EWOULDBLOCK) fail("cannot lock");
    throw std::runtime_error(temporary_ + " is in use by another nqueens process writing " + path_ +
                             " (give each shard its own --output)");
  }
  if (!still_named(fd, temporary_)) {
    ::close(fd);
    throw std::runtime_error(path_ + " was being written by another nqueens process at the same time");
  }
  fd_ = fd;
  if (ftruncate(fd_, 0) != 0) {  // what a killed run left
    const int error = errno;
    release();
    errno = error;
    fail("cannot truncate");
  }
}

ShardOutput::~ShardOutput() { release(); }

void ShardOutput::release() {
  if (fd_ < 0) return;
  ::unlink(temporary_.c_str());  // ours while the lock is held
  ::close(fd_);
  fd_ = -1;
}

void ShardOutput::fail(const char* what) const {
  throw std::runtime_error(std::string(what) + " " + temporary_ + ": " + std::strerror(errno));
}

void ShardOutput::write(const RunOutcome& session, ShardSpec shard) {
  ShardFile file;
  file.header = session.header;
  file.shard = shard;
  file.threads = session.result.threads;
  file.seconds = session.result.seconds;
  file.units = session.units;
  if (shard.count == 0) {  // count --units: the ids asked for, as merge and check list them
    std::vector<std::size_t> ids;
    for (const UnitCount& unit : file.units) ids.push_back(unit.id);
    file.unit_list = format_id_ranges(ids);
  }
  const std::string text = shard_json(file);
  if (path_.empty()) {
    print_stdout(text);
  } else {
    for (std::size_t written = 0; written < text.size();) {
      const ssize_t wrote = ::write(fd_, text.data() + written, text.size() - written);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote < 0) fail("cannot write");
      written += static_cast<std::size_t>(wrote);
    }
    if (fsync(fd_) != 0) fail("cannot write");
    if (std::rename(temporary_.c_str(), path_.c_str()) != 0) fail("cannot rename");
    ::close(fd_);  // after the rename: the lock covers FILE.partial until it is gone
    fd_ = -1;
    detail::sync_directory(path_);  // the renamed entry survives a power cut too
  }
  spdlog::info("N={}: {} ({} of {} units) written to {}", session.header.n,
               shard.count == 0 ? "units " + file.unit_list : fmt::format("shard {}/{}", shard.index, shard.count),
               file.units.size(), session.header.unit_count, path_.empty() ? "stdout" : path_);
}

}  // namespace nqueens::shell
