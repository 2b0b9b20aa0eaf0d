// `nqueens-mpi` under `mpirun` on this machine, as a cluster user would run it: the same records
// as `nqueens count` in every symmetry mode and format, with 2 and 3 ranks (more ranks than
// cores: oversubscribed); a checkpoint journal resumed across rank counts and across the two
// programs; SIGTERM and a killed rank ending the job instead of hanging it; bad input and a
// failing rank reported in one line.
//
// mpirun runs with -q (no banners of its own), --oversubscribe, --bind-to none (two jobs of a
// parallel ctest must not pin their ranks to the same core), --allow-run-as-root (CI runs as
// root) and the shared-memory transport only: containers often forbid the cross-memory attach
// that Open MPI would otherwise use for large messages, hence single_copy_mechanism=none.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// ---- running the programs ---------------------------------------------------------------------

// `environment`: NAME=VALUE settings for every rank (mpirun -x).
std::vector<std::string> mpirun(int ranks, const std::vector<std::string>& environment = {}) {
  std::vector<std::string> command = {NQUEENS_MPIEXEC, "-q",   "--oversubscribe",
                                      "--bind-to",     "none", "--allow-run-as-root"};
  for (const std::string& setting : environment) command.insert(command.end(), {"-x", setting});
  const std::vector<std::pair<std::string, std::string>> settings = {
      {"btl", "self,vader"},
      {"btl_vader_single_copy_mechanism", "none"},
  };
  for (const auto& [name, value] : settings) command.insert(command.end(), {"--mca", name, value});
  command.insert(command.end(), {"-np", std::to_string(ranks), NQUEENS_MPI_BINARY});
  return command;
}

// The CPUs this process may run on, as a rank started with --bind-to none sees them.
int hardware_threads_here() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return 1;
  return CPU_COUNT(&cpus);
}

