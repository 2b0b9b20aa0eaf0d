// `nqueens solve` and the for_each_solution() engine behind it. Every printed solution is parsed
// back from its format and checked by code that shares nothing with the library: a queen-by-queen
// attack check, lexicographic order, and the 8 symmetries of the square written as coordinate
// maps (not canonical.cpp's classify()).
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "nqueens/oeis.hpp"
#include "nqueens/solutions.hpp"
#include "reference/reference.hpp"
#include "support/program_harness.hpp"

namespace {

using Board = std::vector<int>;  // board[r] = column of the queen on row r

// ---- running the program ---------------------------------------------------------------------

using harness::lines_of;
using harness::Outcome;

// Runs `nqueens args...`, its output captured through pipes (or stdout to a file).
Outcome run_nqueens(std::vector<std::string> args, const harness::Options& options = {}) {
  args.insert(args.begin(), NQUEENS_BINARY);
  return harness::run_program(std::move(args), options);
}

// Runs `nqueens args...` into a pipe, reads `bytes` of it and closes the pipe, as `| head` does.
Outcome run_and_hang_up(std::vector<std::string> args, std::size_t bytes) {
  args.insert(args.begin(), NQUEENS_BINARY);
  harness::Process process(std::move(args));
  process.hang_up_after(bytes);
  return process.wait();
}

// ---- the independent checker -----------------------------------------------------------------

struct Printed {
  Board board;
  int class_size = 0;  // 0: not printed
};

// Symmetry g of the n x n square applied to the square (r, c); g = 0 is the identity.
std::pair<int, int> map_square(int g, int r, int c, int n) {
  const int last = n - 1;
  switch (g) {
    case 0: return {r, c};
    case 1: return {r, last - c};         // mirror left-right
    case 2: return {last - r, c};         // mirror top-bottom
    case 3: return {last - r, last - c};  // half turn
    case 4: return {c, r};                // main diagonal
    case 5: return {last - c, last - r};  // anti-diagonal
    case 6: return {c, last - r};         // quarter turn clockwise
    default: return {last - c, r};        // quarter turn anticlockwise
  }
}

// The board moved queen by queen under symmetry g, read back row by row.
Board image(const Board& board, int g) {
  const int n = static_cast<int>(board.size());
  Board moved(board.size(), -1);
  for (int r = 0; r < n; ++r) {
    const auto [row, col] = map_square(g, r, board[static_cast<std::size_t>(r)], n);
    moved[static_cast<std::size_t>(row)] = col;
  }
  return moved;
}

std::set<Board> images(const Board& board) {
  std::set<Board> all;
  for (int g = 0; g < 8; ++g) all.insert(image(board, g));
  return all;
}

bool is_solution(const Board& board, int n) {
  if (static_cast<int>(board.size()) != n) return false;
  for (int i = 0; i < n; ++i) {
    const int ci = board[static_cast<std::size_t>(i)];
    if (ci < 0 || ci >= n) return false;
    for (int j = 0; j < i; ++j) {
      const int cj = board[static_cast<std::size_t>(j)];
      if (ci == cj || std::abs(ci - cj) == i - j) return false;
    }
  }
  return true;
}

// Every board a legal solution, distinct, in strictly increasing lexicographic order.
void check_boards(const std::vector<Printed>& printed, int n) {
  std::set<Board> seen;
  for (std::size_t i = 0; i < printed.size(); ++i) {
    const Board& board = printed[i].board;
    EXPECT_TRUE(is_solution(board, n)) << "N=" << n << " solution #" << i + 1 << " is not a solution";
    EXPECT_TRUE(seen.insert(board).second) << "N=" << n << " solution #" << i + 1 << " printed twice";
    if (i > 0) {
      EXPECT_LT(printed[i - 1].board, board) << "N=" << n << " solution #" << i + 1 << " out of order";
    }
  }
}

// --unique: each board is the least of its images, its class size is right, and no board is an
// image of another.
void check_classes(const std::vector<Printed>& printed, int n) {
  std::set<Board> boards;
  for (const Printed& p : printed) boards.insert(p.board);
  std::uint64_t covered = 0;
  for (const Printed& p : printed) {
    const std::set<Board> orbit = images(p.board);
    EXPECT_EQ(*orbit.begin(), p.board) << "N=" << n << ": not the canonical board of its class";
    EXPECT_EQ(p.class_size, static_cast<int>(orbit.size())) << "N=" << n << ": wrong class size";
    for (const Board& other : orbit) {
      if (other != p.board) {
        EXPECT_EQ(boards.count(other), 0u) << "N=" << n << ": two boards of one class";
      }
    }
    covered += orbit.size();
  }
  EXPECT_EQ(covered, *nqueens::oeis_total(n)) << "N=" << n << ": classes do not cover every solution";
}

void check_all(const std::vector<Printed>& printed, int n, bool unique) {
  check_boards(printed, n);
  const std::uint64_t expected = unique ? *nqueens::oeis_unique(n) : *nqueens::oeis_total(n);
  EXPECT_EQ(printed.size(), expected) << "N=" << n << (unique ? " --unique" : "");
  if (unique) {
    check_classes(printed, n);
  } else {
    for (const Printed& p : printed) EXPECT_EQ(p.class_size, 0) << "a class size without --unique";
  }
}

// ---- parsing each format back ----------------------------------------------------------------

int class_size_after(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  return at == std::string::npos ? 0 : std::stoi(text.substr(at + marker.size()));
}

Board parse_numbers(const std::string& text) {
  Board board;
  std::istringstream in(text);
  for (int c; in >> c;) board.push_back(c);
  return board;
}

int parse_board_row(const std::string& line, int n) {
  EXPECT_EQ(static_cast<int>(line.size()), n) << "row '" << line << "'";
  EXPECT_EQ(std::count(line.begin(), line.end(), 'Q'), 1) << "row '" << line << "'";
  EXPECT_EQ(std::count(line.begin(), line.end(), '.'), n - 1) << "row '" << line << "'";
  return static_cast<int>(line.find('Q'));
}

// Boards of n rows, one blank line between, each preceded by "# class size K" under --unique.
std::vector<Printed> parse_board_format(const std::string& out, int n, bool unique) {
  std::vector<Printed> printed;
  const std::vector<std::string> lines = lines_of(out);
  const std::size_t height = static_cast<std::size_t>(n) + (unique ? 1 : 0);
  for (std::size_t at = 0; at < lines.size(); at += height + 1) {
    if (at > 0) {
      EXPECT_EQ(lines[at - 1], "") << "no blank line before board at line " << at;
    }
    if (at + height > lines.size()) {
      ADD_FAILURE() << "truncated board at line " << at;
      break;
    }
    Printed p;
    if (unique) {
      EXPECT_EQ(lines[at].rfind("# class size ", 0), 0u) << lines[at];
      p.class_size = class_size_after(lines[at], "# class size ");
    }
    for (std::size_t r = at + (unique ? 1 : 0); r < at + height; ++r) p.board.push_back(parse_board_row(lines[r], n));
    printed.push_back(p);
  }
  return printed;
}

// One line of N column numbers; "  # class size K" after them under --unique.
std::vector<Printed> parse_perm_format(const std::string& out) {
  std::vector<Printed> printed;
  for (const std::string& line : lines_of(out)) {
    const std::size_t hash = line.find('#');
    printed.push_back({parse_numbers(line.substr(0, hash)), class_size_after(line, "# class size ")});
  }
  return printed;
}

// A context record, then {"n", "index", "columns", "class_size"} per solution.
std::vector<Printed> parse_json_format(const std::string& out, int n) {
  std::vector<Printed> printed;
  const std::vector<std::string> lines = lines_of(out);
  EXPECT_FALSE(lines.empty());
  if (lines.empty()) return printed;
  const auto context = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(context.at("context").at("command"), "solve");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto record = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(record.at("n"), n);
    EXPECT_EQ(record.at("index"), i);
    const auto& size = record.at("class_size");
    printed.push_back({record.at("columns").get<Board>(), size.is_null() ? 0 : size.get<int>()});
  }
  return printed;
}

