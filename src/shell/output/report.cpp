#include "shell/output/report.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include <fmt/core.h>

#include "nqueens/oeis.hpp"
#include "run/registry.hpp"
#include "shell/options/engine_settings.hpp"
#include "shell/output/build_info.hpp"
#include "shell/output/readable_number.hpp"
#include "shell/output/standard_output.hpp"

namespace nqueens::shell {

namespace {

constexpr int kSchemaVersion = 1;

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::ordered_json caches_json(const std::vector<CacheInfo>& caches) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CacheInfo& cache : caches)
    list.push_back({{"level", cache.level}, {"type", cache.type}, {"size", cache.size}});
  return list;
}

// The fields that hold counts: exact integers that may pass 2^53 (nodes from N = 23 or so,
// totals from N = 26). Rates and seconds are floating point by nature and stay numbers.
const char* const kCountFields[] = {"total", "unique",          "expected_total",    "expected_unique",
                                    "nodes", "half_turn_fixed", "quarter_turn_fixed"};

}  // namespace

std::string yardstick_column() { return "vs_" + std::string(yardstick_engine().name); }

nlohmann::ordered_json build_json(const BuildInfo& build, const HostInfo& host) {
  nlohmann::ordered_json json = {{"version", build.version},
                                 {"git_commit", build.commit},
                                 {"compiler", build.compiler},
                                 {"build_type", build.build_type},
                                 {"target", build.target}};
  for (const auto& hardware : build.cpu_paths) json[hardware.key] = hardware.path;
  json.update(nlohmann::ordered_json{{"tbb_version", build.tbb_version},
                                     {"host_name", host.host_name},
                                     {"host_cpus", hardware_threads()},
                                     {"cpu_model", host.cpu_model},
                                     {"caches", caches_json(host.caches)}});
  return json;
}

nlohmann::ordered_json context_json(const RunContext& context, JsonCounts counts) {
  nlohmann::ordered_json fields = {{"tool", "nqueens"}, {"command", context.command}};
  fields.update(build_json(build_info(), host_info()));
  fields["threads"] = context.threads;
  fields["date"] = utc_now();
  fields["json_counts"] = counts == JsonCounts::string ? "string" : "number";
  fields["schema_version"] = kSchemaVersion;
  return {{"type", "context"}, {"context", fields}};
}

nlohmann::ordered_json counts_as_strings(nlohmann::ordered_json record) {
  for (const char* field : kCountFields) {
    const auto found = record.find(field);
    if (found != record.end() && found->is_number_integer()) *found = found->dump();
  }
  return record;
}

namespace {

// ---- JSON Lines ---------------------------------------------------------------------------

// One record per line as it is ready: scripts may tail the stream. The context record waits for
// the first result, so that a run refused before it counts prints nothing.
class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(JsonCounts counts) : counts_(counts) {}
  void begin(const RunContext& context) override { context_ = context_json(context, counts_); }
  void row(const nlohmann::ordered_json& record) override { print("result", record); }
  void summary(const nlohmann::ordered_json& record) override { print("summary", record); }

 private:
  // `type` first, then the record's own fields.
  void print(const char* type, const nlohmann::ordered_json& record) {
    if (context_) print_stdout(context_->dump() + '\n');
    context_.reset();
    nlohmann::ordered_json typed = {{"type", type}};
    typed.update(counts_ == JsonCounts::string ? counts_as_strings(record) : record);
    print_stdout(typed.dump() + '\n');
  }

  JsonCounts counts_;
  std::optional<nlohmann::ordered_json> context_;  //!< until the first row is printed
};

// ---- CSV ------------------------------------------------------------------------------------

// RFC 4180: a cell holding a comma or a quote (a list such as bench's samples, written as JSON)
// is quoted, its quotes doubled.
std::string csv_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

class CsvReporter : public Reporter {
 public:
  void begin(const RunContext&) override {}
  void row(const nlohmann::ordered_json& record) override {
    if (!header_written_) {
      write_line(record, [](const auto& item) { return item.key(); });
      header_written_ = true;
    }
    write_line(record, [](const auto& item) { return csv_cell(item.value()); });
  }

 private:
  template <typename Cell>
  void write_line(const nlohmann::ordered_json& record, Cell cell) {
    std::string line;
    for (const auto& item : record.items()) line += (line.empty() ? "" : ",") + cell(item);
    print_stdout(line + '\n');
  }
  bool header_written_ = false;
};