std::vector<std::string> operator+(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

using harness::describe;
using harness::lines_of;
using harness::Outcome;
using harness::read_bytes;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A program started with stdout and stderr going to files in `dir`, so that it can be signalled
// while it runs and its output still read afterwards.
harness::Process start(std::vector<std::string> command, const fs::path& dir) {
  return harness::Process(std::move(command), harness::Options::captured_in(dir));
}

// ---- reading the output -----------------------------------------------------------------------

// A JSON Lines record without what may differ between two correct runs: the timings, and in
// the context record the date, the thread count and the host's CPU count.
Json comparable(Json record) {
  for (const char* field : {"seconds", "solutions_per_second", "nodes_per_second", "unit_seconds"}) record.erase(field);
  if (record.contains("context"))
    for (const char* field : {"date", "threads", "host_cpus"}) record["context"].erase(field);
  return record;
}

std::vector<Json> comparable_records(const std::string& json_lines) {
  std::vector<Json> records;
  for (const std::string& line : lines_of(json_lines)) records.push_back(comparable(Json::parse(line)));
  return records;
}

// Journal lines are "U <id> <total> ...": the ids recorded, each once. A torn last line (a
// process killed while writing) is no record.
std::multiset<std::size_t> journal_ids(const std::string& bytes) {
  std::multiset<std::size_t> ids;
  for (const std::string& line : lines_of(bytes.substr(0, bytes.rfind('\n') + 1)))
    if (line.rfind("U ", 0) == 0) ids.insert(std::stoul(line.substr(2)));
  return ids;
}

std::multiset<std::size_t> journal_ids(const fs::path& journal) { return journal_ids(read_bytes(journal)); }

// The summed time of a format 3 journal's records ("U <id> <total> <o1> <o2> <o4> <o8> <nodes>
// <microseconds> <crc>"), in microseconds; nullopt if a record has no time.
std::optional<std::uint64_t> journal_microseconds(const fs::path& journal) {
  std::uint64_t sum = 0;
  for (const std::string& line : lines_of(read_bytes(journal))) {
    if (line.rfind("U ", 0) != 0) continue;
    std::istringstream fields(line);
    std::vector<std::string> words{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    if (words.size() != 10 || words[8].find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    sum += std::stoull(words[8]);
  }
  return sum;
}

std::size_t count_prefixed(const std::string& text, const std::string& prefix) {
  std::size_t count = 0;
  for (const std::string& line : lines_of(text)) count += line.rfind(prefix, 0) == 0;
  return count;
}

class Mpi : public testing::Test {
 protected:
  void SetUp() override { dir_ = harness::fresh_test_directory("nqueens-mpi"); }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::vector<std::string>& args) {
    std::optional<Outcome> outcome = start(args, dir_).wait_for(std::chrono::seconds(120));
    if (!outcome) throw std::runtime_error("hung, killed after 120 s");
    return *outcome;
  }
  Outcome single(const std::vector<std::string>& args) { return run(std::vector<std::string>{NQUEENS_BINARY} + args); }
  Outcome ranks(int count, const std::vector<std::string>& args) { return run(mpirun(count) + args); }

  fs::path dir_;
};

// ---- the same results as the single-process engine ----------------------------------------------

struct Layout {
  int ranks;
  const char* symmetry;
};

// Readable test names in ctest's list instead of the bytes of the struct.
void PrintTo(const Layout& layout, std::ostream* out) { *out << layout.ranks << " ranks, " << layout.symmetry; }

class MpiAgrees : public Mpi, public testing::WithParamInterface<Layout> {};

TEST_P(MpiAgrees, JsonRecordsForN1To14EqualTheSingleProcessOnes) {
  const std::vector<std::string> args = {"count", "-n", "1-14",     "--symmetry", GetParam().symmetry,
                                         "-t",    "1",  "--format", "json"};
  const Outcome alone = single(args);
  const Outcome spread = ranks(GetParam().ranks, args);
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  ASSERT_EQ(spread.exit_code, 0) << describe(spread);
  EXPECT_EQ(spread.err, "");
  const std::vector<Json> expected = comparable_records(alone.out);
  const std::vector<Json> got = comparable_records(spread.out);
  ASSERT_EQ(got.size(), 15u) << spread.out;  // the context, then N = 1..14
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "record " << i;
}

INSTANTIATE_TEST_SUITE_P(RanksAndModes, MpiAgrees,
                         testing::Values(Layout{2, "none"}, Layout{2, "mirror"}, Layout{2, "full"}, Layout{3, "none"},
                                         Layout{3, "mirror"}, Layout{3, "full"}),
                         [](const testing::TestParamInfo<Layout>& param) {
                           return std::to_string(param.param.ranks) + "_ranks_" + param.param.symmetry;
                         });

TEST_F(Mpi, CsvAndVerifiedTextMatchNqueens) {
  const std::vector<std::string> csv = {"count", "-n", "10-13", "-t", "2", "--format", "csv"};
  const Outcome alone = single(csv);
  const Outcome spread = ranks(2, csv);
  ASSERT_EQ(spread.exit_code, 0) << describe(spread);
  const std::vector<std::string> want = lines_of(alone.out), got = lines_of(spread.out);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(got[0], want[0]);  // the header row
  // Every cell but seconds, solutions/s, nodes/s and unit_seconds (columns 7, 8, 10 and 18).
  auto cells = [](const std::string& row) {
    std::vector<std::string> kept;
    std::istringstream in(row);
    int column = 0;
    for (std::string cell; std::getline(in, cell, ',');)
      if (++column != 7 && column != 8 && column != 10 && column != 18) kept.push_back(cell);
    return kept;
  };
  for (std::size_t i = 1; i < want.size(); ++i) EXPECT_EQ(cells(got[i]), cells(want[i])) << got[i];

  // The table: every column before `seconds` (N, total, unique, expected, status).
  const std::vector<std::string> verified = {"count", "-n", "8-12", "--verify", "--wide"};
  const Outcome table = ranks(3, verified);
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  auto leading = [](const std::string& row) {
    std::istringstream in(row);
    std::vector<std::string> words(5);
    for (std::string& word : words) in >> word;
    return words;
  };
  const std::vector<std::string> want_rows = lines_of(single(verified).out), got_rows = lines_of(table.out);
  ASSERT_EQ(got_rows.size(), 6u) << table.out;
  for (std::size_t i = 0; i < want_rows.size(); ++i) EXPECT_EQ(leading(got_rows[i]), leading(want_rows[i]));
  EXPECT_EQ(leading(got_rows[1])[4], "ok");
}

TEST_F(Mpi, ShardsCountedUnderMpiMergeIntoTheTotal) {
  for (const char* shard : {"1/2", "2/2"}) {
    const Outcome counted = ranks(2, {"count", "-n", "13", "--shard", shard, "--output",
                                      (dir_ / (std::string("s") + shard[0] + ".json")).string()});
    ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  }
  const Outcome merged =
      single({"merge", (dir_ / "s1.json").string(), (dir_ / "s2.json").string(), "--verify", "--format", "json"});
  ASSERT_EQ(merged.exit_code, 0) << describe(merged);
  EXPECT_EQ(Json::parse(lines_of(merged.out).back())["total"], 73712);
}

// The rank's pid, among mpirun's children (mpirun starts the ranks of a local job itself).
std::optional<pid_t> rank_pid(pid_t mpirun_pid, int rank) {
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::istringstream stat(read_bytes(entry.path() / "stat"));
    std::string pid, command, state;
    pid_t parent = 0;
    stat >> pid >> command >> state >> parent;
    if (parent != mpirun_pid) continue;
    const std::string environment = read_bytes(entry.path() / "environ");
    if (environment.find("OMPI_COMM_WORLD_RANK=" + std::to_string(rank) + '\0') != std::string::npos)
      return static_cast<pid_t>(std::stoi(pid));
  }
  return std::nullopt;
}

// ---- checkpoint and resume ------------------------------------------------------------------------

// The header and the first half of a journal's records (`lines`), written to `partial`: what a
// job that died halfway would leave.
void write_first_half(const std::vector<std::string>& lines, const fs::path& partial) {
  std::ofstream seed(partial);
  for (std::size_t i = 0; i < 1 + (lines.size() - 1) / 2; ++i) seed << lines[i] << '\n';
}

// A journal with the first half of its units, as a job that died halfway would leave it; the
// MPI job finishes it, a rerun answers from it, and `nqueens` reads it too.
TEST_F(Mpi, ResumesAPartialJournalWithAnyRankCount) {
  const fs::path full = dir_ / "full.journal", partial = dir_ / "partial.journal";
  const Outcome whole = single({"count", "-n", "14", "--checkpoint", full.string(), "--format", "json"});
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);
  const std::vector<std::string> lines = lines_of(read_bytes(full));
  write_first_half(lines, partial);
  const std::size_t units = lines.size() - 1;

  const std::vector<std::string> args = {"count", "-n", "14", "--checkpoint", partial.string(), "--format", "json"};
  const Outcome resumed = ranks(3, args);
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  EXPECT_EQ(comparable(Json::parse(lines_of(resumed.out).back())), comparable(Json::parse(lines_of(whole.out).back())));
  const std::multiset<std::size_t> ids = journal_ids(partial);
  EXPECT_EQ(ids.size(), units);
  EXPECT_EQ(std::set<std::size_t>(ids.begin(), ids.end()).size(), units) << "a unit was recorded twice";
  // Every rank's units reach rank 0 with their time: the journal has one for every record, and
  // the result's unit time is their sum, the half counted before the job included.
  const std::optional<std::uint64_t> microseconds = journal_microseconds(partial);
  ASSERT_TRUE(microseconds.has_value()) << read_bytes(partial);
  const Json record = Json::parse(lines_of(resumed.out).back());
  EXPECT_EQ(record["unit_seconds"], static_cast<double>(*microseconds) / 1e6);

  const std::string before = read_bytes(partial);
  const Outcome again = ranks(2, args);
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(Json::parse(lines_of(again.out).back())["total"], 365596);
  EXPECT_EQ(read_bytes(partial), before) << "a finished journal must not change";
  const Outcome alone = single(args);
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  EXPECT_EQ(Json::parse(lines_of(alone.out).back())["nodes"], Json::parse(lines_of(whole.out).back())["nodes"]);
}

// "Run the same command again" resumes under either program: a journal that `nqueens count
// --engine dfs` started at N = 14, where `auto` takes the join engine, is resumed by nqueens-mpi
// without --engine with the dfs engine on every rank (rank 0 reads the journal, the others
// follow), not refused as the journal of another run; finished, it answers at once.
TEST_F(Mpi, AutoResumesAJournalWithTheEngineItWasStartedWith) {
  const fs::path full = dir_ / "full.journal", partial = dir_ / "partial.journal";
  const Outcome whole =
      single({"count", "-n", "14", "--engine", "dfs", "--checkpoint", full.string(), "--format", "json"});
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);
  const std::vector<std::string> lines = lines_of(read_bytes(full));
  write_first_half(lines, partial);
  const std::size_t units = lines.size() - 1;

  const Outcome resumed =
      ranks(2, {"count", "-n", "14", "--checkpoint", partial.string(), "--format", "json", "--log-level", "info"});
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  EXPECT_NE(resumed.err.find("resuming with the dfs engine the journal was started with"), std::string::npos)
      << resumed.err;
  const Json record = Json::parse(lines_of(resumed.out).back());
  EXPECT_EQ(record["engine"], "dfs");
  EXPECT_EQ(record["total"], 365596);
  EXPECT_EQ(comparable(record), comparable(Json::parse(lines_of(whole.out).back())));
  const std::multiset<std::size_t> ids = journal_ids(partial);
  EXPECT_EQ(ids.size(), units) << "a unit the journal held was counted again";
  EXPECT_EQ(std::set<std::size_t>(ids.begin(), ids.end()).size(), units);

  const std::string before = read_bytes(full);
  const Outcome finished = ranks(2, {"count", "-n", "14", "--checkpoint", full.string(), "--format", "json"});
  ASSERT_EQ(finished.exit_code, 0) << describe(finished);
  EXPECT_EQ(Json::parse(lines_of(finished.out).back())["engine"], "dfs");
  EXPECT_EQ(Json::parse(lines_of(finished.out).back())["total"], 365596);
  EXPECT_EQ(read_bytes(full), before) << "a finished journal must not change";
}

