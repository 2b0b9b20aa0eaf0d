#pragma once
// Result printing for `count` and `oeis`: an aligned text table, JSON Lines (a context record,
// then one record per N) or CSV (a header row, then one row per N). The JSON record defines
// the fields; CSV writes the same fields in the same order. Each line goes to standard output as
// it is ready, through standard_output.hpp: a reader that has gone (ReaderGone) or a failed write
// stops the command at that line. Nothing is written before the first record: a run refused
// before it counts (a journal of another run, say) leaves stdout empty in every format.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "nqueens/count.hpp"
#include "nqueens/unit_record.hpp"
#include "shell/output/build_info.hpp"

namespace nqueens::shell {

//! bench's column of speed against the registry's yardstick engine: "vs_" and its name.
std::string yardstick_column();

enum class Format { text, json, csv, total };

//! How JSON Lines write counts: as numbers (exact in the text; JavaScript and jq 1.6 round
//! those above 2^53) or as decimal strings, always, so that a consumer sees one type.
enum class JsonCounts { number, string };

struct RunContext {
  std::string command;  //!< "count" or "oeis"
  int threads = 0;
  std::vector<int> sizes;  //!< every N the run will print, for column widths
  bool wide = false;       //!< the text table shows every column, not the ones that fit 80
};

//! A counted N with what the OEIS says about it.
struct CountRecord {
  CountResult result;
  std::optional<std::uint64_t> expected_total;
  std::optional<std::uint64_t> expected_unique;
  std::optional<bool> verified;  //!< set only under --verify when a reference exists
  //! False when this process counted no unit (the journal held them all): the rates are then
  //! unknown (null), as `seconds` measured only the replay.
  bool counted_here = true;
  //! The counts of the units this process counted, when a journal held others: the rates are of
  //! this work over this run's seconds. Unset: the result's totals, all counted here.
  std::optional<Totals> totals_here = std::nullopt;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  //! Takes the run's context; it is printed with the first row (JSON's context record, the text
  //! table's column widths).
  virtual void begin(const RunContext& context) = 0;
  virtual void row(const nlohmann::ordered_json& record) = 0;
  //! A record that sums up rows (bench's comparison per N): a JSON "summary" record; the text
  //! table and CSV leave it out (the log says it on stderr).
  virtual void summary(const nlohmann::ordered_json& /*record*/) {}
  virtual void end() {}
};

//! Every JSON Lines record starts with its `type`: "context", "result" (a row: count, merge, oeis,
//! bench) or "summary". CSV has no such column.
//!
//! The `{"type": "context", "context": {...}}` record that opens every JSON Lines stream: the command, the build
//! and the host (build_info.hpp), the threads, the date, and how counts are written.
nlohmann::ordered_json context_json(const RunContext& context, JsonCounts counts = JsonCounts::number);

//! The build and host fields of the context record (also `nqueens version --format json`).
nlohmann::ordered_json build_json(const BuildInfo& build, const HostInfo& host);

//! Adds `--format text|json|csv|total` to a subcommand.
void add_format_option(CLI::App& command, std::string& format);

//! Adds `--wide` to a subcommand: the text table shows every column instead of the ones that fit
//! 80 columns (JSON and CSV always carry every field).
void add_wide_option(CLI::App& command, bool& wide);

//! Adds `--json-counts number|string` to a subcommand.
void add_json_counts_option(CLI::App& command, std::string& json_counts);

//! The Format named by a string that add_format_option accepted.
Format parse_format(const std::string& name);

//! The JsonCounts named by a string that add_json_counts_option accepted.
JsonCounts parse_json_counts(const std::string& name);

//! A reporter that writes to standard output.
std::unique_ptr<Reporter> make_reporter(Format format, JsonCounts counts = JsonCounts::number);

//! `record` with every count field ("total", "nodes", ...) written as a decimal string.
nlohmann::ordered_json counts_as_strings(nlohmann::ordered_json record);

//! The fields of one `count` result, in output order (`n` and `total` first).
nlohmann::ordered_json to_json(const CountRecord& record);

//! A count as a JSON number, or as a decimal string past 2^64 (JSON parsers stop there).
nlohmann::ordered_json count_json(Count value);

//! Microseconds as the seconds the reports give (`unit_seconds`).
double unit_seconds(std::uint64_t microseconds);

//! What the log says of a result's unit time: "units took 123.456 s of thread time in all runs
//! (this run 12.345 s)". `here` is this process's share (Session::unit_time_here); the "in all
//! runs" part appears when it is not the whole, and always without it (merge).
std::string unit_time_text(const CountResult& result, const std::optional<UnitTime>& here);

}  // namespace nqueens::shell