// ---- Text table -----------------------------------------------------------------------------

std::string text_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::string status_cell(const nlohmann::ordered_json& record) {
  const auto& verified = record["verified"];
  if (verified.is_boolean()) return verified.get<bool>() ? "ok" : "MISMATCH";
  return "-";
}

// A rate with an SI prefix ("248M"); JSON and CSV keep the number itself.
std::string rate_cell(const nlohmann::ordered_json& value) {
  return value.is_number() ? rate_text(value.get<double>()) : "-";
}

// Seconds to three significant digits, never in scientific notation ("0.0000689", "14.5").
std::string seconds_cell(const nlohmann::ordered_json& value) {
  return value.is_number() ? decimal_text(value.get<double>()) : "-";
}

// A share of the run as a percentage ("0.91%"), rather than a fraction in scientific notation.
std::string percent_cell(const nlohmann::ordered_json& value) {
  return value.is_number() ? decimal_text(100 * value.get<double>()) + "%" : "-";
}

struct Column {
  std::string label;
  int width;
  std::string (*cell)(const nlohmann::ordered_json& record);
};

std::string number_cell(const nlohmann::ordered_json& value, const char* format) {
  return value.is_number() ? fmt::format(fmt::runtime(format), value.get<double>()) : "-";
}

// bench's columns; without `wide` the ones that fit 80 columns: the median and the ratios.
std::vector<Column> bench_columns(bool wide) {
  using J = nlohmann::ordered_json;
  if (!wide)
    return {
        {"N", 3, [](const J& r) { return r["n"].dump(); }},
        {"engine", 6, [](const J& r) { return r["engine"].get<std::string>(); }},
        {"threads", 7, [](const J& r) { return r["threads"].dump(); }},
        {"median_s", 9, [](const J& r) { return seconds_cell(r["median_seconds"]); }},
        {"stddev_s", 8, [](const J& r) { return seconds_cell(r["stddev_seconds"]); }},
        {"speedup", 7, [](const J& r) { return number_cell(r["speedup_vs_1_thread"], "{:.2f}x"); }},
        {yardstick_column(), 6, [](const J& r) { return number_cell(r[yardstick_column()], "{:.2f}x"); }},
        {"vs_baseline", 11, [](const J& r) { return number_cell(r["vs_baseline"], "{:.2f}x"); }},
    };
  return {
      {"N", 3, [](const J& r) { return r["n"].dump(); }},
      {"engine", 6, [](const J& r) { return r["engine"].get<std::string>(); }},
      {"threads", 7, [](const J& r) { return r["threads"].dump(); }},
      {"median_s", 9, [](const J& r) { return seconds_cell(r["median_seconds"]); }},
      {"mean_s", 8, [](const J& r) { return seconds_cell(r["mean_seconds"]); }},
      {"stddev_s", 8, [](const J& r) { return seconds_cell(r["stddev_seconds"]); }},
      {"min_s", 8, [](const J& r) { return seconds_cell(r["min_seconds"]); }},
      {"max_s", 8, [](const J& r) { return seconds_cell(r["max_seconds"]); }},
      {"solutions/s", 11, [](const J& r) { return rate_cell(r["solutions_per_second"]); }},
      {"nodes/s", 9, [](const J& r) { return rate_cell(r["nodes_per_second"]); }},
      {"ns/node", 7, [](const J& r) { return number_cell(r["ns_per_node"], "{:.2f}"); }},
      {"speedup", 7, [](const J& r) { return number_cell(r["speedup_vs_1_thread"], "{:.2f}x"); }},
      {"baseline_s", 10, [](const J& r) { return number_cell(r["baseline_seconds"], "{:.3f}"); }},
      {"vs_baseline", 11, [](const J& r) { return number_cell(r["vs_baseline"], "{:.2f}x"); }},
      {yardstick_column(), 6, [](const J& r) { return number_cell(r[yardstick_column()], "{:.2f}x"); }},
      {"largest_unit", 12, [](const J& r) { return percent_cell(r["largest_unit_share"]); }},
      {"ceil@16", 7, [](const J& r) { return number_cell(r["ceiling_16"], "{:.1f}"); }},
      {"ceil@64", 7, [](const J& r) { return number_cell(r["ceiling_64"], "{:.1f}"); }},
      {"ceil@256", 8, [](const J& r) { return number_cell(r["ceiling_256"], "{:.1f}"); }},
  };
}