// Journals of this build's format written by an earlier build (tests/files/fixtures, checked in:
// half of `count -n 14 --engine dfs` and `--engine join`) are finished by the job as `nqueens
// count` (ResumeCli.CheckedInJournalsAndShardFilesOfThisFormatResumeAndMerge) and the library's
// count() (CountResume.CheckedInJournalsOfThisFormatAreFinished) finish them: with the engine each
// was started with, counting only the units it lacks.
TEST_F(Mpi, ResumesTheCheckedInJournalsOfThisFormat) {
  const fs::path fixtures = fs::path(NQUEENS_SOURCE_DIR) / "tests/files/fixtures";
  for (const std::string engine : {"dfs", "join"}) {
    SCOPED_TRACE(engine);
    const fs::path journal = dir_ / ("n14-" + engine + ".journal");
    fs::copy_file(fixtures / ("n14-" + engine + "-half.journal"), journal);
    const std::vector<std::string> lines = lines_of(read_bytes(journal));
    const std::size_t held = lines.size() - 1;
    const std::size_t units_at = lines.front().find(" units=") + 7;  // the run's unit count, from its header
    const std::size_t units = std::stoul(lines.front().substr(units_at, lines.front().find(' ', units_at) - units_at));
    const Outcome resumed =
        ranks(2, {"count", "-n", "14", "--checkpoint", journal.string(), "--format", "json", "--log-level", "info"});
    ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
    EXPECT_NE(resumed.err.find(std::to_string(held) + " units already counted"), std::string::npos) << resumed.err;
    const Json record = Json::parse(lines_of(resumed.out).back());
    EXPECT_EQ(record["engine"], engine);
    EXPECT_EQ(record["total"], 365596);
    EXPECT_EQ(record["unique"], 45752);
    const std::multiset<std::size_t> ids = journal_ids(journal);
    EXPECT_EQ(ids.size(), units) << "a unit the journal held was counted again, or one is missing";
    EXPECT_EQ(std::set<std::size_t>(ids.begin(), ids.end()).size(), units);
  }
}

// A unit journaled twice (its batch written again, say) is one unit: rank 0 replays it once,
// counts only what the journal lacks, and the result is exact.
TEST_F(Mpi, RepeatedRecordsInAJournalCountOnce) {
  const fs::path full = dir_ / "full.journal", repeated = dir_ / "repeated.journal";
  const Outcome whole = single({"count", "-n", "14", "--checkpoint", full.string(), "--format", "json"});
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);
  const std::vector<std::string> lines = lines_of(read_bytes(full));
  const std::size_t units = lines.size() - 1, half = units / 2;
  std::ofstream seed(repeated);
  seed << lines[0] << '\n';
  for (std::size_t i = 1; i <= half; ++i) seed << lines[i] << '\n';
  for (std::size_t i = 1; i <= half; i += 3) seed << lines[i] << '\n';  // a third of them again
  seed.close();

  const Outcome resumed = ranks(3, {"count", "-n", "14", "--checkpoint", repeated.string(), "--format", "json"});
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  EXPECT_EQ(comparable(Json::parse(lines_of(resumed.out).back())), comparable(Json::parse(lines_of(whole.out).back())));
  const std::multiset<std::size_t> ids = journal_ids(repeated);
  EXPECT_EQ(std::set<std::size_t>(ids.begin(), ids.end()).size(), units);
  EXPECT_EQ(ids.size(), units + (half + 2) / 3) << "only the repeats written before the job may be there twice";
}

