// `nqueens solve`: stream the solutions of one board size, in lexicographic order, in the
// format asked for. The engine (solutions.hpp) finds them; this file only formats and writes.
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "nqueens/count.hpp"
#include "nqueens/n_spec.hpp"
#include "nqueens/solutions.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/report.hpp"
#include "shell/output/standard_output.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::cli {

namespace {

struct SolveArgs {
  std::string spec;
  std::string format = "board";
  std::int64_t limit = 0;  // 0: no limit; signed so that CLI11 rejects "-1" rather than wrap it
  bool unique = false;
  int threads = 0;
  LogArgs log;
};

// ---- stdout ---------------------------------------------------------------------------------

// stdout written from a buffer of our own, through write_stdout (standard_output.hpp): millions
// of short lines cost a few thousand system calls. A reader that has gone is a normal end here,
// seen as false rather than ReaderGone, so that the search can be told to stop and the log
// still says how many solutions were printed.
class Stdout {
 public:
  Stdout() : interactive_(isatty(STDOUT_FILENO) == 1) { buffer_.reserve(2 * kFlushBytes); }

  std::string& buffer() { return buffer_; }

  // After each record. A terminal sees every solution at once; a pipe gets full blocks, or
  // whatever is pending once a slow search has kept it waiting for kMaxDelay.
  bool record_done() {
    if (interactive_ || buffer_.size() >= kFlushBytes || Clock::now() - last_flush_ >= kMaxDelay) return flush();
    return true;
  }