std::string fixed_seconds_cell(const nlohmann::ordered_json& value) {
  return value.is_number() ? fmt::format("{:.3f}", value.get<double>()) : "-";
}

// A count's `seconds`; a merge's two: the shards' seconds summed (the machine time) and the
// longest shard's (the wall time, had they all run at once), so that neither passes for the other.
void add_seconds_columns(std::vector<Column>& columns, const std::string& command) {
  if (command != "merge") {
    columns.push_back(
        {"seconds", 10, [](const nlohmann::ordered_json& r) { return fixed_seconds_cell(r["seconds"]); }});
    return;
  }
  columns.push_back(
      {"sum_seconds", 11, [](const nlohmann::ordered_json& r) { return fixed_seconds_cell(r["seconds"]); }});
  columns.push_back({"longest_shard", 13,
                     [](const nlohmann::ordered_json& r) { return fixed_seconds_cell(r["longest_shard_seconds"]); }});
}

// The text table's columns. Without `wide`, those that fit 80 columns for N <= 20 (count: N,
// total, unique, status, seconds, engine); with it, every column.
std::vector<Column> columns_for(const std::string& command, int count_width, bool wide) {
  std::vector<Column> columns = {
      {"N", 3, [](const nlohmann::ordered_json& r) { return r["n"].dump(); }},
      {"total", count_width, [](const nlohmann::ordered_json& r) { return text_cell(r["total"]); }},
      {"unique", count_width, [](const nlohmann::ordered_json& r) { return text_cell(r["unique"]); }},
  };
  if (command == "oeis") return columns;
  if (command == "bench") return bench_columns(wide);
  if (!wide) {
    columns.push_back({"status", 8, status_cell});
    add_seconds_columns(columns, command);
    columns.push_back({"engine", 6, [](const nlohmann::ordered_json& r) { return r["engine"].get<std::string>(); }});
    return columns;
  }
  columns.push_back(
      {"expected", count_width, [](const nlohmann::ordered_json& r) { return text_cell(r["expected_total"]); }});
  columns.push_back({"status", 8, status_cell});
  add_seconds_columns(columns, command);
  columns.push_back(
      {"solutions/s", 11, [](const nlohmann::ordered_json& r) { return rate_cell(r["solutions_per_second"]); }});
  // Named as in JSON and CSV: one name for a field wherever it is printed.
  columns.push_back(
      {"half_turn_fixed", 15, [](const nlohmann::ordered_json& r) { return text_cell(r["half_turn_fixed"]); }});
  columns.push_back(
      {"quarter_turn_fixed", 18, [](const nlohmann::ordered_json& r) { return text_cell(r["quarter_turn_fixed"]); }});
  columns.push_back({"engine", 6, [](const nlohmann::ordered_json& r) { return r["engine"].get<std::string>(); }});
  return columns;
}

// ---- The total alone ------------------------------------------------------------------------

// `--format total`: each row's total and nothing else, for `n=$(nqueens count 12 --format total)`.
class TotalReporter : public Reporter {
 public:
  void begin(const RunContext&) override {}
  void row(const nlohmann::ordered_json& record) override { print_stdout(text_cell(record["total"]) + '\n'); }
};

class TextReporter : public Reporter {
 public:
  void begin(const RunContext& context) override {
    const int largest = context.sizes.empty() ? 0 : *std::max_element(context.sizes.begin(), context.sizes.end());
    const auto expected = oeis_total(largest);
    const int count_width = std::max<int>(10, expected ? static_cast<int>(std::to_string(*expected).size()) : 24);
    columns_ = columns_for(context.command, count_width, context.wide);
  }

  void row(const nlohmann::ordered_json& record) override {
    if (!header_written_) {
      print([](const Column& column, const nlohmann::ordered_json&) { return column.label; }, record);
      header_written_ = true;
    }
    print([](const Column& column, const nlohmann::ordered_json& r) { return column.cell(r); }, record);
  }

 private:
  template <typename Cell>
  void print(Cell cell, const nlohmann::ordered_json& record) {
    std::string line;
    for (const Column& column : columns_)
      line += fmt::format("{}{:>{}}", line.empty() ? "" : "  ", cell(column, record), column.width);
    print_stdout(line + '\n');
  }