// Waits until the journal holds `units` units (or a minute passes).
void wait_for_units(const fs::path& journal, std::size_t units) {
  const Clock::time_point give_up = Clock::now() + std::chrono::seconds(60);
  while (journal_ids(journal).size() < units && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// SIGTERM to mpirun, as `kill` or Ctrl-C gives it: mpirun passes SIGTERM on to every rank (a
// second after SIGCONT), the job stops, and the same command with another rank count finishes
// the run. The join engine's run of N = 19 has 30,679 row-set units and the rotation unit, and
// lasts long enough on two ranks of one thread to be interrupted more than a second in (N = 17
// now ends within that second).
TEST_F(Mpi, InterruptedJobResumesWithAnotherRankCount) {
  const fs::path journal = dir_ / "n19.journal";
  const std::vector<std::string> args = {
      "count", "-n", "19", "-t", "1", "--checkpoint", journal.string(), "--no-progress", "--engine", "join"};
  harness::Process job = start(mpirun(2) + args, dir_);
  wait_for_units(journal, 20);
  job.signal(SIGTERM);
  const std::optional<Outcome> stopped = job.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(stopped) << "mpirun did not end within 20 s of SIGTERM";
  EXPECT_NE(stopped->exit_code, 0) << describe(*stopped);
  EXPECT_EQ(stopped->out, "");
  const std::size_t saved = journal_ids(journal).size();
  EXPECT_GE(saved, 20u);
  EXPECT_LT(saved, 30680u);

  const Outcome resumed = ranks(3, args + std::vector<std::string>{"--format", "json", "--verify"});
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  const Json record = Json::parse(lines_of(resumed.out).back());
  EXPECT_EQ(record["total"], 4968057848);
  EXPECT_EQ(record["verified"], true);
  EXPECT_EQ(record["engine"], "join");
  EXPECT_EQ(journal_ids(journal).size(), 30680u);
}

// SIGTERM to every rank, as Slurm sends it at a time limit: each rank stops, rank 0 saves what
// finished and says so (mpirun gives rank 0 its time: it waits a second after the first rank
// exits), and `nqueens` on one machine finishes the journal.
TEST_F(Mpi, SigtermToEveryRankSavesAndSaysHowToResume) {
  const fs::path journal = dir_ / "n17.journal";
  const std::vector<std::string> args = {"count",         "-n",       "17", "--checkpoint", journal.string(),
                                         "--no-progress", "--engine", "dfs"};
  harness::Process job = start(mpirun(3) + args + std::vector<std::string>{"-t", "1"}, dir_);
  wait_for_units(journal, 20);
  for (const int rank : {0, 1, 2}) {
    const std::optional<pid_t> pid = rank_pid(job.pid(), rank);
    ASSERT_TRUE(pid) << "rank " << rank << " not found among mpirun's children";
    kill(*pid, SIGTERM);
  }
  const std::optional<Outcome> stopped = job.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(stopped) << "the job did not end within 20 s of SIGTERM";
  EXPECT_NE(stopped->exit_code, 0);
  EXPECT_EQ(stopped->out, "");
  const std::size_t saved = journal_ids(journal).size();
  const std::string said = "units are saved in " + journal.string() + ": run the same command again to resume";
  ASSERT_EQ(count_prefixed(stopped->err, "nqueens-mpi: interrupted by SIGTERM after "), 1u) << describe(*stopped);
  EXPECT_NE(stopped->err.find("; " + std::to_string(saved) + " of 1031 " + said), std::string::npos)
      << describe(*stopped);

  const Outcome finished = single(args + std::vector<std::string>{"--format", "json", "--verify"});
  ASSERT_EQ(finished.exit_code, 0) << describe(finished);
  EXPECT_EQ(Json::parse(lines_of(finished.out).back())["total"], 95815104);
}

// Several N with --checkpoint: rank 0 keeps one journal per N in the directory, and a rerun
// answers every N from them.
TEST_F(Mpi, CheckpointOfSeveralSizesKeepsOneJournalPerN) {
  const fs::path journals = dir_ / "range";
  const std::vector<std::string> args = {"count", "-n", "9-10", "--checkpoint", journals.string(), "--format", "json"};
  const Outcome first = ranks(2, args);
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  EXPECT_TRUE(fs::is_regular_file(journals / "n9.journal"));
  EXPECT_TRUE(fs::is_regular_file(journals / "n10.journal"));
  const Outcome again = ranks(2, args);
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(Json::parse(lines_of(again.out).back())["total"], 724);
  EXPECT_EQ(Json::parse(lines_of(again.out)[1])["total"], 352);
}

// Rank 0 tries every N's journal before any rank counts: N = 8 was counted and printed before
// n9.journal, read-only, ended the job.
TEST_F(Mpi, ALaterNsReadOnlyJournalEndsTheJobBeforeAnyNIsCounted) {
  const fs::path journals = dir_ / "w";
  const std::vector<std::string> args = {"count", "-n", "8,9",          "--engine",       "dfs",
                                         "-t",    "1",  "--checkpoint", journals.string()};
  ASSERT_EQ(single(args).exit_code, 0);
  fs::remove(journals / "n8.journal");
  std::string bytes = read_bytes(journals / "n9.journal");
  bytes.resize(bytes.rfind('\n', bytes.size() - 2) + 1);  // its last unit never finished
  std::ofstream(journals / "n9.journal", std::ios::binary | std::ios::trunc) << bytes;
  if (!harness::make_read_only(journals / "n9.journal")) GTEST_SKIP() << "no way to make a file read-only here";
  const Outcome refused = ranks(2, args);
  harness::make_read_only(journals / "n9.journal", false);
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(refused.out, "") << describe(refused);
  EXPECT_EQ(count_prefixed(refused.err, "nqueens-mpi: error: cannot write to journal"), 1u) << describe(refused);
  EXPECT_FALSE(fs::exists(journals / "n8.journal"));
}

// Every rank makes its requests and memory plans once for the command, before any N is counted,
// on its own threads (-t is each rank's, by default the CPUs it may use). Here rank 0 may use one
// CPU and rank 1 all of this machine's: N = 16's join plan fits 1800 KiB on one thread, not on
// two, so the job ends before N = 12 is counted, in one line from rank 0 that names rank 1, exit 2
// (each rank but 0 planned N as its turn came: N = 12 was printed, then rank 1's refusal ended the
// job with exit 3). With room for both, each rank counts on its own threads.
TEST_F(Mpi, EveryRankPlansEveryNOnItsOwnThreadsBeforeAnyIsCounted) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0 || CPU_COUNT(&allowed) < 2)
    GTEST_SKIP() << "rank 1 needs more CPUs than rank 0's one";
  int first = 0;
  while (!CPU_ISSET(first, &allowed)) ++first;
  const auto rank_0_on_one_cpu = [this, first](const std::string& memory) {
    std::vector<std::string> command = mpirun(2);
    command.pop_back();  // the program, started through the shell instead
    const std::string bind = R"(if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then exec taskset -c )" + std::to_string(first) +
                             R"( "$0" "$@"; fi; exec "$0" "$@")";
    return run(command + std::vector<std::string>{"/bin/sh", "-c", bind, NQUEENS_MPI_BINARY, "count", "-n", "12,16",
                                                  "--engine", "join", "--memory", memory, "--format", "csv"});
  };
  const Outcome refused = rank_0_on_one_cpu("1800K");
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_EQ(refused.out, "") << describe(refused);
  EXPECT_EQ(count_prefixed(refused.err, "nqueens-mpi: error: "), 1u) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "nqueens-mpi: error: rank 1: the join engine cannot count N=16")) << refused.err;
  EXPECT_FALSE(contains(refused.err, "MPI_ABORT")) << describe(refused);

  const Outcome counted = rank_0_on_one_cpu("64M");
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  EXPECT_TRUE(contains(counted.out, "\n12,14200,1787,")) << counted.out;
  EXPECT_TRUE(contains(counted.out, "\n16,14772512,1846955,")) << counted.out;
}

// Each rank makes one thread arena for the whole command, whatever its N, rank 0's checks of the
// journals already there included (each process says how many it made, at debug level).
TEST_F(Mpi, EachRankMakesOneArenaForTheCommand) {
  const std::vector<std::string> args = {
      "count",       "-n",   "8-10", "-t", "1", "--engine", "dfs", "--checkpoint", (dir_ / "arenas").string(),
      "--log-level", "debug"};
  for (const char* round : {"counted", "answered from the journals"}) {
    SCOPED_TRACE(round);
    const Outcome counted = ranks(2, args);
    ASSERT_EQ(counted.exit_code, 0) << describe(counted);
    std::size_t arenas = 0, one = 0;
    for (const std::string& line : lines_of(counted.err)) {
      arenas += contains(line, "thread arena(s) made by this process");
      one += contains(line, "] 1 thread arena(s) made by this process") ||
             contains(line, "rank 1: 1 thread arena(s) made by this process");
    }
    EXPECT_EQ(arenas, 2u) << counted.err;
    EXPECT_EQ(one, 2u) << counted.err;
  }
}

// ---- failures end the job, with one line ------------------------------------------------------------