// A header, then n,index,columns,class_size per solution (columns space-separated).
std::vector<Printed> parse_csv_format(const std::string& out, int n) {
  std::vector<Printed> printed;
  const std::vector<std::string> lines = lines_of(out);
  EXPECT_FALSE(lines.empty());
  if (lines.empty()) return printed;
  EXPECT_EQ(lines[0], "n,index,columns,class_size");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> cells;
    std::istringstream in(lines[i]);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    if (lines[i].back() == ',') cells.emplace_back();
    EXPECT_EQ(cells.size(), 4u) << lines[i];
    if (cells.size() != 4) continue;
    EXPECT_EQ(std::stoi(cells[0]), n);
    EXPECT_EQ(std::stoul(cells[1]), i);
    printed.push_back({parse_numbers(cells[2]), cells[3].empty() ? 0 : std::stoi(cells[3])});
  }
  return printed;
}

std::vector<Printed> parse(const std::string& format, const std::string& out, int n, bool unique) {
  if (format == "board") return parse_board_format(out, n, unique);
  if (format == "perm") return parse_perm_format(out);
  if (format == "json") return parse_json_format(out, n);
  return parse_csv_format(out, n);
}

// ---- every format, every N from 1 to 10 ------------------------------------------------------

class EveryFormat : public testing::TestWithParam<std::tuple<std::string, bool>> {};

