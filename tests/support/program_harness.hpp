// A program run by the tests as a user would run it: started with posix_spawn from an argument
// vector (no shell, so each argument arrives exactly as written), stdin from /dev/null, stdout
// and stderr captured separately, then waited for, signalled or timed out. Shared by the CLI,
// shell, solve, resume and MPI suites; what only one suite needs (mpirun's arguments, rank pids)
// stays in that suite. The one other way the tests start a program is test_terminal.cpp's
// forkpty: a pseudo-terminal as controlling terminal is beyond posix_spawn.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace harness {

// Sanitizers reserve terabytes of address space, which a limit on it (ulimit -v, prlimit --as)
// would refuse at start: the tests that set one skip themselves in sanitized builds.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

//! How a program ended and what it wrote.
struct Outcome {
  int exit_code = -1;    //!< the exit status, or 128 + the signal that ended it
  std::string out, err;  //!< everything captured from stdout and stderr
  double seconds = 0;    //!< from the start, or from the last signal() when one was sent
  long max_rss_kib = 0;  //!< the program's peak resident memory
};

//! Where a program runs and where its output goes.
struct Options {
  //! Empty: the tests' own working directory.
  std::filesystem::path working_directory;
  //! Not empty: stdout is written to this file (created or truncated) and Outcome::out stays empty.
  std::filesystem::path stdout_file;
  //! Empty: output is captured through pipes. Otherwise into files in this directory, so that a
  //! program left running while the test sleeps never blocks on a full pipe.
  std::filesystem::path capture_directory;
  //! Not -1: stderr is this descriptor, open in the test (/dev/full, a pipe's write end that the
  //! test reads or closes itself), and Outcome::err stays empty.
  int stderr_fd = -1;

  static Options stdout_to(std::filesystem::path file);
  static Options captured_in(std::filesystem::path directory);
};

//! A started program. Destroying one that still runs kills it, so a failed assertion leaves no
//! stray process behind.
class Process {
 public:
  //! Starts `argv[0]` (a path, not looked up in PATH) with `argv`; throws if it cannot start.
  explicit Process(std::vector<std::string> argv, const Options& options = {});
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }

  //! Sends signal `number` and restarts the clock, so that Outcome::seconds measures how long the
  //! exit took.
  void signal(int number);

  //! True once the program has ended (then wait() returns at once). Meant for output captured in
  //! files: a program writing to pipes that nobody reads may block before it can end.
  bool ended();

  //! Waits until stderr holds `text`, the program ends, or `limit` passes; true when the text came.
  //! Only for output captured in files. Lets a test signal a program once it is under way rather
  //! than after a guessed delay, which a loaded machine or a sanitizer can outlast.
  bool wait_for_stderr(const std::string& text, std::chrono::milliseconds limit);

  //! Reads stdout until `bytes` have come (or it closes), then closes the pipe as `| head -c` would.
  //! Outcome::out holds exactly what was read. Only for output captured through pipes.
  void hang_up_after(std::size_t bytes);

  //! Waits for the end, however long it takes.
  Outcome wait();

  //! Waits at most `limit`; a program still running then is killed, and nullopt says it hung.
  std::optional<Outcome> wait_for(std::chrono::milliseconds limit);

 private:
  void reap(int flags);
  bool pump(int timeout_ms, std::size_t stdout_limit);
  void drain();
  void close_pipes();
  Outcome outcome() const;

  std::filesystem::path out_file_, err_file_;
  int out_pipe_ = -1, err_pipe_ = -1;
  std::string out_, err_;
  pid_t pid_ = 0;
  std::optional<int> status_;
  long max_rss_kib_ = 0;
  std::chrono::steady_clock::time_point start_, end_;
};

//! Runs `argv` to its end.
Outcome run_program(std::vector<std::string> argv, const Options& options = {});

//! The outcome for a failure message: exit code, then stdout and stderr (their first 3000 bytes).
std::string describe(const Outcome& outcome);

//! The lines of a text without their '\n'; a last line without '\n' is kept.
std::vector<std::string> lines_of(const std::string& text);

//! An empty directory for the running test, <temp>/<prefix>-<pid>-<test name>: tests of one suite
//! run in parallel by ctest never share files.
std::filesystem::path fresh_test_directory(const std::string& prefix);

//! A whole file's bytes ("" if it cannot be read).
std::string read_bytes(const std::filesystem::path& path);

//! Makes the file or folder at `path` read-only (or writable again): by its mode, and for root,
//! whom modes do not stop, by the immutable attribute where the file system has one. True when
//! it worked (no file can be written there now, or one can again); false when nothing works here.
bool make_read_only(const std::filesystem::path& path, bool read_only = true);

}  // namespace harness