TEST_F(Mpi, BadInputExits2WithOneErrorLineAndNoOutput) {
  const fs::path other = dir_ / "other.journal";
  ASSERT_EQ(single({"count", "-n", "9", "--checkpoint", other.string()}).exit_code, 0);
  const std::vector<std::vector<std::string>> bad = {
      {"count", "-n", "0"},
      {"count", "-n", "8", "-t", "0"},
      {"count", "-n", "8,9", "--checkpoint", other.string()},  // a file: several N need a directory
      {"count", "-n", "10", "--checkpoint", other.string()},   // the journal of another run
      {"frobnicate"},
      {"count", "-n", "8", "-t", "0x10"},  // numbers are decimal, as in `nqueens`
      {"count", "-n", "8", "--progress-interval", "nan"},
      {"count", "-n", "8", "--checkpoint", ""},
      {"count", "-n", "8", "--checkpoint", other.string(), "--shard", "1/1", "--output", other.string()},
      {"count", "-n", "12", "--engine", "join", "--symmetry", "mirror"},  // checked on every rank alike
      {"count", "-n", "12,3", "--engine", "join"},                        // an N the engine refuses
      {"count", "-n", "12", "--split-depth", "9"},
      {"count", "-n", "8", "--engine", "dfs", "--units", "99999", "--output", (dir_ / "u.json").string()},
      // A budget too small for an N, found by rank 0 before any N is counted (it was every rank's
      // abort half-way through, exit 3, with Open MPI's banner).
      {"count", "-n", "17", "--memory", "2M"},
      {"count", "-n", "8-16", "--memory", "100K"},
  };
  for (const std::vector<std::string>& args : bad) {
    const Outcome failed = ranks(3, args);
    EXPECT_EQ(failed.exit_code, 2) << describe(failed);
    EXPECT_EQ(failed.out, "");
    EXPECT_EQ(lines_of(failed.err).size(), 1u) << describe(failed);
    EXPECT_EQ(count_prefixed(failed.err, "nqueens-mpi: error: "), 1u) << describe(failed);
  }
}

// The nodes of a job differ: here rank 1 runs under `ulimit -v`, like a node with less memory.
// Without --memory every rank plans under the least of the ranks' default budgets, so a run that
// one rank cannot hold is refused before any counting, in one line from rank 0 (it passed rank
// 0's check, then rank 1 ended the job with exit 3 and MPI's abort banner), and one that fits is
// counted. An address-space limit is each process's own: rank 1 takes all it leaves beside its
// threads, unshared (125 MiB at 250000 KiB, below the 165 MiB N = 23 needs on one thread; at
// 400000 KiB it was 262 MiB, which holds N = 23 in parts).
TEST_F(Mpi, TheJobPlansUnderTheLeastOfItsRanksDefaultBudgets) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  const auto with_rank_1_limited = [](const std::vector<std::string>& args) {
    std::vector<std::string> command = mpirun(2);
    command.pop_back();  // the program, started through the shell instead
    const std::string limit = R"(if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then ulimit -v 250000; fi; exec "$0" "$@")";
    return command + std::vector<std::string>{"/bin/sh", "-c", limit, NQUEENS_MPI_BINARY} + args;
  };
  const Outcome refused = run(with_rank_1_limited({"count", "-n", "23", "--engine", "join", "-t", "1"}));
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(count_prefixed(refused.err, "nqueens-mpi: error: "), 1u) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "cannot count N=23")) << describe(refused);
  EXPECT_FALSE(contains(refused.err, "rank 1:")) << describe(refused);

  const Outcome counted = run(with_rank_1_limited(
      {"count", "-n", "14", "--engine", "join", "-t", "1", "--format", "csv", "--log-level", "info", "--no-progress"}));
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  EXPECT_TRUE(contains(counted.out, "\n14,365596,45752,")) << counted.out;
  EXPECT_TRUE(contains(counted.err, "on every rank: rank 1's default, the least of the job's")) << counted.err;
  const std::vector<std::string> lines = lines_of(counted.err);
  const auto rank_1_budget = std::find_if(
      lines.begin(), lines.end(), [](const std::string& line) { return contains(line, "rank 1: memory budget "); });
  ASSERT_NE(rank_1_budget, lines.end()) << counted.err;
  EXPECT_TRUE(contains(*rank_1_budget, "(ulimit -v)")) << *rank_1_budget;
  EXPECT_FALSE(contains(*rank_1_budget, "shared by")) << *rank_1_budget;
}

// A rank whose limit cannot hold its threads (or their engine) ends the job in one line from
// rank 0 that names the rank and the way on, exit 3: it was that rank's MPI_Abort, with Open
// MPI's banner. mpirun without -q here, so that the banner would show.
TEST_F(Mpi, ARankWithoutRoomEndsTheJobInOneLineWithoutAnAbort) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  std::vector<std::string> command = mpirun(2);
  command.erase(std::find(command.begin(), command.end(), "-q"));
  command.pop_back();  // the program, started through the shell instead
  const std::string limit = R"(if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then ulimit -v 70000; fi; exec "$0" "$@")";
  const Outcome failed = run(
      command + std::vector<std::string>{"/bin/sh", "-c", limit, NQUEENS_MPI_BINARY, "count", "-n", "12", "-t", "2"});
  EXPECT_EQ(failed.exit_code, 3) << describe(failed);
  EXPECT_EQ(failed.out, "");
  EXPECT_EQ(count_prefixed(failed.err, "nqueens-mpi: error: "), 1u) << describe(failed);
  EXPECT_TRUE(contains(failed.err, "nqueens-mpi: error: rank 1: cannot run 3 threads under the address-space limit"))
      << describe(failed);
  EXPECT_TRUE(contains(failed.err, "raise the limit to ulimit -v ")) << describe(failed);
  EXPECT_FALSE(contains(failed.err, "MPI_ABORT")) << describe(failed);
}

// An MPI rank's own thread is not one of its --threads: a rank that could not start its one
// worker beside it (-t 1 under ulimit -v 70000) was advised "give --threads 1 or fewer", what it
// was given. Now any fewer threads advised are fewer than those given, and the limit to raise is
// named. Rank 1 under limits from 64000 to 96000 KiB, on one and two threads.
TEST_F(Mpi, TheFewerThreadsARankIsAdvisedAreFewerThanItWasGiven) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  int refused = 0;
  for (const int threads : {1, 2})
    for (int kib = 64000; kib <= 96000; kib += 8000) {
      std::vector<std::string> command = mpirun(2);
      command.pop_back();  // the program, started through the shell instead
      const std::string limit =
          "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then ulimit -v " + std::to_string(kib) + "; fi; exec \"$0\" \"$@\"";
      const Outcome r = run(command + std::vector<std::string>{"/bin/sh", "-c", limit, NQUEENS_MPI_BINARY, "count",
                                                               "-n", "12", "-t", std::to_string(threads)});
      if (!contains(r.err, "threads under the address-space limit")) continue;  // counted, or MPI itself failed
      ++refused;
      EXPECT_TRUE(contains(r.err, "raise the limit to ulimit -v ")) << describe(r);
      std::smatch fewer;
      if (std::regex_search(r.err, fewer, std::regex("give --threads ([0-9]+)"))) {
        EXPECT_LT(std::stoi(fewer[1].str()), threads) << "-t " << threads << ", ulimit -v " << kib << ": " << r.err;
      }
    }
  EXPECT_GT(refused, 0) << "no limit tried refused a rank's threads";
}

