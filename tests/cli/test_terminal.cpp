// The progress line under a real pseudo-terminal (forkpty) at 40, 80 and 200 columns: every
// status line fits the width, the terminal never wraps, a resize (SIGWINCH) is followed, and
// nothing is left on the screen at the end of a count or after Ctrl-C. A small model of the
// terminal (carriage return, newline, erase to end of line, auto-wrap at the last column)
// replays what the program wrote, so the test sees the screen a user would see.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

// No test here waits on time to pass; this only ends a program that hung, so that a bug fails
// the test instead of stalling the suite.
constexpr auto kHangLimit = std::chrono::seconds(300);

// Enough of a VT100 for what nqueens writes: printable text, \r, \n (the pty turns it into
// \r\n), ESC [ K (erase to the end of the line), and colour sequences (ignored).
class Screen {
 public:
  explicit Screen(int width) : width_(width) {}

  void feed(std::string_view bytes) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      const char c = bytes[i];
      if (c == '\x1b' && i + 1 < bytes.size() && bytes[i + 1] == '[') {
        std::size_t end = i + 2;
        while (end < bytes.size() && !(bytes[end] >= 0x40 && bytes[end] <= 0x7e)) ++end;
        if (end < bytes.size() && bytes[end] == 'K') rows_.back().resize(std::min(rows_.back().size(), column_));
        i = end;
      } else if (c == '\r') {
        column_ = 0;
      } else if (c == '\n') {
        rows_.emplace_back();
        column_ = 0;
      } else if (static_cast<unsigned char>(c) >= 0x20) {
        if (static_cast<int>(column_) == width_) {  // the terminal wraps: a redraw in place is now impossible
          ++wraps_;
          rows_.emplace_back();
          column_ = 0;
        }
        std::string& row = rows_.back();
        if (row.size() <= column_) row.resize(column_ + 1, ' ');
        row[column_++] = c;
      }
    }
  }

  //! The rows that hold anything but spaces.
  std::vector<std::string> text_rows() const {
    std::vector<std::string> rows;
    for (const std::string& row : rows_)
      if (row.find_first_not_of(' ') != std::string::npos) rows.push_back(row);
    return rows;
  }
  int wraps() const { return wraps_; }

 private:
  int width_;
  std::vector<std::string> rows_{""};
  std::size_t column_ = 0;
  int wraps_ = 0;
};

