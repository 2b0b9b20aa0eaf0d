// The `nqueens` program run as a user would run it: every option of `count` and `oeis`, every
// output format, the exit codes, and every bad input. The binary is started directly with
// posix_spawn (no shell, so each argument arrives exactly as written), with stdout and stderr
// captured separately: stdout must carry results only, stderr one line per error.
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/program_harness.hpp"

namespace {

using Json = nlohmann::ordered_json;
using harness::describe;
using harness::lines_of;

// ---- running the program --------------------------------------------------------------------

// Runs the built program with `args`, its output captured through pipes (or stdout to a file).
harness::Outcome run(std::vector<std::string> args, const harness::Options& options = {}) {
  args.insert(args.begin(), NQUEENS_BINARY);
  return harness::run_program(std::move(args), options);
}

// ---- reading the output ---------------------------------------------------------------------

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> cells;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = line.find(separator, begin);
    cells.push_back(line.substr(begin, end - begin));
    if (end == std::string::npos) return cells;
    begin = end + 1;
  }
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> result;
  for (std::string word; stream >> word;) result.push_back(word);
  return result;
}

// Every stdout line parsed as JSON (throws, failing the test, on any line that is not).
std::vector<Json> json_lines(const std::string& out) {
  std::vector<Json> records;
  for (const std::string& line : lines_of(out)) records.push_back(Json::parse(line));
  return records;
}

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

// The context record's keys: the tool and the command, then what `version --format json` gives
// (the build, a hardware path per engine that has one, whatever engines this build has, the
// host), then the run's.
std::vector<std::string> context_keys() {
  const harness::Outcome version = run({"version", "--format", "json"});
  std::vector<std::string> keys = {"tool", "command"};
  for (const std::string& key : keys_of(Json::parse(version.out))) keys.push_back(key);
  for (const char* key : {"threads", "date", "json_counts", "schema_version"}) keys.emplace_back(key);
  return keys;
}

// ---- reference values -----------------------------------------------------------------------

// OEIS A000170 (all solutions) and A002562 (up to rotation and reflection), n = 0..27,
// typed in from the OEIS independently of src/oeis.cpp.
constexpr std::array<std::uint64_t, 28> kA000170 = {1ULL,
                                                    1ULL,
                                                    0ULL,
                                                    0ULL,
                                                    2ULL,
                                                    10ULL,
                                                    4ULL,
                                                    40ULL,
                                                    92ULL,
                                                    352ULL,
                                                    724ULL,
                                                    2680ULL,
                                                    14200ULL,
                                                    73712ULL,
                                                    365596ULL,
                                                    2279184ULL,
                                                    14772512ULL,
                                                    95815104ULL,
                                                    666090624ULL,
                                                    4968057848ULL,
                                                    39029188884ULL,
                                                    314666222712ULL,
                                                    2691008701644ULL,
                                                    24233937684440ULL,
                                                    227514171973736ULL,
                                                    2207893435808352ULL,
                                                    22317699616364044ULL,
                                                    234907967154122528ULL};
constexpr std::array<std::uint64_t, 28> kA002562 = {0ULL /* n = 0: not in A002562 */,
                                                    1ULL,
                                                    0ULL,
                                                    0ULL,
                                                    1ULL,
                                                    2ULL,
                                                    1ULL,
                                                    6ULL,
                                                    12ULL,
                                                    46ULL,
                                                    92ULL,
                                                    341ULL,
                                                    1787ULL,
                                                    9233ULL,
                                                    45752ULL,
                                                    285053ULL,
                                                    1846955ULL,
                                                    11977939ULL,
                                                    83263591ULL,
                                                    621012754ULL,
                                                    4878666808ULL,
                                                    39333324973ULL,
                                                    336376244042ULL,
                                                    3029242658210ULL,
                                                    28439272956934ULL,
                                                    275986683743434ULL,
                                                    2789712466510289ULL,
                                                    29363495934315694ULL};

// The fields of one `count` record and of the context record, in output order.
const std::vector<std::string> kRecordKeys = {"n",
                                              "total",
                                              "unique",
                                              "expected_total",
                                              "expected_unique",
                                              "verified",
                                              "seconds",
                                              "solutions_per_second",
                                              "nodes",
                                              "nodes_per_second",
                                              "threads",
                                              "symmetry",
                                              "split_depth",
                                              "work_units",
                                              "engine",
                                              "half_turn_fixed",
                                              "quarter_turn_fixed",
                                              "unit_seconds"};
// JSON Lines records start with their type; CSV has no such column.
std::vector<std::string> typed(std::vector<std::string> keys) {
  keys.insert(keys.begin(), "type");
  return keys;
}

// The program's version string, from --version ("nqueens 0.1.0" -> "0.1.0").
std::string program_version() {
  const auto r = run({"--version"});
  const std::string prefix = "nqueens ";
  if (r.exit_code != 0 || r.out.rfind(prefix, 0) != 0) return "";
  return lines_of(r.out).at(0).substr(prefix.size());
}

// Runs `count` with `args` plus --format json, expects success, and returns the records after
// the context record.
std::vector<Json> count_records(std::vector<std::string> args) {
  args.insert(args.begin(), "count");
  args.insert(args.end(), {"--format", "json"});
  const auto r = run(args);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  std::vector<Json> records = json_lines(r.out);
  EXPECT_FALSE(records.empty()) << describe(r);
  if (records.empty()) return records;
  EXPECT_TRUE(records.front().contains("context")) << describe(r);
  records.erase(records.begin());
  return records;
}

// ---- help and version -----------------------------------------------------------------------

TEST(CliHelp, AppHelpPrintsUsageOnStdout) {
  for (const char* flag : {"--help", "-h"}) {
    const auto r = run({flag});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.err, "") << describe(r);
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << describe(r);
    EXPECT_NE(r.out.find("count"), std::string::npos) << describe(r);
    EXPECT_NE(r.out.find("oeis"), std::string::npos) << describe(r);
  }
}

TEST(CliHelp, CountHelpListsEveryOption) {
  for (const char* flag : {"--help", "-h"}) {
    const auto r = run({"count", flag});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.err, "") << describe(r);
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << describe(r);
    for (const char* option :
         {"-n,--n", "-t,--threads", "--symmetry", "--split-depth", "--verify", "--format", "-q,--quiet", "--log-level"})
      EXPECT_NE(r.out.find(option), std::string::npos) << option << "\n" << describe(r);
  }
}