// A default budget too small under one rank's `ulimit -v` was refused with what the run needs and
// no way on, as `nqueens count` gave before it named one: the job's default is the least of its
// ranks' (rank 1's here), so no --memory from rank 0's side helps. The refusal, one line from rank
// 0, names rank 1's way on (fewer threads, or the limit to raise rank 1's to and the budget then),
// as `nqueens count` does; followed, each form counts the same units to the same total. Every 30th
// unit of the join at N = 19 (1023 units, a second): rank 1 under limits from 150000 KiB up.
TEST_F(Mpi, ARefusedDefaultBudgetNamesTheLimitedRanksWayOnThatCounts) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  const fs::path units = dir_ / "units.txt";
  {
    std::ofstream list(units);
    for (int id = 0; id < 30680; id += 30) list << id << '\n';
  }
  const fs::path output = dir_ / "shard.txt";
  struct Way {
    std::string limit_kib, threads, memory;
  };
  const auto count = [&](const Way& way) {
    std::vector<std::string> command = mpirun(2);
    command.pop_back();  // the program, started through the shell instead
    std::string limit;
    if (!way.limit_kib.empty())
      limit = "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then ulimit -v " + way.limit_kib + "; fi; ";
    std::vector<std::string> args = {"count",    "-n",           "19",      "--no-progress",
                                     "-t",       way.threads,    "--units", std::string("@").append(units.string()),
                                     "--output", output.string()};
    if (!way.memory.empty()) args.insert(args.end(), {"--memory", way.memory});
    limit += "exec \"$0\" \"$@\"";
    return run(command + std::vector<std::string>{"/bin/sh", "-c", limit, NQUEENS_MPI_BINARY} + args);
  };
  const auto shard_total = [&] {
    const Outcome checked = single({"check", output.string()});
    std::smatch total;
    return std::regex_search(checked.out, total, std::regex("total over the sound records: ([0-9]+)"))
               ? total[1].str()
               : "none (" + describe(checked) + ")";
  };
  ASSERT_EQ(count({"", "2", ""}).exit_code, 0);
  const std::string expected = shard_total();
  ASSERT_EQ(expected.find("none"), std::string::npos) << expected;

  const std::regex fewer("rank 1's default budget is what .* leaves beside 2 threads: give --threads ([0-9]+)$");
  const std::regex raise(
      "rank 1's default budget is what .* leaves beside 2 threads: raise the limit to ulimit -v ([0-9]+) and give "
      "--memory ([0-9]+M)$");
  std::optional<Way> fewer_threads, raised_limit;
  for (int kib = 150000; kib <= 300000 && !(fewer_threads && raised_limit); kib += 10000) {
    const Outcome refused = count({std::to_string(kib), "2", ""});
    if (refused.exit_code == 0) break;  // the default holds the run from here up
    ASSERT_EQ(refused.exit_code, 2) << kib << ": " << describe(refused);
    ASSERT_EQ(lines_of(refused.err).size(), 1u) << describe(refused);
    const std::string line = lines_of(refused.err).front();
    EXPECT_EQ(line.rfind("nqueens-mpi: error: ", 0), 0u) << line;
    std::smatch match;
    if (std::regex_search(line, match, fewer))
      fewer_threads = Way{std::to_string(kib), match[1], ""};
    else if (std::regex_search(line, match, raise))
      raised_limit = Way{match[1], "2", match[2]};
    else
      ADD_FAILURE() << "no way on at ulimit -v " << kib << ": " << line;
  }
  ASSERT_TRUE(fewer_threads) << "no limit tried advised fewer threads";
  ASSERT_TRUE(raised_limit) << "no limit tried advised a raised limit";
  for (const Way& way : {*fewer_threads, *raised_limit}) {
    const Outcome counted = count(way);
    ASSERT_EQ(counted.exit_code, 0) << "ulimit -v " << way.limit_kib << " -t " << way.threads << " --memory "
                                    << way.memory << ": " << describe(counted);
    EXPECT_EQ(shard_total(), expected) << way.limit_kib;
  }
}

// A rank that ran out of memory while it counted ended the job through MPI_Abort ("rank 1:
// std::bad_alloc", Open MPI's abort banner). Now every rank stops drawing, the units running end
// (the others' reach the journal), and rank 0 says in one line what ran out and the --memory to
// try, exit 3; the journal then resumes to the exact total. Rank 1's or rank 0's own unit fails
// (NQUEENS_MPI_OUT_OF_MEMORY_AT, a test setting), the first it counts: both ranks draw from the
// start (N = 16 leaves rank 1 units even when it starts late); mpirun without -q, so that a banner
// would show.
TEST_F(Mpi, ARankOutOfMemoryWhileCountingEndsTheJobInOneLineAndResumes) {
  for (const int failing : {1, 0}) {
    const fs::path journal = dir_ / ("n16-" + std::to_string(failing) + ".journal");
    std::vector<std::string> command = mpirun(2, {"NQUEENS_MPI_OUT_OF_MEMORY_AT=" + std::to_string(failing) + ":1"});
    command.erase(std::find(command.begin(), command.end(), "-q"));
    const Outcome failed = run(command + std::vector<std::string>{"count", "-n", "16", "-t", "2", "--engine", "dfs",
                                                                  "--checkpoint", journal.string()});
    EXPECT_EQ(failed.exit_code, 3) << describe(failed);
    EXPECT_EQ(failed.out, "") << describe(failed);
    EXPECT_EQ(count_prefixed(failed.err, "nqueens-mpi: error: "), 1u) << describe(failed);
    EXPECT_TRUE(contains(failed.err, "nqueens-mpi: error: rank " + std::to_string(failing) + ": out of memory"))
        << describe(failed);
    EXPECT_FALSE(contains(failed.err, "MPI_ABORT")) << describe(failed);
    // The advice followed: the resume is given the --memory it names.
    std::smatch advised;
    ASSERT_TRUE(std::regex_search(failed.err, advised, std::regex("give --memory ([0-9]+M)"))) << describe(failed);
    const Outcome resumed = ranks(2, {"count", "-n", "16", "-t", "2", "--memory", advised[1].str(), "--checkpoint",
                                      journal.string(), "--format", "csv", "--verify"});
    ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
    EXPECT_TRUE(contains(resumed.out, "\n16,14772512,1846955,")) << resumed.out;
  }
}

