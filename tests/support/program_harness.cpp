#include "support/program_harness.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

extern char** environ;

namespace harness {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void fail(const std::string& what, int error) {
  throw std::runtime_error(what + ": " + std::strerror(error));
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// posix_spawn's list of what the child does between fork and exec, released however we leave.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;

  void open(int fd, const fs::path& path, int flags) {
    posix_spawn_file_actions_addopen(&actions_, fd, path.c_str(), flags, 0644);
  }
  void dup(int from, int to) { posix_spawn_file_actions_adddup2(&actions_, from, to); }
  void chdir(const fs::path& directory) { posix_spawn_file_actions_addchdir_np(&actions_, directory.c_str()); }
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

// Both ends close-on-exec: the child gets plain copies through dup2, and no other child started
// meanwhile holds a write end that would keep our reads from ever seeing the end.
std::array<int, 2> open_pipe() {
  std::array<int, 2> ends{-1, -1};
  if (pipe2(ends.data(), O_CLOEXEC) != 0) fail("pipe2", errno);
  return ends;
}

// Reads once from `fd` when poll says it is ready, at most `most` bytes; closes it at the end.
void read_ready(int& fd, short revents, std::string& sink, std::size_t most) {
  if (fd < 0 || revents == 0) return;
  std::array<char, 4096> buffer;
  const ssize_t got = read(fd, buffer.data(), std::min(buffer.size(), most));
  if (got > 0) {
    sink.append(buffer.data(), static_cast<std::size_t>(got));
  } else if (got == 0 || errno != EINTR) {
    close_fd(fd);
  }
}

// Capture files of different programs in one directory must not overwrite each other.
std::string next_serial() {
  static std::atomic<int> serial = 0;
  return std::to_string(serial++);
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

Options Options::stdout_to(fs::path file) {
  Options options;
  options.stdout_file = std::move(file);
  return options;
}

Options Options::captured_in(fs::path directory) {
  Options options;
  options.capture_directory = std::move(directory);
  return options;
}

Process::Process(std::vector<std::string> argv, const Options& options) {
  if (argv.empty()) throw std::invalid_argument("no program to run");
  // exec comes after the chdir, so a relative program path would be looked up in the wrong place.
  if (!options.working_directory.empty()) argv[0] = fs::absolute(argv[0]).string();
  const bool to_files = !options.capture_directory.empty();
  const bool stdout_captured = options.stdout_file.empty();

  FileActions actions;
  actions.open(STDIN_FILENO, "/dev/null", O_RDONLY);
  std::array<int, 2> out_ends{-1, -1}, err_ends{-1, -1};
  if (!stdout_captured) {
    actions.open(STDOUT_FILENO, options.stdout_file, O_WRONLY | O_CREAT | O_TRUNC);
  } else if (to_files) {
    out_file_ = options.capture_directory / ("stdout-" + next_serial());
    actions.open(STDOUT_FILENO, out_file_, O_WRONLY | O_CREAT | O_TRUNC);
  } else {
    out_ends = open_pipe();
    actions.dup(out_ends[1], STDOUT_FILENO);
  }
  if (options.stderr_fd >= 0) {
    actions.dup(options.stderr_fd, STDERR_FILENO);
  } else if (to_files) {
    err_file_ = options.capture_directory / ("stderr-" + next_serial());
    actions.open(STDERR_FILENO, err_file_, O_WRONLY | O_CREAT | O_TRUNC);
  } else {
    err_ends = open_pipe();
    actions.dup(err_ends[1], STDERR_FILENO);
  }
  // Last, so that relative paths of the files above are the caller's, not the program's.
  if (!options.working_directory.empty()) actions.chdir(options.working_directory);

  start_ = Clock::now();
  std::vector<char*> args = argv_of(argv);
  const int failed = posix_spawn(&pid_, args[0], actions.get(), nullptr, args.data(), environ);
  close_fd(out_ends[1]);
  close_fd(err_ends[1]);
  out_pipe_ = out_ends[0];
  err_pipe_ = err_ends[0];
  if (failed != 0) {
    close_pipes();
    fail("posix_spawn " + argv[0], failed);
  }
}

Process::~Process() {
  if (!status_) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  close_pipes();
}

void Process::signal(int number) {
  if (status_) return;  // reaped: the pid may already belong to another process
  kill(pid_, number);
  start_ = Clock::now();
}

bool Process::ended() {
  reap(WNOHANG);
  return status_.has_value();
}

bool Process::wait_for_stderr(const std::string& text, std::chrono::milliseconds limit) {
  if (err_file_.empty()) throw std::logic_error("wait_for_stderr needs output captured in files");
  const Clock::time_point deadline = Clock::now() + limit;
  for (;;) {
    const bool last_look = ended() || Clock::now() > deadline;
    if (read_bytes(err_file_).find(text) != std::string::npos) return true;
    if (last_look) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void Process::hang_up_after(std::size_t bytes) {
  while (out_pipe_ >= 0 && out_.size() < bytes) pump(-1, bytes);
  close_fd(out_pipe_);
}

Outcome Process::wait() {
  drain();
  reap(0);
  return outcome();
}

std::optional<Outcome> Process::wait_for(std::chrono::milliseconds limit) {
  const Clock::time_point deadline = Clock::now() + limit;
  while (!ended()) {
    if (Clock::now() > deadline) {
      kill(pid_, SIGKILL);
      reap(0);
      close_pipes();
      return std::nullopt;
    }
    // Keeps pipes flowing while it waits; with nothing to read, it only waits.
    if (!pump(20, SIZE_MAX)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  drain();
  return outcome();
}

// Records the exit status once the program has ended; with WNOHANG it returns at once either way.
void Process::reap(int flags) {
  if (status_) return;
  int status = 0;
  rusage usage{};
  for (;;) {
    const pid_t done = wait4(pid_, &status, flags, &usage);
    if (done == pid_) {
      end_ = Clock::now();
      status_ = status;
      max_rss_kib_ = usage.ru_maxrss;
      return;
    }
    if (done == 0) return;
    if (errno != EINTR) fail("wait4", errno);
  }
}

// Reads what the open pipes have, waiting up to `timeout_ms` (-1: for ever) for something. Both
// are polled together, so a program that fills one while we wait on the other cannot deadlock.
// False when no pipe is open any more.
bool Process::pump(int timeout_ms, std::size_t stdout_limit) {
  if (out_pipe_ < 0 && err_pipe_ < 0) return false;
  std::array<pollfd, 2> fds{{{out_pipe_, POLLIN, 0}, {err_pipe_, POLLIN, 0}}};  // poll skips fd -1
  if (poll(fds.data(), fds.size(), timeout_ms) < 0) {
    if (errno == EINTR) return true;
    fail("poll", errno);
  }
  read_ready(out_pipe_, fds[0].revents, out_, stdout_limit - out_.size());
  read_ready(err_pipe_, fds[1].revents, err_, SIZE_MAX);
  return true;
}

// Reads the pipes to their end, which comes when the program (and whatever it started) exits.
void Process::drain() {
  while (pump(-1, SIZE_MAX)) {
  }
}

void Process::close_pipes() {
  close_fd(out_pipe_);
  close_fd(err_pipe_);
}

Outcome Process::outcome() const {
  Outcome result;
  result.exit_code = WIFEXITED(*status_) ? WEXITSTATUS(*status_) : 128 + WTERMSIG(*status_);
  result.out = out_file_.empty() ? out_ : read_bytes(out_file_);
  result.err = err_file_.empty() ? err_ : read_bytes(err_file_);
  result.seconds = std::chrono::duration<double>(end_ - start_).count();
  result.max_rss_kib = max_rss_kib_;
  return result;
}

Outcome run_program(std::vector<std::string> argv, const Options& options) {
  return Process(std::move(argv), options).wait();
}

std::string describe(const Outcome& outcome) {
  constexpr std::size_t kShown = 3000;  // enough to see what went wrong, short enough to read
  return "exit code " + std::to_string(outcome.exit_code) + "\n--- stdout ---\n" + outcome.out.substr(0, kShown) +
         "\n--- stderr ---\n" + outcome.err.substr(0, kShown);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

fs::path fresh_test_directory(const std::string& prefix) {
  const std::string test = testing::UnitTest::GetInstance()->current_test_info()->name();
  const fs::path directory = fs::temp_directory_path() / (prefix + "-" + std::to_string(getpid()) + "-" + test);
  fs::remove_all(directory);
  fs::create_directories(directory);
  return directory;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

namespace {

// The immutable attribute, where the file system has one: it stops root, whom modes do not.
void set_immutable(const fs::path& path, bool immutable) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  int flags = 0;
  if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
    flags = immutable ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
    ioctl(fd, FS_IOC_SETFLAGS, &flags);
  }
  if (fd >= 0) ::close(fd);
}

// Whether a file can be written at `path` now: opened for writing, or for a folder, created in it.
bool writable(const fs::path& path) {
  if (fs::is_directory(path)) {
    const fs::path probe = path / ".writable";
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    ::close(fd);
    fs::remove(probe);
    return true;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) ::close(fd);
  return fd >= 0;
}

}  // namespace

bool make_read_only(const fs::path& path, bool read_only) {
  const bool folder = fs::is_directory(path);
  if (!read_only && geteuid() == 0) set_immutable(path, false);
  const fs::perms readable = folder ? fs::perms::owner_read | fs::perms::owner_exec : fs::perms::owner_read;
  fs::permissions(path, read_only ? readable : readable | fs::perms::owner_write);
  if (read_only && geteuid() == 0) set_immutable(path, true);
  return writable(path) != read_only;
}

}  // namespace harness