TEST(CliHelp, OeisHelpListsFormat) {
  const auto r = run({"oeis", "--help"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  EXPECT_NE(r.out.find("Usage:"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("--format"), std::string::npos) << describe(r);
}

TEST(CliVersion, PrintsTheVersionOnStdout) {
  const auto r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(^nqueens \d+\.\d+\.\d+\ncommit: )"))) << describe(r);
}

// ---- count: text ----------------------------------------------------------------------------

TEST(CliCount, VerifiedTextTableHasOneOkRowPerN) {
  const auto r = run({"count", "-n", "1-14", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 15u) << describe(r);
  EXPECT_EQ(words(lines[0]), (std::vector<std::string>{"N", "total", "unique", "status", "seconds", "engine"}));
  for (int n = 1; n <= 14; ++n) {
    const std::vector<std::string> cells = words(lines[static_cast<std::size_t>(n)]);
    ASSERT_EQ(cells.size(), 6u) << lines[static_cast<std::size_t>(n)];
    EXPECT_EQ(cells[0], std::to_string(n));
    EXPECT_EQ(cells[5], n == 14 ? "join" : "dfs") << "N=" << n;  // auto: the faster engine for each N
    EXPECT_EQ(cells[1], std::to_string(kA000170[static_cast<std::size_t>(n)])) << "N=" << n;
    EXPECT_EQ(cells[2], std::to_string(kA002562[static_cast<std::size_t>(n)])) << "N=" << n;
    EXPECT_EQ(cells[3], "ok") << "N=" << n;
  }
}

TEST(CliCount, WideTextTableShowsEveryColumn) {
  const auto r = run({"count", "-n", "1-14", "--verify", "--wide"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 15u) << describe(r);
  EXPECT_EQ(words(lines[0]),
            (std::vector<std::string>{"N", "total", "unique", "expected", "status", "seconds", "solutions/s",
                                      "half_turn_fixed", "quarter_turn_fixed", "engine"}));
  for (int n = 1; n <= 14; ++n) {
    const std::vector<std::string> cells = words(lines[static_cast<std::size_t>(n)]);
    ASSERT_EQ(cells.size(), 10u) << lines[static_cast<std::size_t>(n)];
    EXPECT_EQ(cells[3], std::to_string(kA000170[static_cast<std::size_t>(n)])) << "N=" << n;
    EXPECT_EQ(cells[4], "ok") << "N=" << n;
    EXPECT_EQ(cells[9], n == 14 ? "join" : "dfs") << "N=" << n;
  }
}

// The widths are those of the largest N in the spec: a table with N = 20 (total 39029188884) in
// it still fits a terminal of 80 columns. The rows printed before N = 20 is counted have its
// widths; the run is stopped then.
TEST(CliCount, DefaultTextRowsFitEightyColumnsUpToN20) {
  const std::string out = testing::TempDir() + "nqueens_fit_80.txt";
  harness::Process process({NQUEENS_BINARY, "count", "-n", "1-12,20", "-t", "1", "--no-progress"},
                           harness::Options::stdout_to(out));
  while (lines_of(harness::read_bytes(out)).size() < 13 && !process.ended())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  process.signal(SIGINT);
  process.wait();
  const std::vector<std::string> lines = lines_of(harness::read_bytes(out));
  ASSERT_GE(lines.size(), 13u);
  EXPECT_GE(lines[0].size(), 50u) << "the widths of N = 20: " << lines[0];
  for (const std::string& line : lines) EXPECT_LE(line.size(), 80u) << line;
  const auto wide = run({"count", "-n", "1-12", "--wide"});
  EXPECT_GT(lines_of(wide.out).at(0).size(), 80u) << "--wide shows every column";
}

// `--format total`: the number alone, one line per N, for `n=$(nqueens count 12 --format total)`.
TEST(CliCount, FormatTotalPrintsEachTotalAlone) {
  const auto r = run({"count", "-n", "8,10", "--format", "total"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "92\n724\n");
  EXPECT_EQ(r.err, "");
}

// bench's text columns each hold one notation, never scientific: seconds positional, rates with
// an SI prefix, the largest unit as a percentage.
TEST(CliBench, TextColumnsAreNeverInScientificNotation) {
  const auto r = run({"bench", "-n", "4,9", "-t", "1", "-r", "1", "--no-baseline", "--wide"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_FALSE(std::regex_search(r.out, std::regex("[0-9]e[-+][0-9]"))) << r.out;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_TRUE(std::regex_search(lines[2], std::regex(R"( [0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+ )"))) << lines[2];
  EXPECT_TRUE(std::regex_search(lines[2], std::regex(R"( [0-9.]+% )"))) << lines[2];
}

TEST(CliCount, TextWithoutVerifyShowsNoStatus) {
  const auto r = run({"count", "--n", "8", "--format", "text"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << describe(r);
  const std::vector<std::string> cells = words(lines[1]);
  ASSERT_EQ(cells.size(), 6u) << describe(r);
  EXPECT_EQ(cells[1], "92");
  EXPECT_EQ(cells[3], "-");
}

TEST(CliCount, TextShowsDashForUniqueWithoutFullSymmetry) {
  const auto r = run({"count", "-n", "8", "--symmetry", "mirror"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << describe(r);
  const std::vector<std::string> cells = words(lines[1]);
  ASSERT_EQ(cells.size(), 6u) << describe(r);
  EXPECT_EQ(cells[1], "92");
  EXPECT_EQ(cells[2], "-");
}

// ---- count: JSON Lines ----------------------------------------------------------------------

// A result the journal held whole was not counted by this process: its seconds timed only the
// replay, so it has no rate (null in JSON, - in text), while a counted one has.
TEST(CliCount, AResultReplayedWholeFromTheJournalHasNoRate) {
  const std::string journal = testing::TempDir() + "nqueens_rate_journal.nqj";
  std::filesystem::remove(journal);
  const auto counted = run({"count", "-n", "11", "--checkpoint", journal, "--format", "json"});
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  const Json first = json_lines(counted.out).at(1);
  EXPECT_TRUE(first["solutions_per_second"].is_number()) << first;
  EXPECT_TRUE(first["nodes_per_second"].is_number()) << first;
  const auto replayed = run({"count", "-n", "11", "--checkpoint", journal, "--format", "json"});
  ASSERT_EQ(replayed.exit_code, 0) << describe(replayed);
  const Json again = json_lines(replayed.out).at(1);
  EXPECT_EQ(again["total"], 2680);
  EXPECT_TRUE(again["solutions_per_second"].is_null()) << again;
  EXPECT_TRUE(again["nodes_per_second"].is_null()) << again;
  const auto text = run({"count", "-n", "11", "--checkpoint", journal, "--wide"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_EQ(words(lines_of(text.out).at(1)).at(6), "-") << text.out;
  std::filesystem::remove(journal);
}

TEST(CliCount, JsonLinesStartWithTheContextRecord) {
  const auto r = run({"count", "-n", "1-12", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  const std::vector<Json> lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 13u) << describe(r);

  ASSERT_EQ(keys_of(lines[0]), (std::vector<std::string>{"type", "context"})) << lines[0].dump();
  EXPECT_EQ(lines[0]["type"], "context");
  const Json& context = lines[0]["context"];
  EXPECT_EQ(keys_of(context), context_keys()) << context.dump();
  EXPECT_EQ(context["tool"], "nqueens");
  EXPECT_EQ(context["command"], "count");
  EXPECT_EQ(context["version"], program_version());
  ASSERT_TRUE(context["build_type"].is_string());
  EXPECT_FALSE(context["build_type"].get<std::string>().empty());
  ASSERT_TRUE(context["host_cpus"].is_number_integer());
  EXPECT_GE(context["host_cpus"].get<int>(), 1);
  EXPECT_EQ(context["threads"], context["host_cpus"]);  // no -t: every hardware thread
  ASSERT_TRUE(context["date"].is_string());
  EXPECT_TRUE(std::regex_match(context["date"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << context["date"];
  EXPECT_EQ(context["schema_version"], 1);

  for (int n = 1; n <= 12; ++n) {
    const Json& record = lines[static_cast<std::size_t>(n)];
    SCOPED_TRACE(record.dump());
    EXPECT_EQ(keys_of(record), typed(kRecordKeys));
    EXPECT_EQ(record["type"], "result");
    EXPECT_EQ(record["n"], n);
    EXPECT_EQ(record["total"], kA000170[static_cast<std::size_t>(n)]);
    EXPECT_EQ(record["unique"], kA002562[static_cast<std::size_t>(n)]);  // full symmetry by default
    EXPECT_EQ(record["expected_total"], kA000170[static_cast<std::size_t>(n)]);
    EXPECT_EQ(record["expected_unique"], kA002562[static_cast<std::size_t>(n)]);
    EXPECT_TRUE(record["verified"].is_null());  // no --verify
    ASSERT_TRUE(record["seconds"].is_number());
    EXPECT_GE(record["seconds"].get<double>(), 0.0);
    EXPECT_TRUE(record["solutions_per_second"].is_number() || record["solutions_per_second"].is_null());
    EXPECT_TRUE(record["nodes"].is_number_unsigned());
    EXPECT_TRUE(record["nodes_per_second"].is_number() || record["nodes_per_second"].is_null());
    EXPECT_EQ(record["threads"], context["threads"]);
    EXPECT_EQ(record["symmetry"], "full");
    EXPECT_TRUE(record["split_depth"].is_number_integer());
    EXPECT_TRUE(record["work_units"].is_number_unsigned());
  }
  // The nodes and units of a run depend on its engine and N, not on how many threads counted it.
  const std::string engine = lines[12]["engine"].get<std::string>();
  for (const char* threads : {"1", "3"}) {
    const std::vector<Json> again = count_records({"-n", "12", "-t", threads, "--engine", engine});
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(lines[12]["nodes"], again[0]["nodes"]) << threads << " threads";
    EXPECT_EQ(lines[12]["work_units"], again[0]["work_units"]) << threads << " threads";
  }
}

TEST(CliCount, VerifySetsVerifiedTrue) {
  const std::vector<Json> records = count_records({"-n", "1-12", "--verify"});
  ASSERT_EQ(records.size(), 12u);
  for (const Json& record : records) EXPECT_EQ(record["verified"], true) << record.dump();
}

TEST(CliCount, RecordsFollowTheOrderOfTheSpec) {
  const std::vector<Json> records = count_records({"-n", "12,8,10-11,1"});
  std::vector<int> sizes;
  for (const Json& record : records) sizes.push_back(record["n"].get<int>());
  EXPECT_EQ(sizes, (std::vector<int>{12, 8, 10, 11, 1}));
}

class CliSymmetry : public ::testing::TestWithParam<const char*> {};

TEST_P(CliSymmetry, TotalsMatchOeisInEveryMode) {
  const std::string mode = GetParam();
  const std::vector<Json> records = count_records({"-n", "1-13", "--symmetry", mode});
  ASSERT_EQ(records.size(), 13u);
  for (const Json& record : records) {
    SCOPED_TRACE(record.dump());
    const auto n = record["n"].get<std::size_t>();
    EXPECT_EQ(record["total"], kA000170[n]);
    EXPECT_EQ(record["symmetry"], mode);
    if (mode == "full")
      EXPECT_EQ(record["unique"], kA002562[n]);
    else
      EXPECT_TRUE(record["unique"].is_null());
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, CliSymmetry, ::testing::Values("none", "mirror", "full"));

TEST(CliCount, SplitDepthIsHonouredAndChangesNoTotal) {
  std::vector<std::uint64_t> units_at_13;
  for (int depth = 2; depth <= 4; ++depth) {
    const std::vector<Json> records = count_records({"-n", "8-13", "--split-depth", std::to_string(depth)});
    ASSERT_EQ(records.size(), 6u);
    for (const Json& record : records) {
      SCOPED_TRACE(record.dump());
      EXPECT_EQ(record["split_depth"], depth);
      EXPECT_EQ(record["total"], kA000170[record["n"].get<std::size_t>()]);
      EXPECT_EQ(record["unique"], kA002562[record["n"].get<std::size_t>()]);
    }
    units_at_13.push_back(records.back()["work_units"].get<std::uint64_t>());
  }
  EXPECT_LT(units_at_13[0], units_at_13[1]);  // deeper prefixes: more, smaller units
  EXPECT_LT(units_at_13[1], units_at_13[2]);
}

TEST(CliCount, ThreadCountsChangeNothing) {
  std::vector<Json> first;
  for (const char* threads : {"1", "2", "3", "8"}) {
    const auto r = run({"count", "-n", "10-12", "-t", threads, "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    std::vector<Json> lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), 4u) << describe(r);
    EXPECT_EQ(lines[0]["context"]["threads"], std::stoi(threads));
    for (std::size_t i = 1; i < lines.size(); ++i) {
      EXPECT_EQ(lines[i]["threads"], std::stoi(threads));
      // Keep only what must not depend on scheduling.
      Json fixed;
      for (const char* key : {"n", "total", "unique", "nodes", "split_depth", "work_units"}) fixed[key] = lines[i][key];
      if (first.size() < 3)
        first.push_back(fixed);
      else
        EXPECT_EQ(fixed, first[i - 1]) << "-t " << threads;
    }
  }
  ASSERT_EQ(first.size(), 3u);
  // The same with the long option name.
  const std::vector<Json> records = count_records({"-n", "12", "--threads", "2"});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["threads"], 2);
  EXPECT_EQ(records[0]["nodes"], first[2]["nodes"]);
}

// ---- engines ----------------------------------------------------------------------------------

TEST(CliEngine, BothEnginesGiveTheSameRecordButForEngineAndTimings) {
  for (const char* n : {"12", "13"}) {
    const auto dfs = run({"count", "-n", n, "--engine", "dfs", "--format", "json"});
    const auto join = run({"count", "-n", n, "--engine", "join", "--format", "json"});
    ASSERT_EQ(dfs.exit_code, 0) << describe(dfs);
    ASSERT_EQ(join.exit_code, 0) << describe(join);
    const Json a = json_lines(dfs.out).back(), b = json_lines(join.out).back();
    EXPECT_EQ(a["engine"], "dfs");
    EXPECT_EQ(b["engine"], "join");
    for (const char* field : {"total", "unique", "half_turn_fixed", "quarter_turn_fixed"})
      EXPECT_EQ(a[field], b[field]) << field << " at N=" << n;
  }
}

TEST(CliEngine, AJoinThatCannotRunIsExit2WithTheReason) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"count", "-n", "3", "--engine", "join"}, "the join engine cannot count N=3"},
      {{"count", "-n", "22", "-t", "2", "--engine", "join", "--memory", "10M"}, "is too small for N=22"},
      {{"count", "-n", "12", "--engine", "join", "--symmetry", "mirror"}, "so it takes no --symmetry mirror"},
      {{"count", "-n", "12", "--engine", "magic"}, "--engine"}};
  for (const auto& [args, message] : cases) {
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "") << describe(r);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    EXPECT_NE(r.err.find(message), std::string::npos) << describe(r);
  }
}

// ---- --memory --------------------------------------------------------------------------------

TEST(CliMemory, ABadSizeIsExit2WithOneLine) {
  for (const std::string size : {"4X", "0", "", "1.5.3G", "-1G", "4 G"}) {
    const auto r = run({"count", "-n", "8", "--memory", size});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "") << describe(r);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    EXPECT_NE(r.err.find("memory size"), std::string::npos) << describe(r);
  }
}

TEST(CliMemory, ABudgetTooSmallForOneUnitPerThreadIsRefused) {
  const auto r = run({"count", "-n", "16", "--engine", "join", "-t", "2", "--memory", "1M"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
  EXPECT_NE(r.err.find("a budget of 1.0 MiB is too small for N=16 on 2 thread(s): it needs at least"),
            std::string::npos)
      << describe(r);
}

TEST(CliMemory, TheLogSaysWhatTheRunWillUseAndTheCountIsTheSame) {
  const auto r =
      run({"count", "-n", "16", "--engine", "join", "-t", "2", "--memory", "3M", "--verify", "--log-level", "info"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("join engine: memory budget 3.0 MiB: unit list"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("14772512"), std::string::npos) << describe(r);
}

// The join at N = 24, where the whole quarter table would take 4.6 GB: a sample of units under an
// address-space limit of the budget plus a margin for the program itself (code, thread stacks).
// N = 25 to 27 below, under a smaller budget.
TEST(CliMemory, ASampleOfUnitsAtN24RunsWithinItsBudget) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  if (!std::filesystem::exists("/usr/bin/prlimit")) GTEST_SKIP() << "no prlimit";
  const std::uint64_t budget = std::uint64_t{3} << 30, margin = std::uint64_t{512} << 20;
  const harness::Outcome r = harness::run_program({"/usr/bin/prlimit", "--as=" + std::to_string(budget + margin),
                                                   NQUEENS_BINARY, "count", "-n", "24", "--engine", "join", "-t", "1",
                                                   "--memory", "3G", "--units", "0-2", "--no-progress"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"units\":677295"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("\"shard\":{\"units\":\"0-2\"}"), std::string::npos) << describe(r);
}

// Under 2 GiB the largest units' sides from N = 25 on (1.7e8 halves at N = 26 and 27, by the cost
// model) are more than a thread's buffers hold: they are enumerated in parts, and the run stays
// within the budget.
TEST(CliMemory, SamplesOfUnitsAtN25To27RunWithinTheirBudget) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  if (!std::filesystem::exists("/usr/bin/prlimit")) GTEST_SKIP() << "no prlimit";
  const std::uint64_t budget = std::uint64_t{2} << 30, margin = std::uint64_t{512} << 20;
  for (const auto& [n, units] : {std::pair{"25", "947565"}, std::pair{"26", "2602199"}, std::pair{"27", "3241097"}}) {
    const harness::Outcome r = harness::run_program(
        {"/usr/bin/prlimit", "--as=" + std::to_string(budget + margin), NQUEENS_BINARY, "count", "-n", n, "--engine",
         "join", "-t", "1", "--memory", "2G", "--units", "0-2", "--no-progress", "--log-level", "info"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_NE(r.out.find("\"units\":" + std::string(units)), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("halves in parts"), std::string::npos) << describe(r);
  }
}

// N = 16, long enough to time on most machines (runs under 0.1 s give no ratio: bench.hpp).
TEST(CliEngine, BenchComparesTheEnginesInOneRun) {
  const auto r = run({"bench", "-n", "16", "-t", "1", "-r", "1", "-w", "0", "--no-baseline", "--engines", "dfs,join",
                      "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<Json> lines = json_lines(r.out);
  ASSERT_GE(lines.size(), 3u) << describe(r);  // context, dfs, join, and the summary
  EXPECT_EQ(lines[1]["engine"], "dfs");
  EXPECT_EQ(lines[2]["engine"], "join");
  EXPECT_EQ(lines[1]["total"], 14772512);
  EXPECT_EQ(lines[2]["total"], 14772512);
  const double dfs = lines[1]["median_seconds"], join = lines[2]["median_seconds"];
  ASSERT_TRUE(lines[2]["vs_dfs"].is_number()) << describe(r);
  EXPECT_DOUBLE_EQ(lines[2]["vs_dfs"].get<double>(), dfs / join);
  EXPECT_TRUE(lines[2]["vs_baseline"].is_null()) << "--no-baseline";
}

// ---- count: CSV -----------------------------------------------------------------------------

TEST(CliCount, CsvHeaderNamesTheJsonFieldsInOrder) {
  const auto r = run({"count", "-n", "1-12", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 13u) << describe(r);
  const std::vector<std::string> header = split(lines[0], ',');
  EXPECT_EQ(header, kRecordKeys);
  EXPECT_EQ(typed(header), keys_of(count_records({"-n", "8"}).at(0))) << "CSV has no type column";
  for (int n = 1; n <= 12; ++n) {
    const std::vector<std::string> cells = split(lines[static_cast<std::size_t>(n)], ',');
    ASSERT_EQ(cells.size(), header.size()) << lines[static_cast<std::size_t>(n)];
    EXPECT_EQ(cells[0], std::to_string(n));
    EXPECT_EQ(cells[1], std::to_string(kA000170[static_cast<std::size_t>(n)]));
    EXPECT_EQ(cells[2], std::to_string(kA002562[static_cast<std::size_t>(n)]));
    EXPECT_EQ(cells[5], "");  // verified: null is an empty cell
    EXPECT_EQ(cells[11], "full");
  }
}

TEST(CliCount, CsvWritesNullsAsEmptyCellsAndBooleansAsWords) {
  const auto r = run({"count", "-n", "9", "--symmetry", "none", "--verify", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << describe(r);
  const std::vector<std::string> cells = split(lines[1], ',');
  ASSERT_EQ(cells.size(), kRecordKeys.size()) << lines[1];
  EXPECT_EQ(cells[1], "352");
  EXPECT_EQ(cells[2], "");  // unique: none mode does not find it
  EXPECT_EQ(cells[5], "true");
  EXPECT_EQ(cells[11], "none");
}

// ---- logging --------------------------------------------------------------------------------

TEST(CliLogging, InfoLogsGoToStderrAndStdoutStaysJson) {
  const auto r = run({"count", "-n", "8,10", "--log-level", "info", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> log = lines_of(r.err);
  ASSERT_EQ(log.size(), 4u) << describe(r);  // per N: the engine chosen, then the result
  EXPECT_NE(log[0].find("N=8: dfs engine"), std::string::npos) << describe(r);
  EXPECT_NE(log[1].find("N=8"), std::string::npos) << describe(r);
  EXPECT_NE(log[2].find("N=10: dfs engine"), std::string::npos) << describe(r);
  EXPECT_NE(log[3].find("N=10"), std::string::npos) << describe(r);
  std::vector<Json> lines;
  ASSERT_NO_THROW(lines = json_lines(r.out)) << describe(r);
  ASSERT_EQ(lines.size(), 3u) << describe(r);
  EXPECT_EQ(lines[2]["total"], 724);
}

TEST(CliLogging, EveryLevelIsAcceptedAndStdoutStaysClean) {
  for (const char* level : {"trace", "debug", "info", "warn", "error", "critical", "off"}) {
    const auto r = run({"count", "-n", "6", "--log-level", level, "--format", "csv"});
    EXPECT_EQ(r.exit_code, 0) << level << "\n" << describe(r);
    const std::vector<std::string> lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 2u) << level << "\n" << describe(r);
    EXPECT_EQ(split(lines[1], ',')[1], "4") << level;
    const bool chatty = std::string(level) == "trace" || std::string(level) == "debug" || std::string(level) == "info";
    EXPECT_EQ(r.err.empty(), !chatty) << level << "\n" << describe(r);
  }
}

TEST(CliLogging, QuietWritesNothingOnStderr) {
  for (const char* flag : {"-q", "--quiet"}) {
    const auto r = run({"count", "-n", "1-10", flag, "--verify"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.err, "") << describe(r);
    EXPECT_EQ(lines_of(r.out).size(), 11u) << describe(r);
  }
}

// ---- oeis -----------------------------------------------------------------------------------

TEST(CliOeis, TextTable) {
  const auto r = run({"oeis"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 29u) << describe(r);
  EXPECT_EQ(words(lines[0]), (std::vector<std::string>{"N", "total", "unique"}));
  for (std::size_t n = 0; n <= 27; ++n) {
    const std::string unique = n == 0 ? "-" : std::to_string(kA002562[n]);
    EXPECT_EQ(words(lines[n + 1]), (std::vector<std::string>{std::to_string(n), std::to_string(kA000170[n]), unique}));
  }
}

TEST(CliOeis, JsonLines) {
  const auto r = run({"oeis", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  const std::vector<Json> lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 29u) << describe(r);
  EXPECT_EQ(keys_of(lines[0]["context"]), context_keys());
  EXPECT_EQ(lines[0]["context"]["command"], "oeis");
  EXPECT_EQ(lines[0]["context"]["version"], program_version());
  for (std::size_t n = 0; n <= 27; ++n) {
    const Json& record = lines[n + 1];
    EXPECT_EQ(keys_of(record), (std::vector<std::string>{"type", "n", "total", "unique"})) << record.dump();
    EXPECT_EQ(record["n"], n);
    EXPECT_EQ(record["total"], kA000170[n]);
    if (n == 0)
      EXPECT_TRUE(record["unique"].is_null());
    else
      EXPECT_EQ(record["unique"], kA002562[n]);
  }
}

TEST(CliOeis, Csv) {
  const auto r = run({"oeis", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 29u) << describe(r);
  EXPECT_EQ(lines[0], "n,total,unique");
  EXPECT_EQ(lines[1], "0,1,");
  for (std::size_t n = 1; n <= 27; ++n)
    EXPECT_EQ(lines[n + 1], std::to_string(n) + "," + std::to_string(kA000170[n]) + "," + std::to_string(kA002562[n]));
}

// ---- numbers are decimal ------------------------------------------------------------------------

// CLI11 converts integers in base 0: without require_decimal_numbers, 010 was 8 and 08 an error.
// Each integer option of each command is given with a leading zero and read back from the output.
TEST(CliNumbers, LeadingZerosAreDecimalInEveryIntegerOption) {
  EXPECT_EQ(count_records({"-n", "8", "-t", "010"}).at(0)["threads"], 10);
  EXPECT_EQ(count_records({"-n", "8", "-t", "08"}).at(0)["threads"], 8);
  EXPECT_EQ(count_records({"-n", "8", "--engine", "dfs", "--split-depth", "03"}).at(0)["split_depth"], 3);

  const auto limited = run({"solve", "-n", "8", "--limit", "010", "--format", "perm"});
  ASSERT_EQ(limited.exit_code, 0) << describe(limited);
  EXPECT_EQ(lines_of(limited.out).size(), 10u);
  const auto solved = run({"solve", "-n", "4", "-t", "010", "--format", "json"});
  ASSERT_EQ(solved.exit_code, 0) << describe(solved);
  EXPECT_EQ(json_lines(solved.out).at(0)["context"]["threads"], 10);

  const auto bench = run({"bench", "-n", "4", "-r", "010", "-t", "01,02", "--no-baseline", "--format", "json"});
  ASSERT_EQ(bench.exit_code, 0) << describe(bench);
  const std::vector<Json> records = json_lines(bench.out);
  ASSERT_EQ(records.size(), 3u) << describe(bench);
  EXPECT_EQ(records[1]["repeats"], 10);
  EXPECT_EQ(records[1]["threads"], 1);
  EXPECT_EQ(records[2]["threads"], 2);
}

// ---- runtime failures: exit code 3 ----------------------------------------------------------

TEST(CliRuntime, UnwritableStdoutExitsThreeWithTheReason) {
  const std::vector<std::vector<std::string>> commands = {
      {"count", "-n", "8"},
      {"count", "-n", "8", "--format", "json"},
      {"count", "-n", "8", "--format", "csv"},
      {"count", "-n", "8", "--shard", "1/1"},
      {"oeis"},
      {"oeis", "--format", "json"},
  };
  for (const auto& args : commands) {
    const auto r = run(args, harness::Options::stdout_to("/dev/full"));
    EXPECT_EQ(r.exit_code, 3) << args[0] << " " << args.back() << "\n" << describe(r);
    const std::vector<std::string> lines = lines_of(r.err);
    ASSERT_EQ(lines.size(), 1u) << describe(r);
    EXPECT_EQ(lines[0], "nqueens: error: could not write to standard output: No space left on device") << describe(r);
  }
}

// The textbook baseline, which bench runs first, on one thread and without a word, is left out
// where its growth puts one run past a minute (from N = 18: minutes, months at N = 24), with a
// warning that says so, and the engines are timed. `bench -n 24 --engines join` ran it first.
TEST(CliRuntime, BenchLeavesOutABaselineItsCostModelPutsPastAMinute) {
  const auto r = run({"bench", "-n", "18", "-t", "2", "-r", "1", "-w", "0", "--engine", "join", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("N=18: the textbook baseline is left out: one run of it would take about "), std::string::npos)
      << describe(r);
  const std::vector<Json> records = json_lines(r.out);
  ASSERT_GE(records.size(), 2u) << describe(r);
  EXPECT_TRUE(records[1]["vs_baseline"].is_null()) << r.out;
  EXPECT_EQ(records[1]["total"], 666090624u) << r.out;
}

// --help and --version print through another path (CLI11's std::cout) and used to exit 0 on a
// full disk.
TEST(CliRuntime, UnwritableStdoutFailsHelpAndVersionToo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, {"count", "--help"}, {"--version"}, {"check", "-h"}}) {
    const auto r = run(args, harness::Options::stdout_to("/dev/full"));
    EXPECT_EQ(r.exit_code, 3) << args[0] << "\n" << describe(r);
    EXPECT_EQ(r.err, "nqueens: error: could not write to standard output: No space left on device\n") << describe(r);
  }
}

// The first failed write ends the run: the sizes after it are never counted. N = 17 sits between
// N = 8 and N = 16 so that the run would take seconds if it went on, but no time is measured:
// the log says which sizes were started.
TEST(CliRuntime, UnwritableStdoutStopsTheCountAtTheFirstFailedWrite) {
  const auto r = run({"count", "-n", "8,17,16", "-t", "2", "--log-level", "info", "--no-progress"},
                     harness::Options::stdout_to("/dev/full"));
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_NE(r.err.find("[info] N=8: "), std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("N=17"), std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("N=16"), std::string::npos) << describe(r);
}

// `count ... | head -1`: the reader has seen what it wanted. As with `solve`, the program stops at
// the first write that finds the pipe closed and ends quietly with exit 0. The pipe is closed
// after the first byte, while N = 17 (seconds on the DFS engine) is counted: its row is the first
// write to fail, so N = 16 is never started.
TEST(CliRuntime, ClosedStdoutEndsTheCountQuietlyAtTheNextRow) {
  for (const char* format : {"text", "json", "csv"}) {
    harness::Process process({NQUEENS_BINARY, "count", "-n", "8,17,16", "-t", "2", "--engine", "dfs", "--format",
                              format, "--log-level", "info", "--no-progress"});
    process.hang_up_after(1);
    const harness::Outcome r = process.wait();
    EXPECT_EQ(r.exit_code, 0) << format << "\n" << describe(r);
    EXPECT_EQ(r.err.find("error"), std::string::npos) << describe(r);
    EXPECT_EQ(r.err.find("N=16"), std::string::npos) << "went on counting after the reader had gone\n" << describe(r);
  }
}

// ---- bad input: exit code 2, one line on stderr, nothing on stdout ---------------------------

struct BadInput {
  const char* name;               //!< the test name
  std::vector<std::string> args;  //!< the command line
  const char* mentions;           //!< a piece of the error message ("" when none is fixed)
};

void PrintTo(const BadInput& bad, std::ostream* os) { *os << bad.name; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ExitsTwoWithOneLineOnStderrAndNothingOnStdout) {
  const BadInput& bad = GetParam();
  const auto r = run(bad.args);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_EQ(r.out, "") << describe(r);
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << describe(r);
  EXPECT_EQ(r.err.back(), '\n') << describe(r);
  EXPECT_EQ(lines[0].rfind("nqueens: error: ", 0), 0u) << describe(r);
  EXPECT_GT(lines[0].size(), std::string("nqueens: error: ").size()) << describe(r);
  EXPECT_NE(lines[0].find(bad.mentions), std::string::npos) << "expected to mention '" << bad.mentions << "'\n"
                                                            << describe(r);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadInput,
    ::testing::Values(
        // CLI11 2.1.2 reports an unknown subcommand as a missing one, without naming it.
        BadInput{"UnknownSubcommand", {"frobnicate"}, "frobnicate"},
        BadInput{"UnknownOption", {"count", "-n", "8", "--fast"}, "--fast"},
        BadInput{"UnknownOptionOeis", {"oeis", "--fast"}, "--fast"},
        BadInput{"MissingN", {"count"}, "no board size: give N"}, BadInput{"NWithoutValue", {"count", "-n"}, "--n"},
        BadInput{"NEmpty", {"count", "-n", ""}, "empty"}, BadInput{"NZero", {"count", "-n", "0"}, "out of range"},
        BadInput{"NTooLarge", {"count", "-n", "33"}, "out of range"},
        BadInput{"NHuge", {"count", "-n", "99999999999999999999"}, "out of range"},
        BadInput{"NNotANumber", {"count", "-n", "abc"}, "abc"},
        BadInput{"NWithSpace", {"count", "-n", " 8"}, "not a whole number"},
        BadInput{"NWithPlus", {"count", "-n", "+8"}, "not a whole number"},
        BadInput{"NRangeBackwards", {"count", "-n", "5-3"}, "5-3"},
        BadInput{"NRangeOpenEnd", {"count", "-n", "3-"}, "empty"},
        BadInput{"NNegative", {"count", "-n", "-3"}, "empty"},
        BadInput{"NEmptyListItem", {"count", "-n", "8,,9"}, "empty"},
        BadInput{"NTrailingComma", {"count", "-n", "8,"}, "empty"},
        BadInput{"NListedTwice", {"count", "-n", "8,8"}, "twice"},
        BadInput{"NInRangeAndList", {"count", "-n", "1-3,2"}, "twice"},
        BadInput{"NGivenTwice", {"count", "-n", "8", "-n", "9"}, "-n is given 2 times"},
        BadInput{"ThreadsZero", {"count", "-n", "8", "-t", "0"}, "--threads"},
        BadInput{"ThreadsNegative", {"count", "-n", "8", "-t", "-1"}, "--threads"},
        BadInput{"ThreadsTooMany", {"count", "-n", "8", "-t", "100000"}, "--threads"},
        BadInput{"ThreadsNotANumber", {"count", "-n", "8", "-t", "abc"}, "--threads"},
        BadInput{"ThreadsFraction", {"count", "-n", "8", "--threads", "1.5"}, "--threads"},
        BadInput{"ThreadsWithoutValue", {"count", "-n", "8", "-t"}, "--threads"},
        BadInput{"SplitDepthOne", {"count", "-n", "8", "--split-depth", "1"}, "split depth"},
        BadInput{"SplitDepthNine", {"count", "-n", "8", "--split-depth", "9"}, "split depth"},
        BadInput{"SplitDepthNotANumber", {"count", "-n", "8", "--split-depth", "x"}, "--split-depth"},
        // It was counted at the depth chosen from N, without a word.
        BadInput{"SplitDepthZero", {"count", "-n", "12", "--split-depth", "0"}, "0 is no split depth"},
        BadInput{"SplitDepthZeroPlan", {"plan", "-n", "12", "--split-depth", "00"}, "0 is no split depth"},
        BadInput{"SymmetryUnknown", {"count", "-n", "8", "--symmetry", "half"}, "--symmetry"},
        BadInput{"SymmetryTwice", {"count", "-n", "8", "--symmetry", "none", "--symmetry", "full"}, "--symmetry"},
        BadInput{"FormatUnknown", {"count", "-n", "8", "--format", "xml"}, "--format"},
        BadInput{"FormatUnknownOeis", {"oeis", "--format", "xml"}, "--format"},
        BadInput{"FormatTwice", {"count", "-n", "8", "--format", "json", "--format", "csv"}, "--format"},
        BadInput{"LogLevelUnknown", {"count", "-n", "8", "--log-level", "loud"}, "--log-level"},
        BadInput{"QuietWithLogLevel", {"count", "-n", "8", "-q", "--log-level", "info"}, "excludes"},
        BadInput{"ExtraPositional", {"count", "-n", "8", "extra"}, "extra"},
        BadInput{"ExtraPositionalOeis", {"oeis", "extra"}, "extra"},
        // Numbers are decimal in every option of every command (CLI11 alone reads 0x10 as 16).
        BadInput{"ThreadsHex", {"count", "-n", "8", "-t", "0x10"}, "--threads: 0x10 is not a whole number"},
        // CLI11's own checks in the words of ours: a range as 1..4096, a choice as a list.
        BadInput{"ThreadsZeroInRangeWords", {"count", "-n", "8", "-t", "0"}, "--threads: 0 is out of range 1..4096"},
        BadInput{
            "IntervalBelowRange", {"count", "-n", "8", "--progress-interval", "0"}, "0 is out of range 0.1..86400"},
        BadInput{"PlanBoardSizeZero", {"plan", "-n", "0"}, "board size 0 is out of range 1..32"},
        BadInput{"EngineNotAChoice", {"count", "-n", "8", "--engine", "fast"}, "fast is not one of auto, "},
        BadInput{
            "BenchOptionOnCount", {"count", "-n", "8", "--no-baseline"}, "--no-baseline: not an option or argument"},
        BadInput{"ThreadsExponent", {"count", "-n", "8", "-t", "1e1"}, "not a whole number in decimal digits"},
        BadInput{"SplitDepthHex", {"count", "-n", "8", "--split-depth", "0x3"}, "--split-depth"},
        BadInput{"SolveLimitHex", {"solve", "-n", "8", "--limit", "0x10"}, "--limit: 0x10 is not a whole number"},
        BadInput{"SolveThreadsHex", {"solve", "-n", "8", "-t", "0x2"}, "--threads: 0x2 is not a whole number"},
        BadInput{"BenchRepeatsHex", {"bench", "-n", "4", "-r", "0x2"}, "--repeats: 0x2 is not a whole number"},
        BadInput{"BenchThreadListHex", {"bench", "-n", "4", "-t", "1,0x2"}, "--threads: 0x2 is not a whole number"},
        BadInput{"ProgressIntervalNan", {"count", "-n", "8", "--progress-interval", "nan"}, "not a finite decimal"},
        BadInput{"ProgressIntervalInf", {"count", "-n", "8", "--progress-interval", "inf"}, "not a finite decimal"},
        BadInput{"ProgressIntervalHex", {"count", "-n", "8", "--progress-interval", "0x1p3"}, "not a finite decimal"},
        BadInput{"ProgressIntervalNegative", {"count", "-n", "8", "--progress-interval", "-1"}, "--progress-interval"},
        // An empty file name would otherwise mean "no journal" and "stdout".
        BadInput{"CheckpointEmpty", {"count", "-n", "8", "--checkpoint", ""}, "--checkpoint: the file name is empty"},
        BadInput{
            "OutputEmpty", {"count", "-n", "8", "--shard", "1/1", "--output", ""}, "--output: the file name is empty"},
        // CLI11's own forms, in our words.
        BadInput{"OptionTwice", {"count", "-n", "8", "-n", "9"}, "nqueens: error: -n is given 2 times: give it once"},
        // -n with a positional N is said as such by every command that takes board sizes.
        BadInput{"PlanNTwoWays", {"plan", "8", "-n", "9"}, "board sizes given twice: '8' as N and '9' with -n"},
        BadInput{"BenchNTwoWays", {"bench", "8", "-n", "9"}, "board sizes given twice: '8' as N and '9' with -n"},
        BadInput{"SolveNTwoWays", {"solve", "8", "-n", "9"}, "board sizes given twice: '8' as N and '9' with -n"},
        // A stray word beside -n is no second board size (it said "board sizes given twice").
        BadInput{"StrayWordBesideN",
                 {"count", "-n", "8", "extra"},
                 "unexpected argument 'extra': the board size is '8', given with -n"},
        // A value one letter off is named, as a mistyped option is.
        BadInput{"EngineMistyped", {"count", "-n", "8", "--engine", "gpus"}, "(did you mean gpu?)"},
        BadInput{"FormatMistyped", {"count", "-n", "8", "--format", "jsonl"}, "(did you mean json?)"},
        BadInput{"OptionWithoutValue", {"count", "8", "--threads"}, "--threads needs a value (INT)"},
        BadInput{"ShardWithoutValue", {"count", "8", "--shard"}, "--shard needs a value (I/K)"},
        BadInput{"MergeWithoutFiles", {"merge"}, "no files given: name at least one"}),
    [](const ::testing::TestParamInfo<BadInput>& param) { return std::string(param.param.name); });

// `--verify` exits 1 when a count disagrees with the OEIS. A correct engine never does, so that
// path can not be reached from outside; VerifySetsVerifiedTrue checks the other side (exit 0,
// `verified` true). Sizes past the table (N >= 28) are logged and not failed, but take far
// too long to count here.

}  // namespace

// More threads than the system will start (their stacks do not fit a 4 GiB address space): a
// runtime failure with the reason, never an abort from inside the thread library.
TEST(CliThreads, MoreThreadsThanTheSystemStartsIsExit3WithTheReason) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  for (const std::string command : {"count -n 12 --engine dfs", "count -n 12 --engine join", "solve -n 8 --limit 1",
                                    "bench -n 8 --no-baseline -r 1"}) {
    const harness::Outcome r = harness::run_program(
        {"/bin/bash", "-c", "ulimit -v 4194304; exec " + std::string(NQUEENS_BINARY) + " " + command + " -t 4096"});
    EXPECT_EQ(r.exit_code, 3) << command << ": " << describe(r);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << command << ": " << describe(r);
    EXPECT_NE(r.err.find("cannot run 4096 threads"), std::string::npos) << command << ": " << describe(r);
  }
}

namespace {

// The lowest limit, in steps of 250 KiB, under which the dynamic loader maps the program: below it
// the loader fails or crashes before the program runs (exit 127 or a signal, out of its reach). It
// grows with the program's size, so the tests of the lowest limits start from it rather than from
// a fixed number.
int lowest_limit_the_program_loads_under() {
  static const int lowest = [] {
    for (int kib = 12000; kib < 64000; kib += 250) {
      const harness::Outcome r = harness::run_program(
          {"/bin/bash", "-c",
           "ulimit -v " + std::to_string(kib) + "; exec " + std::string(NQUEENS_BINARY) + " version"});
      if (r.exit_code >= 0 && r.exit_code < 127) return kib;
    }
    return 64000;
  }();
  return lowest;
}

}  // namespace

// Under a low address-space limit a thread's stack or an allocation does not fit: the one line
// names that limit and a way on (it blamed `ulimit -u`, the process count, or was TBB's raw
// "pthread_create has failed"). Which of them fails first depends on the limit, so a range of
// limits is tried: each either counts or fails in one such line.
TEST(CliThreads, ALowAddressSpaceLimitIsNamedAsTheLimitMet) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  int failed = 0;
  const int lowest = lowest_limit_the_program_loads_under();
  for (const int kib : {lowest, lowest + 4000, lowest + 8000, lowest + 12000, lowest + 16000}) {
    const std::string limit = "ulimit -v " + std::to_string(kib);
    const harness::Outcome r = harness::run_program(
        {"/bin/bash", "-c", limit + "; exec " + std::string(NQUEENS_BINARY) + " count -n 12 --engine dfs -t 2"});
    if (r.exit_code == 0) continue;
    ++failed;
    EXPECT_EQ(r.exit_code, 3) << limit << ": " << describe(r);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << limit << ": " << describe(r);
    EXPECT_NE(r.err.find("the address-space limit (" + limit + ", in KiB)"), std::string::npos)
        << limit << ": " << describe(r);
    EXPECT_EQ(r.err.find("ulimit -u"), std::string::npos) << limit << ": " << describe(r);
  }
  EXPECT_GT(failed, 0) << "no limit tried was low enough to fail";
}

// A limit too low for the threads asked for is refused before anything starts, with how much
// they need and a thread count or limit that would do; each way on it names works (it advised a
// smaller --memory, which no budget satisfied: the threads' stacks and the thread library's own
// memory were not counted).
TEST(CliThreads, TheWayOnFromALowAddressSpaceLimitWorks) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const auto under = [](const std::string& limit, const std::string& threads) {
    return harness::run_program({"/bin/bash", "-c",
                                 "ulimit -v " + limit + "; exec " + std::string(NQUEENS_BINARY) +
                                     " count -n 12 --engine dfs --format csv -t " + threads});
  };
  const harness::Outcome refused = under("40000", "4");
  ASSERT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(lines_of(refused.err).size(), 1u) << describe(refused);
  EXPECT_EQ(refused.err.find("--memory"), std::string::npos) << describe(refused);
  const std::string raise = "raise the limit to ulimit -v ";
  const std::size_t at = refused.err.find(raise);
  ASSERT_NE(at, std::string::npos) << describe(refused);
  const std::string limit = std::to_string(std::stoul(refused.err.substr(at + raise.size())));
  const harness::Outcome raised = under(limit, "4");
  EXPECT_EQ(raised.exit_code, 0) << "ulimit -v " << limit << ": " << describe(raised);
  EXPECT_NE(raised.out.find("\n12,14200,"), std::string::npos) << raised.out;
  const std::string fewer = "give --threads ";
  const std::size_t given = refused.err.find(fewer);
  if (given != std::string::npos) {
    const std::string threads = std::to_string(std::stoi(refused.err.substr(given + fewer.size())));
    const harness::Outcome counted = under("40000", threads);
    EXPECT_EQ(counted.exit_code, 0) << "-t " << threads << ": " << describe(counted);
  }
}

// The limit a thread refusal names holds the count at once, from the lowest limit the program
// starts under: below about 30000 KiB it took two steps (at 20000, "raise the limit to ulimit -v
// 33216", which then named 47580), since there the program had not mapped all it maps under a
// higher limit (the unwinder's thread's stack, the rest of oneTBB's start), and the limit was
// reckoned from what it had. Followed once, each limit named counts, on one and two threads.
TEST(CliThreads, TheLimitAThreadRefusalNamesHoldsTheCountAtOnce) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const auto under = [](const std::string& limit, const std::string& threads) {
    return harness::run_program({"/bin/bash", "-c",
                                 "ulimit -v " + limit + "; exec " + std::string(NQUEENS_BINARY) +
                                     " count -n 12 --engine dfs --format csv -t " + threads});
  };
  const std::string raise = "raise the limit to ulimit -v ";
  int refused = 0;
  for (const char* threads : {"1", "2"})
    for (int kib = 18000; kib <= 42000; kib += 4000) {
      const harness::Outcome r = under(std::to_string(kib), threads);
      const std::size_t at = r.err.find(raise);
      if (r.exit_code == 0 || at == std::string::npos) continue;  // counts, or fails before any thread
      ++refused;
      const std::string limit = std::to_string(std::stoul(r.err.substr(at + raise.size())));
      const harness::Outcome raised = under(limit, threads);
      EXPECT_EQ(raised.exit_code, 0) << "at ulimit -v " << kib << " -t " << threads << ", advised " << limit << ": "
                                     << describe(raised);
    }
  EXPECT_GT(refused, 4) << "too few limits tried refused the threads";
}

// Under a limit too low for the program's own first thread the advice said "raise the limit or
// give fewer --threads", which --threads 1 cannot follow: now it says that fewer threads do not
// help, and the way on it names, a higher limit, counts. The limits just above the lowest the
// program loads under are tried: each is refused in such a line.
TEST(CliThreads, BelowOneThreadsRoomTheAdviceIsTheLimitAlone) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const auto under = [](const std::string& limit) {
    return harness::run_program({"/bin/bash", "-c",
                                 "ulimit -v " + limit + "; exec " + std::string(NQUEENS_BINARY) +
                                     " count -n 12 --engine dfs --format csv -t 1"});
  };
  const int lowest = lowest_limit_the_program_loads_under();
  for (int kib = lowest; kib <= lowest + 1000; kib += 250) {
    const harness::Outcome refused = under(std::to_string(kib));
    ASSERT_EQ(refused.exit_code, 3) << "ulimit -v " << kib << ": " << describe(refused);
    EXPECT_EQ(lines_of(refused.err).size(), 1u) << describe(refused);
    EXPECT_EQ(refused.err.find("give fewer --threads"), std::string::npos) << describe(refused);
    EXPECT_NE(refused.err.find("raise the limit"), std::string::npos) << describe(refused);
  }
  const harness::Outcome raised = under("80000");
  EXPECT_EQ(raised.exit_code, 0) << describe(raised);
  EXPECT_NE(raised.out.find("\n12,14200,"), std::string::npos) << raised.out;
}

// Under a limit that holds little more than the program, memory runs out before it can measure
// itself: the line said "raise the limit" without a number. The limit it names now counts at once,
// on the threads it names and on one.
TEST(CliThreads, TheLimitNamedWhenMemoryRunsOutAtTheStartHoldsTheCount) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const auto under = [](const std::string& limit, const std::string& threads) {
    return harness::run_program({"/bin/bash", "-c",
                                 "ulimit -v " + limit + "; exec " + std::string(NQUEENS_BINARY) +
                                     " count -n 12 --engine dfs --format csv -t " + threads});
  };
  const std::regex named("raise the limit to ulimit -v ([0-9]+) \\(for --threads ([0-9]+) or fewer\\)");
  int refused = 0;
  const int lowest = lowest_limit_the_program_loads_under();
  for (int kib = lowest - 1000; kib <= lowest + 1000; kib += 250) {
    const harness::Outcome r = under(std::to_string(kib), "1");
    if (r.err.find("out of memory before counting") == std::string::npos) continue;  // further on, or not started
    ++refused;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    std::smatch advice;
    ASSERT_TRUE(std::regex_search(r.err, advice, named)) << "at ulimit -v " << kib << ": " << describe(r);
    for (const std::string& threads : {advice[2].str(), std::string("1")}) {
      const harness::Outcome raised = under(advice[1].str(), threads);
      EXPECT_EQ(raised.exit_code, 0) << "at ulimit -v " << kib << ", advised " << advice[1] << ", -t " << threads
                                     << ": " << describe(raised);
      EXPECT_NE(raised.out.find("\n12,14200,"), std::string::npos) << raised.out;
    }
  }
  EXPECT_GT(refused, 0) << "no limit tried ran out of memory before counting";
}

// ---- what a newcomer types first ------------------------------------------------------------

TEST(CliNewcomer, BareProgramPrintsAShortUsageOnStderrAndExits2) {
  const harness::Outcome r = run({});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("usage: nqueens COMMAND"), std::string::npos) << r.err;
  for (const char* command : {"count", "merge", "check", "solve", "oeis", "bench", "version"})
    EXPECT_NE(r.err.find(std::string("  ") + command + " "), std::string::npos) << command << "\n" << r.err;
}

TEST(CliNewcomer, HelpCommandAndShortVersionFlag) {
  const harness::Outcome all = run({"help"});
  EXPECT_EQ(all.exit_code, 0) << describe(all);
  EXPECT_EQ(all.out, run({"--help"}).out);
  const harness::Outcome count = run({"help", "count"});
  EXPECT_EQ(count.exit_code, 0) << describe(count);
  EXPECT_EQ(count.out, run({"count", "--help"}).out);
  const harness::Outcome version = run({"-V"});
  EXPECT_EQ(version.exit_code, 0) << describe(version);
  EXPECT_EQ(version.out, run({"--version"}).out);
  const harness::Outcome unknown = run({"help", "cont"});
  EXPECT_EQ(unknown.exit_code, 2) << describe(unknown);
  EXPECT_NE(unknown.err.find("did you mean 'count'?"), std::string::npos) << unknown.err;
}

TEST(CliNewcomer, AMistypedCommandOrOptionNamesTheClosestOne) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"cout", "-n", "8"}, "unknown command 'cout': did you mean 'count'?"},
      {{"count", "-n", "8", "--threds", "2"}, "unknown option --threds: did you mean --threads?"},
      {{"count", "-n", "8", "--verfy"}, "unknown option --verfy: did you mean --verify?"},
      {{"solve", "-n", "8", "--limt", "1"}, "unknown option --limt: did you mean --limit?"},
      // An unknown option before a value that CLI11 then reads as a second N, and a wrong case.
      {{"count", "--thread", "2", "-n", "8"}, "unknown option --thread: did you mean --threads?"},
      {{"count", "-N", "8"}, "unknown option -N: did you mean -n?"},
      {{"count", "8", "-T", "2"}, "unknown option -T: did you mean -t?"}};
  for (const auto& [args, message] : cases) {
    const harness::Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  const harness::Outcome far = run({"count", "-n", "8", "--zzzzzz"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

// Every command that takes board sizes takes them as N or -n; help marks neither as REQUIRED
// twice, and a command given none, or both, says so in one line of its own words.
TEST(CliNewcomer, EveryCommandTakesNPositionallyOrWithDashN) {
  EXPECT_EQ(run({"solve", "6", "--format", "perm"}).out, run({"solve", "-n", "6", "--format", "perm"}).out);
  const harness::Outcome bench = run({"bench", "8", "-t", "1", "-r", "1", "--no-baseline", "--format", "csv"});
  ASSERT_EQ(bench.exit_code, 0) << describe(bench);
  EXPECT_EQ(lines_of(bench.out).at(1).rfind("8,", 0), 0u) << bench.out;
  for (const char* command : {"count", "solve"}) {
    SCOPED_TRACE(command);
    const harness::Outcome help = run({command, "--help"});
    EXPECT_EQ(help.out.find("REQUIRED"), std::string::npos) << help.out;
    const harness::Outcome none = run({command});
    EXPECT_EQ(none.exit_code, 2) << describe(none);
    EXPECT_EQ(none.err, std::string("nqueens: error: no board size: give N, as in `nqueens ") + command +
                            " 16` or `nqueens " + command + " -n 16`\n");
    const harness::Outcome both = run({command, "8", "-n", "9"});
    EXPECT_EQ(both.exit_code, 2) << describe(both);
    EXPECT_EQ(both.err, "nqueens: error: board sizes given twice: '8' as N and '9' with -n (give one)\n");
  }
}

TEST(CliNewcomer, SizesArePositionalAndShortOptionsTakeAnEqualsSign) {
  const std::string expected = run({"count", "-n", "9", "-t", "1", "--format", "csv"}).out;
  const auto without_seconds = [](const std::string& csv) { return csv.substr(0, csv.find("\n")); };
  for (const std::vector<std::string>& args : {std::vector<std::string>{"count", "9", "-t", "1", "--format", "csv"},
                                               {"count", "-n=9", "-t=1", "--format", "csv"}}) {
    const harness::Outcome r = run(args);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(without_seconds(r.out), without_seconds(expected));
    EXPECT_NE(r.out.find("\n9,352,46,"), std::string::npos) << r.out;
  }
}

TEST(CliNewcomer, CheckOfAMissingFileIsAnErrorOnStderr) {
  const harness::Outcome r = run({"check", "/nonexistent/n20.journal"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
  EXPECT_EQ(r.err.rfind("nqueens: error: ", 0), 0u) << r.err;
}