// Out of memory on one rank in a step every rank agrees on before counting (parsing the command
// line, preparing the runs, checking them, opening N's run, rank 0's journal folder and report)
// ends the job in one line from rank 0 that names the rank, what ran out and the --memory to try,
// exit 3, without MPI's abort (NQUEENS_MPI_OUT_OF_MEMORY_IN, a test setting). A rank failing
// alone while it parsed ended the job through MPI_Abort. mpirun without -q, so that a banner
// would show.
TEST_F(Mpi, OutOfMemoryOnOneRankBeforeCountingEndsTheJobInOneLine) {
  const std::pair<int, const char*> failures[] = {{1, "parse"}, {0, "parse"}, {0, "prepare"}, {1, "prepare"},
                                                  {0, "check"}, {1, "check"}, {0, "open"},    {0, "output"}};
  for (const auto& [rank, step] : failures) {
    const std::string where = std::to_string(rank) + ":" + step;
    std::vector<std::string> command = mpirun(2, {"NQUEENS_MPI_OUT_OF_MEMORY_IN=" + where});
    command.erase(std::find(command.begin(), command.end(), "-q"));
    const Outcome failed = run(command + std::vector<std::string>{"count", "-n", "10", "-t", "1", "--checkpoint",
                                                                  (dir_ / ("n10-" + std::string(step))).string()});
    EXPECT_EQ(failed.exit_code, 3) << where << ": " << describe(failed);
    EXPECT_EQ(failed.out, "") << where << ": " << describe(failed);
    EXPECT_EQ(count_prefixed(failed.err, "nqueens-mpi: error: "), 1u) << where << ": " << describe(failed);
    // Rank 0's own failure in a step it alone takes is in its own words; another rank's is named.
    const std::string named = rank == 0 ? "(rank 0: )?" : "rank " + std::to_string(rank) + ": ";
    EXPECT_TRUE(std::regex_search(failed.err, std::regex("nqueens-mpi: error: " + named + "out of memory")))
        << where << ": " << describe(failed);
    EXPECT_TRUE(contains(failed.err, "--memory")) << where << ": " << describe(failed);
    EXPECT_FALSE(contains(failed.err, "MPI_ABORT")) << where << ": " << describe(failed);
  }
}

// More threads than a rank's CPUs: each rank warns once, named once ("rank 1: rank 1: ..." was
// its log's name and the message's together).
TEST_F(Mpi, ARankWarnsOfTooFewCpusUnderItsOwnNameOnce) {
  const int threads = hardware_threads_here() + 1;
  const Outcome counted = ranks(2, {"count", "-n", "8", "-t", std::to_string(threads)});
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  EXPECT_TRUE(contains(counted.err, "rank 1: " + std::to_string(threads) + " threads but only")) << counted.err;
  EXPECT_TRUE(contains(counted.err, "rank 0: " + std::to_string(threads) + " threads but only")) << counted.err;
  EXPECT_FALSE(contains(counted.err, "rank 1: rank 1:")) << counted.err;
}

// A refusal is one line: N = 24's cost announcement waited for the checks, which find a budget
// too small for its unit list at once (it came first, two lines for a refusal).
TEST_F(Mpi, AMemoryRefusalIsOneLine) {
  for (const bool opted_out : {false, true}) {
    std::vector<std::string> args = {"count", "-n", "24", "-t", "1", "--memory", "64M"};
    if (opted_out) args.emplace_back("--no-checkpoint");
    const Outcome refused = ranks(1, args);
    EXPECT_EQ(refused.exit_code, 2) << describe(refused);
    ASSERT_EQ(lines_of(refused.err).size(), 1u) << describe(refused);
    EXPECT_TRUE(contains(refused.err, "nqueens-mpi: error: ")) << refused.err;
    EXPECT_TRUE(contains(refused.err, "too small for N=24")) << refused.err;
  }
}

// A whole count planned past a day on every rank's threads keeps a journal by default, as
// `nqueens count` does: here the default journal, nqueens-n24.journal in the working directory, is
// held by another process, and the refusal names it, in one line, before any setup.
TEST_F(Mpi, ADaysRunKeepsTheDefaultJournal) {
  const fs::path held = dir_ / "nqueens-n24.journal";
  std::ofstream(held) << "nqueens-journal 3 held by another count\n";
  const int holder = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  harness::Options options = harness::Options::captured_in(dir_);
  options.working_directory = dir_;
  std::optional<Outcome> refused =
      harness::Process(mpirun(1) + std::vector<std::string>{"count", "-n", "24", "-t", "1"}, options)
          .wait_for(std::chrono::seconds(60));
  ::close(holder);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->exit_code, 3) << describe(*refused);
  ASSERT_EQ(lines_of(refused->err).size(), 1u) << describe(*refused);
  EXPECT_TRUE(contains(refused->err, "nqueens-n24.journal is the journal of a count running in another"))
      << refused->err;
}

// A run of centuries is refused by rank 0, for every rank, in one line, before any setup; with
// every rank's threads counted in the wall time it names.
TEST_F(Mpi, CenturiesAreRefusedByRankZeroInOneLine) {
  const Outcome refused = ranks(2, {"count", "-n", "30", "-t", "1"});
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_EQ(refused.out, "");
  ASSERT_EQ(lines_of(refused.err).size(), 1u) << describe(refused);
  EXPECT_EQ(count_prefixed(refused.err, "nqueens-mpi: error: N=30: "), 1u) << describe(refused);
  for (const char* part : {" years on 2 threads ", "`nqueens plan -n 30`", "--force"})
    EXPECT_NE(refused.err.find(part), std::string::npos) << part << " in " << refused.err;
}

// Rank 0 claims the shard file's place before the count, and every rank ends alike, in one line.
TEST_F(Mpi, UnwritableOutputEndsEveryRankBeforeCounting) {
  const Outcome failed = ranks(2, {"count", "-n", "12", "--shard", "1/2", "--output",
                                   (dir_ / "no/such/dir.json").string(), "--log-level", "info"});
  EXPECT_EQ(failed.exit_code, 3) << describe(failed);
  EXPECT_EQ(count_prefixed(failed.err, "nqueens-mpi: error: cannot create"), 1u) << describe(failed);
  EXPECT_EQ(failed.err.find("N=12"), std::string::npos) << "the count started\n" << describe(failed);
}

// Rank 0 failing to write its output ends every rank with its reason and exit 3, the others
// ending normally (no abort). Here rank 0 cannot put the shard file in place at the end: a
// directory took its name while the job counted.
TEST_F(Mpi, FailingOutputOnRankZeroEndsEveryRankWithItsReason) {
  const fs::path output = dir_ / "n17.json";
  harness::Process job = start(mpirun(2) + std::vector<std::string>{"count", "-n", "17", "-t", "1", "--shard", "1/1",
                                                                    "--output", output.string(), "--no-progress"},
                               dir_);
  while (!fs::exists(dir_ / "n17.json.partial") && !job.ended())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  fs::create_directories(output / "in-the-way");
  const std::optional<Outcome> failed = job.wait_for(std::chrono::seconds(120));
  ASSERT_TRUE(failed) << "the job hung";
  EXPECT_EQ(failed->exit_code, 3) << describe(*failed);
  EXPECT_EQ(count_prefixed(failed->err, "nqueens-mpi: error: rank 0: cannot rename"), 1u) << describe(*failed);
  EXPECT_EQ(failed->err.find("MPI_ABORT"), std::string::npos) << describe(*failed);
  EXPECT_FALSE(fs::exists(dir_ / "n17.json.partial")) << "the temporary file was left behind";
}