  // False once the reader has gone (EPIPE); any other failure is a runtime error.
  bool flush() {
    if (!write_stdout(buffer_)) return false;
    buffer_.clear();
    last_flush_ = Clock::now();
    return true;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kFlushBytes = std::size_t{64} * 1024;
  static constexpr auto kMaxDelay = std::chrono::milliseconds(100);

  std::string buffer_;
  bool interactive_;
  Clock::time_point last_flush_ = Clock::now();
};

// ---- formats --------------------------------------------------------------------------------

struct Solution {
  int n;
  std::uint64_t index;  // 1-based position in the stream
  std::span<const std::uint8_t> columns;
  int class_size;  // 0 unless --unique
};

void append_number(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

void append_columns(std::string& out, std::span<const std::uint8_t> columns, char separator) {
  for (std::size_t r = 0; r < columns.size(); ++r) {
    if (r > 0) out += separator;
    append_number(out, columns[r]);
  }
}

// `Q` and `.`, a blank line between boards; under --unique a `#` line gives the class size.
void append_board(std::string& out, const Solution& s) {
  if (s.index > 1) out += '\n';
  if (s.class_size > 0) {
    out += "# class size ";
    append_number(out, static_cast<std::uint64_t>(s.class_size));
    out += '\n';
  }
  for (std::uint8_t column : s.columns) {
    const std::size_t row_start = out.size();
    out.append(static_cast<std::size_t>(s.n), '.');
    out[row_start + column] = 'Q';
    out += '\n';
  }
}

// The columns row by row, space-separated; under --unique a trailing `#` comment gives the class size.
void append_perm(std::string& out, const Solution& s) {
  append_columns(out, s.columns, ' ');
  if (s.class_size > 0) {
    out += "  # class size ";
    append_number(out, static_cast<std::uint64_t>(s.class_size));
  }
  out += '\n';
}

// Written by hand rather than through nlohmann::json: at millions of records the generic
// path would cost more than the search.
void append_json(std::string& out, const Solution& s) {
  out += "{\"n\":";
  append_number(out, static_cast<std::uint64_t>(s.n));
  out += ",\"index\":";
  append_number(out, s.index);
  out += ",\"columns\":[";
  append_columns(out, s.columns, ',');
  out += "],\"class_size\":";
  if (s.class_size > 0)
    append_number(out, static_cast<std::uint64_t>(s.class_size));
  else
    out += "null";
  out += "}\n";
}

// The JSON record's fields in the same order; the columns share one space-separated cell.
void append_csv(std::string& out, const Solution& s) {
  append_number(out, static_cast<std::uint64_t>(s.n));
  out += ',';
  append_number(out, s.index);
  out += ',';
  append_columns(out, s.columns, ' ');
  out += ',';
  if (s.class_size > 0) append_number(out, static_cast<std::uint64_t>(s.class_size));
  out += '\n';
}

using Formatter = void (*)(std::string&, const Solution&);

Formatter formatter_for(const std::string& format) {
  if (format == "perm") return append_perm;
  if (format == "json") return append_json;
  if (format == "csv") return append_csv;
  return append_board;
}

// What precedes the first solution: JSON's context record, CSV's header row.
std::string preamble(const SolveArgs& args, int n, int threads) {
  if (args.format == "csv") return "n,index,columns,class_size\n";
  if (args.format != "json") return {};
  nlohmann::ordered_json context = context_json({"solve", threads, {n}});
  context["context"]["n"] = n;
  context["context"]["unique"] = args.unique;
  context["context"]["limit"] = args.limit > 0 ? nlohmann::ordered_json(args.limit) : nlohmann::ordered_json(nullptr);
  return context.dump() + "\n";
}

// ---- the command ----------------------------------------------------------------------------

int single_size(const std::string& spec) {
  const std::vector<int> sizes = parse_n_spec(spec);
  if (sizes.size() != 1)
    throw std::invalid_argument("solve takes a single board size, not a list or range: '" + spec + "'");
  return sizes.front();
}

int run(const SolveArgs& args) {
  apply_logging(args.log);
  const int n = single_size(args.spec);
  const int threads = resolve_threads(args.threads);
  // main() ignores SIGPIPE, so a reader that goes away (`| head`) shows up as EPIPE: a normal
  // end here.

  Stdout out;
  out.buffer() = preamble(args, n, threads);
  const Formatter format = formatter_for(args.format);
  const std::uint64_t limit =
      args.limit > 0 ? static_cast<std::uint64_t>(args.limit) : std::numeric_limits<std::uint64_t>::max();
  std::uint64_t printed = 0;
  bool reader_gone = false;
  const auto start = std::chrono::steady_clock::now();
  for_each_solution(n, {args.unique, threads}, [&](std::span<const std::uint8_t> columns, int class_size) {
    format(out.buffer(), {n, ++printed, columns, class_size});
    reader_gone = !out.record_done();
    return !reader_gone && printed < limit;
  });
  reader_gone = reader_gone || !out.flush();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (reader_gone) spdlog::debug("N={}: standard output closed after {} solutions", n, printed);
  spdlog::info("N={}: {} solutions in {:.3f} s on {} threads", n, printed, seconds, threads);
  return kOk;
}

// CLI11 2.1 saturates out-of-range integers instead of refusing them, so the text is checked
// before conversion: a whole number from 1 to 2^63 - 1, nothing else.
CLI::Validator positive_count() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::optional<std::int64_t> value = detail::parse_whole<std::int64_t>(text);
        if (!value || *value < 1) return text + " is not a whole number from 1 to 9223372036854775807";
        return {};
      },
      "POSITIVE");
}

}  // namespace

Registered add_solve_command(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* command = app.add_subcommand("solve", "Print the solutions of one board size, in lexicographic order");
  shell::add_board_sizes(*command, args->spec, "Board size (1..32)");
  command->add_option("--format", args->format, "Output: board (Q and .), perm (columns), json (JSON Lines) or csv")
      ->check(CLI::IsMember({"board", "perm", "json", "csv"}))
      ->capture_default_str();
  command->add_option("--limit", args->limit, "Stop after this many solutions")->check(positive_count());
  command->add_flag("--unique", args->unique,
                    "One canonical board per class under rotation and reflection, with the class size");
  command->add_option("-t,--threads", args->threads, "Worker threads (default: all hardware threads)")
      ->check(CLI::Range(1, kMaxThreads));
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