TEST_P(EveryFormat, PrintsExactlyTheOeisCountOfCheckedSolutions) {
  const auto& [format, unique] = GetParam();
  for (int n = 1; n <= 10; ++n) {
    std::vector<std::string> args = {"solve", "-n", std::to_string(n), "--format", format};
    if (unique) args.push_back("--unique");
    const Outcome run = run_nqueens(args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    check_all(parse(format, run.out, n, unique), n, unique);
  }
}

INSTANTIATE_TEST_SUITE_P(Solve, EveryFormat,
                         testing::Combine(testing::Values("board", "perm", "json", "csv"), testing::Bool()),
                         [](const auto& test) {
                           return std::get<0>(test.param) + (std::get<1>(test.param) ? "_unique" : "_all");
                         });

TEST(Solve, BoardIsTheDefaultFormat) {
  const Outcome run = run_nqueens({"solve", "-n", "4"});
  ASSERT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n");
}

TEST(Solve, LargerBoardsAreCheckedToo) {
  const Outcome all = run_nqueens({"solve", "-n", "12", "--format", "perm"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  check_all(parse_perm_format(all.out), 12, false);
  const Outcome unique = run_nqueens({"solve", "-n", "12", "--format", "perm", "--unique"});
  ASSERT_EQ(unique.exit_code, 0) << unique.err;
  check_all(parse_perm_format(unique.out), 12, true);
}

// ---- threads, limits, pipes -------------------------------------------------------------------

TEST(Solve, ThreadCountDoesNotChangeTheOutput) {
  for (const char* format : {"board", "perm", "csv"}) {
    for (bool unique : {false, true}) {
      std::vector<std::string> args = {"solve", "-n", "11", "--format", format};
      if (unique) args.push_back("--unique");
      auto with = [&args](const char* threads) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"-t", threads});
        return run_nqueens(a).out;
      };
      const std::string one = with("1");
      EXPECT_FALSE(one.empty());
      EXPECT_EQ(one, with("2")) << format;
      EXPECT_EQ(one, with("3")) << format;
    }
  }
}

TEST(Solve, LimitPrintsTheFirstSolutionsOnly) {
  const Outcome all = run_nqueens({"solve", "-n", "8", "--format", "perm"});
  const Outcome five = run_nqueens({"solve", "-n", "8", "--format", "perm", "--limit", "5"});
  ASSERT_EQ(five.exit_code, 0);
  const std::vector<std::string> all_lines = lines_of(all.out);
  const std::vector<std::string> first = lines_of(five.out);
  ASSERT_EQ(first.size(), 5u);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), all_lines.begin()));

  const Outcome more = run_nqueens({"solve", "-n", "8", "--format", "perm", "--limit", "1000"});
  EXPECT_EQ(more.out, all.out);
  const Outcome unique = run_nqueens({"solve", "-n", "8", "--format", "json", "--unique", "--limit", "3"});
  EXPECT_EQ(lines_of(unique.out).size(), 4u);  // the context record and three solutions
}