// Started without mpirun (a singleton job), rank 0's stdout is the pipe itself: a reader that
// has gone ends the job quietly at the next row, as `nqueens count | head -1` does, and the sizes
// after it are never started.
TEST_F(Mpi, ClosedStdoutEndsTheJobQuietly) {
  harness::Process job({NQUEENS_MPI_BINARY, "count", "-n", "8,17,16", "-t", "2", "--engine", "dfs", "--log-level",
                        "info", "--no-progress"});
  job.hang_up_after(1);
  const Outcome r = job.wait();
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err.find("error"), std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("N=16"), std::string::npos) << describe(r);
}

// ---- kill -9 of a rank, then resume ------------------------------------------------------------------

struct KillCase {
  int n;
  const char* engine;
  int victim;  //!< the rank killed
  std::size_t units;
  std::uint64_t total;
};

void PrintTo(const KillCase& c, std::ostream* out) {
  *out << "N=" << c.n << " " << c.engine << ", rank " << c.victim << " killed";
}

std::string fmt_name(const KillCase& c) {
  std::ostringstream name;
  name << "n" << c.n << "_" << c.engine << "_rank" << c.victim;
  return name.str();
}

class MpiKilled : public Mpi, public testing::WithParamInterface<KillCase> {};

// SIGKILL to one rank of a running job (a crashed node, the OOM killer): mpirun ends the others
// within seconds instead of hanging, nothing is printed, and every record that reached the
// journal stays: rank 0 writes each batch whole (a torn last line at most, when rank 0 itself is
// killed during the write). The same command then resumes with another rank count and counts
// exactly what the journal lacks: each unit once, the total verified. Rank 0's own units and
// the batches of the other two reach the journal alike.
TEST_P(MpiKilled, LosesNoJournaledUnitAndTheResumeIsExact) {
  const KillCase& c = GetParam();
  const fs::path journal = dir_ / "killed.journal";
  const std::vector<std::string> args = {
      "count", "-n", std::to_string(c.n), "--engine", c.engine, "--checkpoint", journal.string(), "-t", "1"};
  harness::Process job = start(mpirun(3) + args + std::vector<std::string>{"--no-progress"}, dir_);
  wait_for_units(journal, c.units / 10);
  const std::optional<pid_t> victim = rank_pid(job.pid(), c.victim);
  ASSERT_TRUE(victim) << "rank " << c.victim << " not found among mpirun's children";
  kill(*victim, SIGKILL);
  const std::optional<Outcome> ended = job.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(ended) << "the job hung after a rank was killed";
  EXPECT_NE(ended->exit_code, 0);
  EXPECT_EQ(ended->out, "");
  const std::string left = read_bytes(journal);
  const std::string whole = left.substr(0, left.rfind('\n') + 1);
  const std::multiset<std::size_t> saved = journal_ids(left);
  EXPECT_GE(saved.size(), c.units / 10);
  EXPECT_LT(saved.size(), c.units) << "the job ended before the kill: nothing was tested";
  EXPECT_EQ(std::set<std::size_t>(saved.begin(), saved.end()).size(), saved.size()) << "a unit was journaled twice";

  const Outcome resumed = ranks(2, args + std::vector<std::string>{"--format", "json", "--verify"});
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  const Json record = Json::parse(lines_of(resumed.out).back());
  EXPECT_EQ(record["total"], c.total);
  EXPECT_EQ(record["verified"], true);
  const std::string after = read_bytes(journal);
  EXPECT_EQ(after.substr(0, whole.size()), whole) << "a journaled record was lost or changed";
  const std::multiset<std::size_t> ids = journal_ids(after);
  EXPECT_EQ(ids.size(), c.units) << "a journaled unit was counted again, or one is missing";
  EXPECT_EQ(std::set<std::size_t>(ids.begin(), ids.end()).size(), c.units);
}

// The join at N = 19 (30,680 units of about half a millisecond: many batches) and 18; the DFS at
// N = 17 and 18 (1031 and 1354 units of milliseconds to a second). Rank 0 is the one that
// journals; a worker rank's units reach the journal only through its batches.
INSTANTIATE_TEST_SUITE_P(
    RanksAndEngines, MpiKilled,
    testing::Values(KillCase{19, "join", 0, 30680, 4968057848}, KillCase{19, "join", 1, 30680, 4968057848},
                    KillCase{18, "join", 0, 12284, 666090624}, KillCase{18, "join", 2, 12284, 666090624},
                    KillCase{17, "dfs", 0, 1031, 95815104}, KillCase{17, "dfs", 2, 1031, 95815104},
                    KillCase{18, "dfs", 0, 1354, 666090624}, KillCase{18, "dfs", 1, 1354, 666090624}),
    [](const testing::TestParamInfo<KillCase>& param) { return fmt_name(param.param); });

// ---- an emulated network (NQUEENS_MPI_LATENCY_US, a test setting) ------------------------------------

// Every draw and every batch sleeps the latency first: the job is slower, not different. A value
// that is no number of microseconds is refused like a bad option, by every rank alike.
TEST_F(Mpi, EmulatedLatencyChangesNothingButTheTime) {
  const std::vector<std::string> args = {"count", "-n", "12-14", "-t", "1", "--format", "json"};
  const Outcome plain = ranks(2, args);
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  const Outcome slow = run(mpirun(3, {"NQUEENS_MPI_LATENCY_US=2000"}) + args);
  ASSERT_EQ(slow.exit_code, 0) << describe(slow);
  EXPECT_EQ(comparable_records(slow.out), comparable_records(plain.out));
  // Each rank draws at least twice per N (the first draw, then the one that finds the list
  // dry), 2 ms each.
  EXPECT_GE(Json::parse(lines_of(slow.out).back())["seconds"].get<double>(), 0.004);
  for (const char* bad :
       {"NQUEENS_MPI_LATENCY_US=fast", "NQUEENS_MPI_LATENCY_US=-5", "NQUEENS_MPI_LATENCY_US=2000000"}) {
    const Outcome refused = run(mpirun(2, {bad}) + args);
    EXPECT_EQ(refused.exit_code, 2) << describe(refused);
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(count_prefixed(refused.err, "nqueens-mpi: error: NQUEENS_MPI_LATENCY_US is "), 1u) << describe(refused);
  }
}

}  // namespace