  std::vector<Column> columns_;
  bool header_written_ = false;
};

}  // namespace

nlohmann::ordered_json count_json(Count value) {
  if (fits_u64(value)) return static_cast<std::uint64_t>(value);
  return to_string(value);
}

nlohmann::ordered_json to_json(const CountRecord& record) {
  const CountResult& r = record.result;
  auto optional_json = [](const auto& value) -> nlohmann::ordered_json {
    if (value) return *value;
    return nullptr;
  };
  // A result replayed whole from the journal has no rate: its seconds timed only the replay. A
  // resumed one's rate is of the units counted in its seconds, not of those the journal held.
  const Totals& counted = record.totals_here ? *record.totals_here : r.totals;
  auto per_second = [&r, &record](Count amount) -> nlohmann::ordered_json {
    if (r.seconds <= 0 || !record.counted_here) return nullptr;
    return static_cast<double>(amount) / r.seconds;
  };
  nlohmann::ordered_json json;
  json["n"] = r.n;
  json["total"] = count_json(r.totals.total);
  json["unique"] = r.unique ? count_json(*r.unique) : nlohmann::ordered_json(nullptr);
  json["expected_total"] = optional_json(record.expected_total);
  json["expected_unique"] = optional_json(record.expected_unique);
  json["verified"] = optional_json(record.verified);
  json["seconds"] = r.seconds;
  json["solutions_per_second"] = per_second(counted.total);
  json["nodes"] = count_json(r.totals.nodes);
  json["nodes_per_second"] = per_second(counted.nodes);
  json["threads"] = r.threads;
  add_settings_json(json, r.settings);
  json["work_units"] = r.work_units;
  json["engine"] = r.engine;
  json["half_turn_fixed"] = r.half_turn_fixed ? count_json(*r.half_turn_fixed) : nlohmann::ordered_json(nullptr);
  json["quarter_turn_fixed"] =
      r.quarter_turn_fixed ? count_json(*r.quarter_turn_fixed) : nlohmann::ordered_json(nullptr);
  json["unit_seconds"] = unit_seconds(r.unit_microseconds);
  return json;
}

double unit_seconds(std::uint64_t microseconds) { return static_cast<double>(microseconds) / 1e6; }

std::string unit_time_text(const CountResult& result, const std::optional<UnitTime>& here) {
  std::string text = fmt::format("units took {:.3f} s of thread time", unit_seconds(result.unit_microseconds));
  if (!here)
    text += " in all runs";
  else if (here->microseconds != result.unit_microseconds)
    text += fmt::format(" in all runs (this run {:.3f} s)", unit_seconds(here->microseconds));
  return text;
}

void add_format_option(CLI::App& command, std::string& format) {
  command
      .add_option("--format", format,
                  "Result format on stdout: text, json (JSON Lines), csv, or total (each total alone on its line)")
      ->check(CLI::IsMember({"text", "json", "csv", "total"}))
      ->capture_default_str();
}

Format parse_format(const std::string& name) {
  if (name == "json") return Format::json;
  if (name == "csv") return Format::csv;
  if (name == "total") return Format::total;
  return Format::text;
}

void add_wide_option(CLI::App& command, bool& wide) {
  command.add_flag("--wide", wide, "Text: every column, not only those that fit 80 columns (JSON and CSV have all)");
}

void add_json_counts_option(CLI::App& command, std::string& json_counts) {
  command
      .add_option("--json-counts", json_counts,
                  "How JSON writes counts: number, or string (for JavaScript and jq 1.6, which round "
                  "integers above 2^53)")
      ->check(CLI::IsMember({"number", "string"}))
      ->capture_default_str();
}

JsonCounts parse_json_counts(const std::string& name) {
  return name == "string" ? JsonCounts::string : JsonCounts::number;
}

std::unique_ptr<Reporter> make_reporter(Format format, JsonCounts counts) {
  switch (format) {
    case Format::json: return std::make_unique<JsonReporter>(counts);
    case Format::csv: return std::make_unique<CsvReporter>();
    case Format::total: return std::make_unique<TotalReporter>();
    case Format::text: break;
  }
  return std::make_unique<TextReporter>();
}

}  // namespace nqueens::shell