TEST(Solve, LimitOnALargeBoardAnswersAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  const Outcome run = run_nqueens({"solve", "-n", "20", "--limit", "5", "--format", "perm"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<Printed> printed = parse_perm_format(run.out);
  ASSERT_EQ(printed.size(), 5u);
  check_boards(printed, 20);
  EXPECT_EQ(printed[0].board, (Board{0, 2, 4, 1, 3, 12, 14, 11, 17, 19, 16, 8, 15, 18, 7, 9, 6, 13, 5, 10}));
  // A hang guard, not a timing: counting every board of N = 20 takes hours, stopping at five
  // takes well under a second, so a minute tells the two apart even under a sanitizer.
  EXPECT_LT(seconds, 60.0);
}

TEST(Solve, ClosedPipeEndsQuietlyWithExitZero) {
  for (const char* format : {"board", "perm", "json", "csv"}) {
    const Outcome run = run_and_hang_up({"solve", "-n", "14", "--format", format}, 100);
    EXPECT_EQ(run.exit_code, 0) << format;
    EXPECT_EQ(run.err, "") << format;
    EXPECT_EQ(run.out.size(), 100u) << format;
  }
}

TEST(Solve, ClosedPipeInAShellPipeline) {
  const std::string command = std::string("bash -c 'set -o pipefail; \"") + NQUEENS_BINARY +
                              "\" solve -n 14 --format perm | head -1 >/dev/null'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(Solve, StreamsInBoundedMemory) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitizer's shadow memory and quarantine dwarf the bound";
#endif
  // N = 15 as boards is 550 MB of text for 2.28 million solutions: holding either would show.
  const Outcome run = run_nqueens({"solve", "-n", "15", "-t", "2"}, harness::Options::stdout_to("/dev/null"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(run.max_rss_kib, 64 * 1024);
}

// ---- bad input and runtime failures ----------------------------------------------------------

void expect_usage_error(const std::vector<std::string>& args) {
  std::string shown;
  for (const std::string& arg : args) shown += " " + arg;
  const Outcome run = run_nqueens(args);
  EXPECT_EQ(run.exit_code, 2) << shown;
  EXPECT_EQ(run.out, "") << shown;
  EXPECT_EQ(run.err.rfind("nqueens: error: ", 0), 0u) << shown << ": " << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << shown << ": " << run.err;
}

TEST(Solve, BadInputIsAUsageError) {
  expect_usage_error({"solve"});
  expect_usage_error({"solve", "-n", "0"});
  expect_usage_error({"solve", "-n", "33"});
  expect_usage_error({"solve", "-n", "abc"});
  expect_usage_error({"solve", "-n", "8,10"});
  expect_usage_error({"solve", "-n", "4-6"});
  expect_usage_error({"solve", "-n", ""});
  expect_usage_error({"solve", "-n", "8", "--format", "xml"});
  expect_usage_error({"solve", "-n", "8", "--format", "text"});
  expect_usage_error({"solve", "-n", "8", "--limit", "0"});
  expect_usage_error({"solve", "-n", "8", "--limit", "-1"});
  expect_usage_error({"solve", "-n", "8", "--limit", "many"});
  expect_usage_error({"solve", "-n", "8", "-t", "0"});
  expect_usage_error({"solve", "-n", "8", "-t", "5000"});
  expect_usage_error({"solve", "-n", "8", "--format"});
  expect_usage_error({"solve", "-n", "8", "--unique=maybe"});
  expect_usage_error({"solve", "-n", "8", "--log-level", "loud"});
  expect_usage_error({"solve", "-n", "8", "-q", "--log-level", "info"});
  expect_usage_error({"solve", "-n", "8", "--bogus"});
}

TEST(Solve, WriteFailureIsARuntimeError) {
  const Outcome run = run_nqueens({"solve", "-n", "10"}, harness::Options::stdout_to("/dev/full"));
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.err.rfind("nqueens: error: ", 0), 0u) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST(Solve, LogLevelInfoReportsOnStderrOnly) {
  const Outcome run = run_nqueens({"solve", "-n", "6", "--format", "perm", "--log-level", "info"});
  ASSERT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "1 3 5 0 2 4\n2 5 1 4 0 3\n3 0 4 1 5 2\n4 2 0 5 3 1\n");
  EXPECT_NE(run.err.find("4 solutions"), std::string::npos) << run.err;
}

// ---- the library directly ----------------------------------------------------------------------

std::vector<Printed> collect(int n, nqueens::SolveOptions options, std::size_t stop_after = SIZE_MAX) {
  std::vector<Printed> printed;
  nqueens::for_each_solution(n, options, [&](std::span<const std::uint8_t> columns, int orbit_size) {
    printed.push_back({Board(columns.begin(), columns.end()), orbit_size});
    return printed.size() < stop_after;
  });
  return printed;
}

TEST(ForEachSolution, MatchesTheReferenceSolverInOrder) {
  for (int n = 1; n <= 10; ++n) {
    std::vector<Board> expected;
    nqueens::reference_solutions(n, [&expected](const std::vector<int>& b) { expected.push_back(b); });
    for (int threads : {1, 2}) {
      const std::vector<Printed> got = collect(n, {false, threads});
      ASSERT_EQ(got.size(), expected.size()) << "N=" << n;
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].board, expected[i]) << "N=" << n;
    }
  }
}

TEST(ForEachSolution, UniqueGivesTheCanonicalBoardOfEachClass) {
  for (int n = 1; n <= 12; ++n) check_all(collect(n, {true, 2}), n, true);
}

TEST(ForEachSolution, StopsAsSoonAsTheSinkSaysSo) {
  for (int threads : {1, 2, 4}) {
    EXPECT_EQ(collect(12, {false, threads}, 7).size(), 7u);
    EXPECT_EQ(collect(24, {false, threads}, 3).size(), 3u);
  }
}

TEST(ForEachSolution, SinkExceptionsReachTheCaller) {
  auto throwing = [](std::span<const std::uint8_t>, int) -> bool { throw std::runtime_error("disk full"); };
  EXPECT_THROW(nqueens::for_each_solution(10, {false, 2}, throwing), std::runtime_error);
}

TEST(ForEachSolution, RejectsBadArguments) {
  auto sink = [](std::span<const std::uint8_t>, int) { return true; };
  EXPECT_THROW(nqueens::for_each_solution(0, {}, sink), std::invalid_argument);
  EXPECT_THROW(nqueens::for_each_solution(33, {}, sink), std::invalid_argument);
  EXPECT_THROW(nqueens::for_each_solution(8, {false, -1}, sink), std::invalid_argument);
}

}  // namespace