// Every status line drawn: the text between a carriage return and the erase-to-end that
// Console::status() writes after it.
std::vector<std::string> status_draws(const std::string& output) {
  std::vector<std::string> draws;
  const std::regex draw("\r([^\r\n\x1b]+)\x1b\\[K");
  for (auto it = std::sregex_iterator(output.begin(), output.end(), draw); it != std::sregex_iterator(); ++it)
    draws.push_back((*it)[1]);
  return draws;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The program on the slave side of a new pseudo-terminal of `width` columns, as in a user's
// terminal window: stdout and stderr both go to it, and it is the controlling terminal, so a
// Ctrl-C typed into it sends SIGINT.
class TerminalRun {
 public:
  TerminalRun(std::vector<std::string> args, int width, std::vector<std::string> environment = {}) {
    args.insert(args.begin(), NQUEENS_BINARY);
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    for (char** variable = environ; *variable; ++variable) environment.emplace_back(*variable);
    std::vector<char*> envp;
    envp.reserve(environment.size() + 1);
    for (std::string& variable : environment) envp.push_back(variable.data());
    envp.push_back(nullptr);
    winsize size{};
    size.ws_col = static_cast<unsigned short>(width);
    size.ws_row = 24;
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ < 0) throw std::runtime_error(std::string("forkpty: ") + std::strerror(errno));
    if (pid_ == 0) {  // the child: only async-signal-safe calls until exec
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
  }
  ~TerminalRun() {
    if (!status_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(master_);
  }
  TerminalRun(const TerminalRun&) = delete;
  TerminalRun& operator=(const TerminalRun&) = delete;

  //! Reads until `done(output)` holds or the program ends; false if it ended first.
  bool read_until(const std::function<bool(const std::string&)>& done) {
    const auto limit = Clock::now() + kHangLimit;
    while (!done(output_)) {
      if (Clock::now() > limit) throw std::runtime_error("the program hung; output so far:\n" + output_);
      if (!read_some()) return false;
    }
    return true;
  }

  //! Types Ctrl-C into the terminal.
  void interrupt() { write_all("\x03"); }

  //! Resizes the terminal window, as dragging its corner does (the program gets SIGWINCH).
  void resize(int width) {
    winsize size{};
    size.ws_col = static_cast<unsigned short>(width);
    size.ws_row = 24;
    ioctl(master_, TIOCSWINSZ, &size);
  }

  //! Reads everything to the end and returns the exit code (128 + signal when killed).
  int wait() {
    read_until([](const std::string&) { return false; });
    int status = 0;
    waitpid(pid_, &status, 0);
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return *status_;
  }

  const std::string& output() const { return output_; }

  //! The terminal's device (/dev/pts/K), for a second program to write on.
  std::string device() const { return ptsname(master_); }

 private:
  // One read of whatever the program wrote; false at its end (EIO once the slave side closes).
  bool read_some() {
    pollfd ready{master_, POLLIN, 0};
    if (poll(&ready, 1, 1000) <= 0) return true;
    char buffer[4096];
    const ssize_t got = read(master_, buffer, sizeof buffer);
    if (got > 0) output_.append(buffer, static_cast<std::size_t>(got));
    return got > 0 || (got < 0 && errno == EINTR);
  }
  void write_all(std::string_view bytes) {
    if (::write(master_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
      throw std::runtime_error("could not type into the terminal");
  }

  int master_ = -1;
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::string output_;
};

std::string describe(const std::string& output, const Screen& screen) {
  std::string text = "raw output:\n";
  for (const char c : output)
    text += c == '\x1b' ? std::string("\\e") : c == '\r' ? std::string("\\r") : std::string(1, c);
  text += "\nscreen:\n";
  for (const std::string& row : screen.text_rows()) text += "|" + row + "|\n";
  return text;
}

// A count long enough for several redraws (a status line appears after half a second, then
// four times a second): N = 17 on one DFS thread takes seconds.
const std::vector<std::string> kLongCount = {"count", "-n", "17", "-t", "1", "--engine", "dfs"};

class TerminalWidth : public testing::TestWithParam<int> {};

// Draws a few status lines, then Ctrl-C: each line fits, the terminal never wrapped, and the
// screen ends with the interrupt notice and no trace of the status line.
TEST_P(TerminalWidth, StatusLinesFitAndCtrlCErasesThem) {
  const int width = GetParam();
  TerminalRun run(kLongCount, width);
  ASSERT_TRUE(run.read_until([](const std::string& out) { return status_draws(out).size() >= 3; }))
      << "the count ended before three status lines were drawn:\n"
      << run.output();
  run.interrupt();
  EXPECT_EQ(run.wait(), 130);
  Screen screen(width);
  screen.feed(run.output());
  const std::string context = describe(run.output(), screen);
  for (const std::string& draw : status_draws(run.output())) {
    EXPECT_LE(static_cast<int>(draw.size()), width - 3) << draw << "\n" << context;
    EXPECT_EQ(draw.rfind("N=17 ", 0), 0u) << draw;
  }
  // (The interrupt notice itself may wrap at 40 or 80 columns: it is written once, never redrawn.)
  const std::vector<std::string> rows = screen.text_rows();
  ASSERT_FALSE(rows.empty()) << context;
  EXPECT_FALSE(contains(rows.back(), "N=17 ")) << context;
  const std::string all = [&rows] {
    std::string joined;
    for (const std::string& row : rows) joined += row;
    return joined;
  }();
  EXPECT_TRUE(contains(all, "interrupted by SIGINT")) << context;
  EXPECT_FALSE(contains(all, "% ")) << "a status line was left on the screen\n" << context;
}

INSTANTIATE_TEST_SUITE_P(Columns, TerminalWidth, testing::Values(40, 80, 200));

// What each width shows: the widest every field and a bar of 40, the narrowest the bar, the
// percentage and the ETA.
TEST(Terminal, FieldsGiveWayAsTheWidthShrinks) {
  for (const int width : {40, 200}) {
    TerminalRun run(kLongCount, width);
    ASSERT_TRUE(run.read_until([](const std::string& out) { return !status_draws(out).empty(); })) << run.output();
    run.interrupt();
    run.wait();
    const std::string draw = status_draws(run.output()).front();
    EXPECT_TRUE(std::regex_search(draw, std::regex(R"(^N=17 \[[#-]+\] +\d+\.\d%  )"))) << width << ": " << draw;
    EXPECT_TRUE(contains(draw, "ETA ")) << width << ": " << draw;
    EXPECT_EQ(contains(draw, "sol/s"), width == 200) << width << ": " << draw;
    EXPECT_EQ(contains(draw, "elapsed"), width == 200) << width << ": " << draw;
    if (width == 200) {
      EXPECT_TRUE(std::regex_search(draw, std::regex(R"(\[[#-]{40}\])"))) << draw;
    }
  }
}

// Two shards in one terminal: each status line names its shard, and a rate reads as "81.0M",
// not in scientific notation.
TEST(Terminal, AShardNamesItselfOnTheStatusLine) {
  std::vector<std::string> shard = kLongCount;
  shard.insert(shard.end(), {"--shard", "2/4", "--output", testing::TempDir() + "terminal-shard.json"});
  TerminalRun run(shard, 200);
  ASSERT_TRUE(run.read_until([](const std::string& out) { return !status_draws(out).empty(); })) << run.output();
  run.interrupt();
  run.wait();
  const std::string draw = status_draws(run.output()).front();
  EXPECT_EQ(draw.rfind("N=17 shard 2/4 [", 0), 0u) << draw;
  EXPECT_TRUE(std::regex_search(draw, std::regex(R"( [0-9.]+[kMG]? sol/s)"))) << draw;
  EXPECT_FALSE(contains(draw, "e+")) << draw;
}

// A second program writing to `device` (another TerminalRun's terminal), as a second shard
// started from another window onto the same terminal would: stdout and stderr go to it.
class SecondProgram {
 public:
  SecondProgram(std::vector<std::string> args, const std::string& device) {
    args.insert(args.begin(), NQUEENS_BINARY);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid_ == 0) {  // the child: only async-signal-safe calls until exec
      const int terminal = open(device.c_str(), O_RDWR | O_NOCTTY);
      if (terminal < 0 || dup2(terminal, STDOUT_FILENO) < 0 || dup2(terminal, STDERR_FILENO) < 0) _exit(126);
      execve(argv[0], argv.data(), environ);
      _exit(127);
    }
  }
  ~SecondProgram() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  SecondProgram(const SecondProgram&) = delete;
  SecondProgram& operator=(const SecondProgram&) = delete;

 private:
  pid_t pid_ = -1;
};

// Two shards on one terminal redrew the same line in turn, each erasing the other's. Once the
// second draws its status there, neither redraws in place: each prints lines that name it, which
// the screen keeps apart.
TEST(Terminal, TwoShardsOnOneTerminalPrintLinesInsteadOfRedrawingOne) {
  std::vector<std::string> first = kLongCount, second = kLongCount;
  first.insert(first.end(), {"--shard", "1/2", "--progress-interval", "0.5"});
  second.insert(second.end(), {"--shard", "2/2", "--progress-interval", "0.5"});
  TerminalRun run(first, 200);
  SecondProgram beside(second, run.device());
  const std::string second_line = "[progress] N=17 shard 2/2", first_line = "[progress] N=17 shard 1/2";
  ASSERT_TRUE(run.read_until([&](const std::string& out) {
    const std::size_t at = out.find(second_line);
    return at != std::string::npos && out.find(first_line, at) != std::string::npos &&
           out.find(second_line, at + 1) != std::string::npos;
  })) << run.output();
  run.interrupt();
  run.wait();
  const std::string after = run.output().substr(run.output().find(second_line));
  EXPECT_TRUE(status_draws(after).empty()) << "a status line was redrawn in place\n" << after;
  Screen screen(200);
  screen.feed(run.output());
  for (const std::string& row : screen.text_rows())
    EXPECT_FALSE(contains(row, "shard 1/2") && contains(row, "shard 2/2")) << describe(run.output(), screen);
}

// A setup of seconds (N = 24's unit list and cost model) shows on the status line, phase by
// phase, rather than as a silent wait; Ctrl-C during it ends the process as during the count.
TEST(Terminal, SetupShowsItsPhase) {
  TerminalRun run({"count", "-n", "24", "-t", "2"}, 80);
  ASSERT_TRUE(run.read_until([](const std::string& out) {
    for (const std::string& draw : status_draws(out))
      if (draw.rfind("setting up N=24: ", 0) == 0) return true;
    return false;
  })) << run.output();
  run.interrupt();
  EXPECT_EQ(run.wait(), 130);
  for (const std::string& draw : status_draws(run.output())) EXPECT_LE(draw.size(), 80u - 3) << draw;
}

// A count that runs to its end leaves only its results on the screen (120 columns: the table
// itself is wider than 80).
TEST(Terminal, FinishedCountLeavesOnlyTheTable) {
  TerminalRun run({"count", "-n", "17", "-t", "2", "--engine", "dfs"}, 120);
  EXPECT_EQ(run.wait(), 0);
  Screen screen(120);
  screen.feed(run.output());
  const std::string context = describe(run.output(), screen);
  ASSERT_FALSE(status_draws(run.output()).empty()) << "no status line was drawn\n" << context;
  const std::vector<std::string> rows = screen.text_rows();
  ASSERT_EQ(rows.size(), 2u) << context;
  EXPECT_EQ(rows[0].rfind("  N       total", 0), 0u) << context;
  EXPECT_EQ(rows[1].rfind(" 17    95815104", 0), 0u) << context;
  EXPECT_EQ(screen.wraps(), 0) << context;
}

// Shrinking the window from 200 to 40 columns: the next lines fit the new width, and the
// terminal does not wrap.
TEST(Terminal, ResizeIsFollowed) {
  constexpr std::size_t kFits40 = 40 - 3;
  TerminalRun run(kLongCount, 200);
  ASSERT_TRUE(run.read_until([](const std::string& out) { return !status_draws(out).empty(); })) << run.output();
  ASSERT_GT(status_draws(run.output()).back().size(), 80u);
  const std::size_t before = status_draws(run.output()).size();
  run.resize(40);
  ASSERT_TRUE(run.read_until([before](const std::string& out) {
    const std::vector<std::string> draws = status_draws(out);
    return draws.size() > before + 1 && draws.back().size() <= kFits40;
  })) << run.output();
  run.interrupt();
  EXPECT_EQ(run.wait(), 130);
  const std::vector<std::string> draws = status_draws(run.output());
  // Lines drawn before the program saw the resize may be wide; from the first narrow one on, all fit.
  std::size_t first_narrow = before;
  while (first_narrow < draws.size() && draws[first_narrow].size() > kFits40) ++first_narrow;
  for (std::size_t i = first_narrow; i < draws.size(); ++i) EXPECT_LE(draws[i].size(), kFits40) << draws[i];
}

// On a terminal the level tag is coloured, unless NO_COLOR is set or --color never is given.
TEST(Terminal, LogColourFollowsNoColorAndTheOption) {
  const std::vector<std::string> args = {"count", "-n", "8", "--log-level", "info"};
  const std::string green_info = "\x1b[32m[info]\x1b[0m";
  {
    TerminalRun run(args, 80);
    EXPECT_EQ(run.wait(), 0);
    EXPECT_TRUE(contains(run.output(), green_info)) << run.output();
  }
  {
    TerminalRun run(args, 80, {"NO_COLOR=1"});
    EXPECT_EQ(run.wait(), 0);
    EXPECT_FALSE(contains(run.output(), "\x1b[3")) << run.output();
    EXPECT_TRUE(contains(run.output(), "[info] N=8")) << run.output();
  }
  {
    std::vector<std::string> never = args;
    never.insert(never.end(), {"--color", "never"});
    TerminalRun run(never, 80);
    EXPECT_EQ(run.wait(), 0);
    EXPECT_FALSE(contains(run.output(), "\x1b[3")) << run.output();
  }
  {
    // On a terminal the lines carry no timestamp: the user sees them as they come.
    TerminalRun run(args, 80, {"NO_COLOR=1"});
    run.wait();
    EXPECT_FALSE(std::regex_search(run.output(), std::regex(R"(\d{4}-\d\d-\d\dT)"))) << run.output();
  }
}

}  // namespace
