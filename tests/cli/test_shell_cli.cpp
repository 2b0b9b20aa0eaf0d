// The program's stderr and its build report, run as a user would: a stderr that cannot be
// written (a full device, a pipe whose reader left) never costs the count; batch logs carry
// timestamps; `version` says how the program was built; JSON counts can be strings; bench
// reports its statistics and refuses ratios from runs too short to time.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using harness::describe;
using harness::lines_of;
using harness::Outcome;
using Json = nlohmann::ordered_json;

Outcome run(std::vector<std::string> args) {
  args.insert(args.begin(), NQUEENS_BINARY);
  return harness::run_program(std::move(args));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<Json> json_lines(const std::string& text) {
  std::vector<Json> records;
  for (const std::string& line : lines_of(text)) records.push_back(Json::parse(line));
  return records;
}

// ---- a stderr that cannot be written -----------------------------------------------------------

// The program with stdout to `out_file` and stderr to `err_fd` (already open here), waited for.
int run_with_stderr(std::vector<std::string> args, const fs::path& out_file, int err_fd,
                    const std::function<void()>& while_running = {}) {
  args.insert(args.begin(), NQUEENS_BINARY);
  harness::Options options = harness::Options::stdout_to(out_file);
  options.stderr_fd = err_fd;
  harness::Process program(std::move(args), options);
  if (while_running) while_running();
  return program.wait().exit_code;
}

// A count that logs and draws progress many times (0.1 s apart, for about a second or more).
const std::vector<std::string> kChattyCount = {
    "count", "-n", "15-16", "-t", "1", "--engine", "dfs", "--log-level", "info", "--progress-interval", "0.1"};

// `2>/dev/full`: every write to stderr fails with ENOSPC. The count must still finish and print.
TEST(BrokenStderr, FullDeviceDoesNotStopTheCount) {
  const fs::path dir = harness::fresh_test_directory("nqueens-shell");
  const int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(full, 0);
  const int code = run_with_stderr(kChattyCount, dir / "out.txt", full);
  close(full);
  EXPECT_EQ(code, 0);
  const std::vector<std::string> lines = lines_of(harness::read_bytes(dir / "out.txt"));
  ASSERT_EQ(lines.size(), 3u) << harness::read_bytes(dir / "out.txt");
  EXPECT_EQ(lines[2].rfind(" 16    14772512", 0), 0u) << lines[2];
}

// `2>&1 >/dev/null | head -1`: the reader of stderr takes one line and leaves; later writes fail
// with EPIPE. The count must still finish, with its result on stdout and exit code 0.
TEST(BrokenStderr, ClosedPipeDoesNotStopTheCount) {
  const fs::path dir = harness::fresh_test_directory("nqueens-shell");
  int ends[2];
  ASSERT_EQ(pipe2(ends, O_CLOEXEC), 0);
  std::string first_line;
  const int code = run_with_stderr(kChattyCount, dir / "out.txt", ends[1], [&] {
    close(ends[1]);
    char c = 0;
    while (read(ends[0], &c, 1) == 1 && c != '\n') first_line += c;
    close(ends[0]);  // as head -1 does once it has its line
  });
  EXPECT_EQ(code, 0) << "first stderr line: " << first_line;
  EXPECT_TRUE(contains(first_line, "[info] N=15")) << first_line;
  const std::vector<std::string> lines = lines_of(harness::read_bytes(dir / "out.txt"));
  ASSERT_EQ(lines.size(), 3u) << harness::read_bytes(dir / "out.txt");
  EXPECT_EQ(lines[1].rfind(" 15     2279184", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind(" 16    14772512", 0), 0u) << lines[2];
}

// ---- batch logs ---------------------------------------------------------------------------------

TEST(BatchLog, LogAndProgressLinesCarryTimestampsWhenStderrIsNoTerminal) {
  const Outcome r = run(kChattyCount);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::regex stamped(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[(info|progress)\] N=1[56]:? )");
  int progress = 0;
  for (const std::string& line : lines_of(r.err)) {
    EXPECT_TRUE(std::regex_search(line, stamped)) << line;
    progress += contains(line, "[progress]") ? 1 : 0;
  }
  EXPECT_GT(progress, 0) << describe(r);
  EXPECT_FALSE(contains(r.err, "\x1b[")) << "no colour in a log file by default";
}

TEST(BatchLog, ColorAlwaysColoursTheLevelEvenInALogFile) {
  const Outcome r = run({"count", "-n", "8", "--log-level", "info", "--color", "always"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "Z \x1b[32m[info]\x1b[0m N=8")) << describe(r);
}

TEST(BatchLog, ErrorsAreOneUnstampedLine) {
  const Outcome r = run({"count", "-n", "5-3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "nqueens: error: range '5-3' runs backwards\n");
  const Outcome bad = run({"count", "-n", "8", "--color", "sometimes"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--color")) << describe(bad);
}

// ---- version --------------------------------------------------------------------------------------

// The build's keys around the engines' hardware paths (a key per engine that has one: the CPU
// engines' SIMD paths, the gpu engine's devices, whatever engines this build has), then the host's.
const std::vector<std::string> kBuildKeysBefore = {"version", "git_commit", "compiler", "build_type", "target"};
const std::vector<std::string> kBuildKeysAfter = {"tbb_version", "host_name", "host_cpus", "cpu_model", "caches"};

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

TEST(Version, FlagAndCommandSayHowTheProgramWasBuilt) {
  const Outcome flag = run({"--version"});
  const Outcome command = run({"version"});
  ASSERT_EQ(flag.exit_code, 0) << describe(flag);
  ASSERT_EQ(command.exit_code, 0) << describe(command);
  EXPECT_EQ(flag.out, command.out);
  EXPECT_EQ(flag.err, "");
  const std::vector<std::string> lines = lines_of(flag.out);
  ASSERT_GE(lines.size(), 8u) << flag.out;
  EXPECT_TRUE(std::regex_match(lines[0], std::regex(R"(nqueens \d+\.\d+\.\d+)"))) << lines[0];
  const std::vector<std::string> labels = {"commit:", "compiler:", "build type:", "target:"};
  for (std::size_t i = 0; i < labels.size(); ++i) EXPECT_EQ(lines[i + 1].rfind(labels[i], 0), 0u) << lines[i + 1];
  EXPECT_TRUE(std::regex_search(lines[4], std::regex("(native|portable)"))) << lines[4];
  EXPECT_EQ(lines.back().rfind("oneTBB:", 0), 0u) << lines.back();
  // Between them, an engine's hardware path per line, saying where it was read.
  std::map<std::string, std::string> paths;
  for (std::size_t i = 5; i + 1 < lines.size(); ++i) {
    std::smatch match;
    ASSERT_TRUE(std::regex_match(lines[i], match, std::regex(R"(([a-z ]+): +(.+) \(on [A-Za-z ]+\))"))) << lines[i];
    paths[match[1]] = match[2];
  }
  ASSERT_TRUE(paths.count("join matcher")) << flag.out;
  ASSERT_TRUE(paths.count("dfs kernel")) << flag.out;
  EXPECT_TRUE(std::regex_match(paths["join matcher"], std::regex("(avx512|avx2)(\\+pext)?|scalar"))) << flag.out;
  EXPECT_TRUE(std::regex_match(paths["dfs kernel"], std::regex("(avx2|scalar)"))) << flag.out;
}

TEST(Version, JsonFormHasTheContextRecordsBuildAndHostFields) {
  const Outcome r = run({"version", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<Json> records = json_lines(r.out);
  ASSERT_EQ(records.size(), 1u) << r.out;
  const std::vector<std::string> keys = keys_of(records[0]);
  ASSERT_GE(keys.size(), kBuildKeysBefore.size() + kBuildKeysAfter.size() + 2) << r.out;
  EXPECT_TRUE(std::equal(kBuildKeysBefore.begin(), kBuildKeysBefore.end(), keys.begin())) << r.out;
  EXPECT_TRUE(std::equal(kBuildKeysAfter.rbegin(), kBuildKeysAfter.rend(), keys.rbegin())) << r.out;
  EXPECT_TRUE(records[0]["join_matcher"].is_string()) << r.out;
  EXPECT_TRUE(records[0]["dfs_kernel"].is_string()) << r.out;
  EXPECT_TRUE(records[0]["caches"].is_array());
  for (const Json& cache : records[0]["caches"]) {
    EXPECT_TRUE(cache["level"].is_number_integer()) << cache;
    EXPECT_GT(cache["size"].get<std::uint64_t>(), 0u) << cache;
  }

  const Outcome count = run({"count", "-n", "8", "--format", "json"});
  ASSERT_EQ(count.exit_code, 0) << describe(count);
  const Json context = json_lines(count.out).at(0)["context"];
  for (const std::string& key : keys) {
    ASSERT_TRUE(context.contains(key)) << key << " in " << context;
    if (key != "caches") {
      EXPECT_EQ(context[key], records[0][key]) << key;
    }
  }
  EXPECT_EQ(context["json_counts"], "number");
}

// ---- counts in JSON --------------------------------------------------------------------------------

TEST(JsonCounts, StringModeKeepsCountsPast2To53ExactForJavaScript) {
  const Outcome r = run({"oeis", "--format", "json", "--json-counts", "string"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<Json> records = json_lines(r.out);
  EXPECT_EQ(records.front()["context"]["json_counts"], "string");
  EXPECT_EQ(records.back()["n"], 27);
  EXPECT_EQ(records.back()["total"], "234907967154122528");
  EXPECT_EQ(records.back()["unique"], "29363495934315694");

  const Outcome count = run({"count", "-n", "8", "--format", "json", "--json-counts", "string"});
  ASSERT_EQ(count.exit_code, 0) << describe(count);
  const Json record = json_lines(count.out).at(1);
  EXPECT_EQ(record["total"], "92");
  EXPECT_EQ(record["unique"], "12");
  EXPECT_EQ(record["expected_total"], "92");
  EXPECT_TRUE(record["nodes"].is_string());
  EXPECT_EQ(record["n"], 8);

  const Outcome numbers = run({"count", "-n", "8", "--format", "json"});
  EXPECT_EQ(json_lines(numbers.out).at(1)["total"], 92) << "numbers stay the default";
  const Outcome bad = run({"count", "-n", "8", "--json-counts", "text"});
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
}

// ---- bench --------------------------------------------------------------------------------------------

TEST(BenchCli, ReportsStatisticsAndEverySample) {
  const Outcome r = run({"bench", "-n", "10", "-t", "1", "-r", "3", "-w", "2", "--no-baseline", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const Json record = json_lines(r.out).at(1);
  EXPECT_EQ(record["warmup"], 2);
  EXPECT_EQ(record["repeats"], 3);
  ASSERT_EQ(record["samples"].size(), 3u) << record;
  const double low = record["min_seconds"], mid = record["median_seconds"], high = record["max_seconds"];
  const double mean = record["mean_seconds"];
  EXPECT_LE(low, mid);
  EXPECT_LE(mid, high);
  EXPECT_LE(low, mean);
  EXPECT_LE(mean, high);
  EXPECT_GE(record["stddev_seconds"].get<double>(), 0.0);
  for (const Json& sample : record["samples"]) {
    EXPECT_GE(sample.get<double>(), low);
    EXPECT_LE(sample.get<double>(), high);
  }
}

// `bench -n 10 -t 1,2 -r 1` once reported an 18x speedup on 2 cores: runs of a millisecond time
// the thread pool, not the count. Such ratios are left out, and the log says why.
// Runs of N = 10 and 11 take milliseconds: each sample repeats them until it lasts 0.1 s, so that
// every ratio is given.
TEST(BenchCli, CalibratesRunsTooShortToTimeAndGivesTheirRatios) {
  const Outcome r = run({"bench", "-n", "10-11", "-t", "1,2", "-r", "2", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<Json> records = json_lines(r.out);
  std::vector<Json> results, summaries;
  for (const Json& record : records) (record["type"] == "result" ? results : summaries).push_back(record);
  ASSERT_EQ(results.size(), 4u) << r.out;
  for (const Json& record : results) {
    ASSERT_LT(record["median_seconds"].get<double>(), 0.1) << "N = 10 and 11 are meant to be short";
    EXPECT_GT(record["inner_repeats"].get<int>(), 1) << record;
    EXPECT_TRUE(record["vs_baseline"].is_number()) << record;
    if (record["threads"] == 2) {
      EXPECT_TRUE(record["speedup_vs_1_thread"].is_number()) << record;
    }
  }
  EXPECT_FALSE(contains(r.err, "too short to time")) << describe(r);
  ASSERT_EQ(summaries.size(), 3u) << "the context and one summary per N\n" << r.out;
  EXPECT_EQ(summaries[0]["type"], "context");
  EXPECT_EQ(summaries[1]["type"], "summary");
  EXPECT_EQ(summaries[1]["n"], 10);
  EXPECT_EQ(summaries[2]["n"], 11);
  EXPECT_EQ(records.back()["type"], "summary") << "a summary follows its N's rows";
}

// The summary of an N compares its fastest engine with the registry's yardstick engine on as many
// threads (or the textbook baseline), on stderr and as a JSON "summary" record.
TEST(BenchCli, SummarisesEachNAgainstTheYardstick) {
  const Outcome r = run({"bench", "-n", "12", "-t", "1", "-r", "2", "-w", "0", "--engines", "dfs,join", "--format",
                         "json", "--log-level", "info"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const Json summary = json_lines(r.out).back();
  ASSERT_EQ(summary["type"], "summary") << r.out;
  EXPECT_EQ(summary["n"], 12);
  EXPECT_TRUE(summary["reference"] == "dfs" || summary["reference"] == "textbook") << summary;
  EXPECT_GT(summary["ratio"].get<double>(), 0) << summary;
  EXPECT_GE(summary["ratio_stddev"].get<double>(), 0) << summary;
  const std::string text = summary["text"];
  EXPECT_TRUE(std::regex_match(text, std::regex(R"(N=12: \w+ (on \d+ threads? )?ran \d+\.\d\d \+- \d+\.\d\d times )"
                                                R"(faster than \w+ on \d+ threads?)")))
      << text;
  EXPECT_TRUE(contains(r.err, text)) << describe(r);
}

TEST(BenchCli, DefaultTextRowsFitEightyColumnsAndWideShowsTheRest) {
  const Outcome r = run({"bench", "-n", "9", "-t", "1", "-r", "1", "-w", "0", "--engines", "dfs,join"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("  N  engine  threads   median_s  stddev_s  speedup  vs_dfs  vs_baseline", 0), 0u)
      << lines[0];
  for (const std::string& line : lines) EXPECT_LE(line.size(), 80u) << line;
  const Outcome wide = run({"bench", "-n", "9", "-t", "1", "-r", "1", "-w", "0", "--no-baseline", "--wide"});
  ASSERT_EQ(wide.exit_code, 0) << describe(wide);
  EXPECT_GT(lines_of(wide.out).at(0).size(), 80u) << wide.out;
  EXPECT_TRUE(contains(lines_of(wide.out).at(0), "ceil@256")) << wide.out;
}

TEST(BenchCli, CsvQuotesTheListOfSamples) {
  const Outcome r = run({"bench", "-n", "9", "-t", "1", "-r", "2", "--no-baseline", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_TRUE(contains(lines[0], ",samples,")) << lines[0];
  EXPECT_TRUE(std::regex_search(lines[1], std::regex(R"(,"\[[0-9.e-]+,[0-9.e-]+\]",)"))) << lines[1];
}

}  // namespace
