#include "files/file_io.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "text/echo.hpp"

namespace nqueens::detail {

namespace {

std::atomic<WriteCall> write_call{&::write};
std::atomic<BeforeRenameCall> before_rename_call{nullptr};

std::filesystem::path parent_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

}  // namespace

WriteCall replace_write_call(WriteCall call) { return write_call.exchange(call); }

BeforeRenameCall replace_before_rename(BeforeRenameCall call) { return before_rename_call.exchange(call); }

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
  return std::string(what) + " " + shown_path(path) + ": " + std::strerror(error);
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
    throw std::runtime_error("cannot create directory " + shown_path(path.parent_path()) + " for " + shown_path(path) +
                             ": " + error.message());
}

namespace {

namespace fs = std::filesystem;

// "a directory", "a character device": what a path names, for a refusal; "" for a regular file.
std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

bool same_inode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// The path with every symbolic link in it resolved as far as the file system allows, for
// comparing spellings of files that need not exist yet ("n16.json", "./n16.json", "d/../n16.json").
fs::path spelled(const fs::path& path) {
  std::error_code ignored;
  return fs::weakly_canonical(fs::absolute(path, ignored), ignored);
}

// Whether `path` and `input` are one file: the same inode when both exist, else the same path.
bool same_file(const fs::path& path, const fs::path& input) {
  struct stat a {
  }, b{};
  if (::stat(path.c_str(), &a) == 0 && ::stat(input.c_str(), &b) == 0) return same_inode(a, b);
  return spelled(path) == spelled(input);
}

// Follows `path` link by link to the file it names (which need not exist).
fs::path follow_links(const fs::path& path, const std::string& subject) {
  fs::path at = path;
  for (int hops = 0;; ++hops) {
    struct stat info {};
    if (::lstat(at.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return at;
    if (hops == 40) throw std::invalid_argument(subject + " is a loop of symbolic links");
    std::error_code error;
    const fs::path to = fs::read_symlink(at, error);
    if (error) throw std::runtime_error("cannot read the symbolic link " + shown_path(at) + ": " + error.message());
    at = to.is_absolute() ? to : at.parent_path() / to;
  }
}

}  // namespace

fs::path temporary_path(const fs::path& target) {
  fs::path temporary = target;
  temporary += ".partial";
  return temporary;
}

std::string use_of_locked_file(int fd, const fs::path& path) {
  // A journal's first bytes, written under its lock as soon as it is created. Not journal.hpp's
  // constant: the journal is built on this floor, not under it.
  constexpr std::string_view kJournalMagic = "nqueens-journal ";
  std::array<char, kJournalMagic.size()> head{};
  if (pread(fd, head.data(), head.size(), 0) == static_cast<ssize_t>(head.size()) &&
      std::string_view(head.data(), head.size()) == kJournalMagic)
    return "the journal of a count running in another nqueens process";
  const std::string name = path.filename().string();
  if (constexpr std::string_view kSuffix = ".partial"; name.size() > kSuffix.size() && name.ends_with(kSuffix))
    return "the temporary file of another nqueens process writing " +
           shown_path(path.parent_path() / name.substr(0, name.size() - kSuffix.size()));
  return "in use by another nqueens process";
}

namespace {

// The regular file at `path` opened for its lock only, never waited on (a FIFO that took the
// name). -1 when there is none (or none this process may open).
int open_for_lock(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Takes the lock of the file at `path` through a descriptor of its own and returns it, or -1
// when there is no file; "" in `use` then. Where another process holds it, returns -1 with `use`
// saying what it is to that process.
int lock_existing(const fs::path& path, std::string& use) {
  use.clear();
  const int fd = open_for_lock(path);
  if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
  if (errno == EWOULDBLOCK) use = use_of_locked_file(fd, path);
  ::close(fd);
  return -1;
}

}  // namespace

std::string locked_by_another(const fs::path& path) {
  std::string use;
  if (const int fd = lock_existing(path, use); fd >= 0) ::close(fd);  // closing lets the lock go
  return use;
}

std::string remove_stale_temporary(const fs::path& target) {
  const fs::path partial = temporary_path(target);
  std::error_code unknown;
  if (!fs::is_regular_file(fs::symlink_status(partial, unknown))) return {};
  if (!locked_by_another(partial).empty()) return {};
  if (::unlink(partial.c_str()) == 0)
    return "removed " + shown_path(partial) + ", left by an earlier run killed while it wrote it";
  return shown_path(partial) +
         " was left by an earlier run killed while it wrote it, and cannot be removed: " + std::strerror(errno);
}

namespace {

std::string subject_of(const WritePolicy& policy, const fs::path& path) {
  return (policy.option.empty() ? "" : policy.option + " ") + shown_path(path);
}

}  // namespace

fs::path WritePolicy::target(const fs::path& path) const {
  const std::string subject = subject_of(*this, path);
  fs::path target = follow_links(path, subject);
  const std::string named = target == path ? subject : subject + " (a link to " + shown_path(target) + ")";
  struct stat info {};
  if (::stat(target.c_str(), &info) == 0) {
    if (const std::string kind = kind_of(info.st_mode); !kind.empty())
      throw std::invalid_argument(named + " is " + kind + ": " + noun + " is written only to a regular file");
  }
  const fs::path temporary = temporary_path(target);
  for (const CommandInput& input : inputs)
    if (same_file(target, input.path) || same_file(temporary, input.path))
      throw std::invalid_argument(subject + " and " + input.label + " name the same file: give " + noun +
                                  " another name");
  if (::lstat(temporary.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
    throw std::invalid_argument(shown_path(temporary) + ", where " + named + " is written first, is " +
                                kind_of(info.st_mode) + ": remove it");
  return target;
}

namespace {

// The FILE.partial names held now, as C strings owned by their AtomicFile: what a signal
// handler may read (a lock-free atomic pointer) and remove (unlink is async-signal-safe).
std::array<std::atomic<const char*>, 16> held_temporaries{};
static_assert(std::atomic<const char*>::is_always_lock_free);

}  // namespace

void remove_held_temporaries() noexcept {
  for (std::atomic<const char*>& slot : held_temporaries)
    if (const char* name = slot.exchange(nullptr)) ::unlink(name);
}

void AtomicFile::hold_temporary(bool held) {
  const char* const name = temporary_.c_str();
  for (std::atomic<const char*>& slot : held_temporaries) {
    const char* expected = held ? nullptr : name;
    if (slot.compare_exchange_strong(expected, held ? name : nullptr)) return;
  }
}

AtomicFile::AtomicFile(const fs::path& path, const WritePolicy& policy)
    : target_(policy.target(path)),
      temporary_(temporary_path(target_)),
      subject_(subject_of(policy, path)),
      noun_(policy.noun),
      lock_target_(!policy.target_locked_by_caller) {
  // No O_TRUNC until the lock is ours: the file may be another live process's. O_NOFOLLOW and
  // O_NONBLOCK: whatever took the name since the check is neither followed nor waited on.
  const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0) throw std::runtime_error(io_error("cannot create", temporary_, errno));
  struct stat held {};
  if (fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) {
    ::close(fd);
    throw std::runtime_error("cannot create " + shown_path(temporary_) + ": it is not a regular file");
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error != EWOULDBLOCK) throw std::runtime_error(io_error("cannot lock", temporary_, error));
    throw FileInUse(shown_path(temporary_) + " is in use by another nqueens process writing " + shown_path(target_) +
                    ": nothing was written; give " + noun_ + " another name");
  }
  // Between another process's open and its flock, the file it opened may have been renamed into
  // place by the process that held it: the lock then sits on a finished file, not on FILE.partial.
  struct stat named {};
  if (::stat(temporary_.c_str(), &named) != 0 || !same_inode(held, named)) {
    ::close(fd);
    throw FileInUse(shown_path(target_) + " was being written by another nqueens process at the same time");
  }
  fd_ = fd;
  hold_temporary(true);
  hold_target();  // a refusal removes FILE.partial, ours while locked
  if (ftruncate(fd_, 0) != 0) fail("cannot truncate " + shown_path(temporary_), errno);  // what a killed run left
}

AtomicFile::~AtomicFile() { release(); }

// The file at the target's name is the one the rename will replace: locked here, it cannot
// become a journal or another write's FILE.partial meanwhile, and one that already is one is
// refused. Called again before the rename, for a file that took the name since.
void AtomicFile::hold_target() {
  if (!lock_target_) return;
  struct stat now {
  }, held{};
  if (::lstat(target_.c_str(), &now) != 0) return;  // nothing there yet: the rename creates it
  if (target_fd_ >= 0 && fstat(target_fd_, &held) == 0 && same_inode(now, held)) return;
  std::string use;
  const int fd = lock_existing(target_, use);
  if (!use.empty()) {
    release();
    throw FileInUse(subject_ + " is " + use + ": nothing was written; give " + noun_ + " another name");
  }
  if (target_fd_ >= 0) ::close(target_fd_);
  target_fd_ = fd;
}

void AtomicFile::release() {
  if (target_fd_ >= 0) ::close(target_fd_);
  target_fd_ = -1;
  if (fd_ < 0) return;
  hold_temporary(false);
  ::unlink(temporary_.c_str());  // ours while the lock is held
  ::close(fd_);
  fd_ = -1;
}

void AtomicFile::fail(const std::string& what, int error) { fail(what + ": " + std::strerror(error)); }

void AtomicFile::fail(const std::string& message) {
  release();
  throw std::runtime_error(message);
}

void AtomicFile::write(std::string_view bytes) {
  if (const int error = write_fully(fd_, bytes)) fail("cannot write " + shown_path(temporary_), error);
}

void AtomicFile::commit() {
  if (fsync(fd_) != 0) fail("cannot write " + shown_path(temporary_), errno);
  // What took the target's name while the file was being written is not renamed over either.
  if (struct stat now{}; ::lstat(target_.c_str(), &now) == 0 && !S_ISREG(now.st_mode))
    fail("cannot rename " + shown_path(temporary_) + " to " + shown_path(target_) + ": it is now " +
         kind_of(now.st_mode));
  hold_target();  // a journal started under the name since the start is not renamed over
  if (const BeforeRenameCall call = before_rename_call.load()) call(temporary_);
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0)
    fail("cannot rename " + shown_path(temporary_) + " to " + shown_path(target_), errno);
  hold_temporary(false);  // the name is the finished file's now
  ::close(fd_);           // after the rename: the locks cover both names until it is done
  fd_ = -1;
  if (target_fd_ >= 0) ::close(target_fd_);
  target_fd_ = -1;
  sync_directory(target_);  // the renamed entry survives a power cut too
}

void write_file_atomically(const fs::path& path, std::string_view bytes, const WritePolicy& policy) {
  AtomicFile file(path, policy);
  file.write(bytes);
  file.commit();
}

ReadFile::ReadFile(const fs::path& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) throw std::runtime_error(io_error("cannot read", path, errno));
  struct stat info {};
  if (fstat(fd_, &info) != 0) {
    const int error = errno;
    ::close(fd_);
    throw std::runtime_error(io_error("cannot read", path, error));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd_);
    throw std::invalid_argument(S_ISDIR(info.st_mode)
                                    ? shown_path(path) + " is a directory"
                                    : shown_path(path) + " is not a regular file (" + kind_of(info.st_mode) + ")");
  }
  size_ = static_cast<std::size_t>(info.st_size);
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

ReadFile::~ReadFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string not_regular_file(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return io_error("cannot read", path, errno);
  if (S_ISDIR(info.st_mode)) return shown_path(path) + " is a directory";
  if (!S_ISREG(info.st_mode)) return shown_path(path) + " is not a regular file (" + kind_of(info.st_mode) + ")";
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
