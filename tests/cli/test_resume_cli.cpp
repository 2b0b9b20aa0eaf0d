// Checkpoints, interrupts, progress, shards and merge, through the program as a user runs it:
// killed at random moments and resumed until done, interrupted with SIGINT and SIGTERM, fed
// wrong, torn and damaged journals, and sharded and merged with files missing, doubled and
// edited. The files the program writes are read back with the library.
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "dfs/kernel.hpp"
#include "dfs/split.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "nqueens/files/unit_record.hpp"
#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "run/schedule.hpp"
#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

using harness::read_bytes;

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// ---- running the program ---------------------------------------------------------------------

using harness::describe;
using harness::Outcome;

// The program started with stdout and stderr going to files in `dir`, so that it can be
// signalled or killed while it runs and its output still read afterwards.
harness::Process start(std::vector<std::string> args, const fs::path& dir) {
  args.insert(args.begin(), NQUEENS_BINARY);
  return harness::Process(std::move(args), harness::Options::captured_in(dir));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The last JSON Lines record of a `--format json` run (the count record).
Json last_record(const Outcome& r) {
  const std::size_t end = r.out.find_last_not_of('\n') + 1;
  const std::size_t newline = r.out.rfind('\n', end - 1);
  const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
  return Json::parse(r.out.substr(begin, end - begin));
}

class ResumeCli : public testing::Test {
 public:
  void SetUp() override { dir_ = harness::fresh_test_directory("nqueens-resume"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  Outcome run(const std::vector<std::string>& args) { return start(args, dir_).wait(); }
  fs::path file(const std::string& name) const { return dir_ / name; }
  const fs::path& directory() const { return dir_; }

  // `count -n N` with `args` and --format json, expecting success: its count record.
  Json count(int n, std::vector<std::string> args = {}) {
    args.insert(args.begin(), {"count", "-n", std::to_string(n), "-t", "2", "--format", "json"});
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.exit_code == 0 ? last_record(r) : Json();
  }

 protected:
  fs::path dir_;
};

// The numbers that must not depend on how a run was split up or interrupted.
Json numbers(const Json& record) {
  return {record.value("total", Json()), record.value("unique", Json()), record.value("nodes", Json())};
}

// ---- checkpoint and resume -------------------------------------------------------------------

// The boards of the random-kill tests, one per engine, big enough that a run has many units to
// be killed between. The join engine is several times faster, hence its larger N; a sanitizer
// slows both 3 to 10 times, hence the smaller ones there.
struct KilledBoard {
  const char* engine;
  int n;
  std::uint64_t total, unique;
};
#ifdef NQUEENS_SANITIZED
constexpr KilledBoard kKilledDfs = {"dfs", 16, 14772512, 1846955};
constexpr KilledBoard kKilledJoin = {"join", 16, 14772512, 1846955};
#else
constexpr KilledBoard kKilledDfs = {"dfs", 17, 95815104, 11977939};
constexpr KilledBoard kKilledJoin = {"join", 18, 666090624, 83263591};
#endif

// The summed time of a journal's records, each unit once, in microseconds.
std::uint64_t journal_microseconds(const std::string& bytes) {
  std::uint64_t sum = 0;
  for (const nqueens::UnitCount& unit : nqueens::scan_journal(bytes, "journal").units) sum += unit.microseconds;
  return sum;
}

// The resumed run reports the time of every unit of the run, those of the killed runs too: the
// sum over the journal's records. Its log line says that, and this run's own share: the sum over
// the records it appended (the lines after what the journal held when it started).
void expect_unit_time_of_all_runs(const Json& resumed, const Outcome& finished, const std::string& journal_before,
                                  const std::string& journal_after) {
  const std::uint64_t all = journal_microseconds(journal_after);
  EXPECT_EQ(resumed["unit_seconds"], static_cast<double>(all) / 1e6);
  std::uint64_t before = 0;
  if (contains(journal_before, "\n")) {
    const std::size_t held = nqueens::scan_journal(journal_before, "journal").valid_bytes;
    before = journal_microseconds(journal_before.substr(0, held));
  }
  if (before == 0) return;  // the killed runs left no time to add: a run of its own
  const std::uint64_t here = all - before;
  std::smatch said;
  const std::string seconds = R"((\d+\.\d{3}) s)";
  ASSERT_TRUE(std::regex_search(
      finished.err, said,
      std::regex("units took " + seconds + " of thread time in all runs \\(this run " + seconds + "\\)")))
      << finished.err;
  EXPECT_NEAR(std::stod(said[1]), static_cast<double>(all) / 1e6, 0.0006) << "the message rounds to 1 ms";
  EXPECT_NEAR(std::stod(said[2]), static_cast<double>(here) / 1e6, 0.0006) << "the message rounds to 1 ms";
  EXPECT_LE(here, all);
}

// Kills `count` at random moments and resumes it from its journal until a run ends on its own.
// The moments are drawn against an uninterrupted run's time on this machine, not a fixed delay:
// early at first, so the first two runs are always killed, then later with each attempt, so
// that a unit longer than the window (the join's rotation unit) is finished at last.
void kill_and_resume_until_done(ResumeCli& test, const KilledBoard& board) {
  std::vector<std::string> args = {
      "count",    "-n",   std::to_string(board.n), "-t",          "2",   "--engine", board.engine,
      "--format", "json", "--no-progress",         "--log-level", "info"};
  const Outcome uninterrupted = test.run(args);
  ASSERT_EQ(uninterrupted.exit_code, 0) << describe(uninterrupted);
  const int half_run_ms = std::max(10, static_cast<int>(uninterrupted.seconds * 500));

  const fs::path journal = test.file("run.journal");
  args.insert(args.end(), {"--checkpoint", journal.string()});
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE(testing::Message() << "seed " << seed << ", engine " << board.engine);
  std::mt19937 random(seed);
  // The first two kills come within an eighth of the run each: together they leave three
  // quarters of it, which no resumed run finishes in an eighth of the time even when the machine
  // turns several times less busy than it was for the uninterrupted run.
  constexpr int kSureKills = 2;
  const auto delay_ms = [&random, half_run_ms](int attempt) {
    const int latest = attempt < kSureKills ? std::max(5, half_run_ms / 4) : half_run_ms * (10 + attempt) / 10;
    return std::uniform_int_distribution<int>(5, latest)(random);
  };
  int kills = 0;
  Outcome finished;
  std::string journal_before;  // what the journal held when the last run started
  for (int attempt = 0; attempt < 200 && finished.exit_code != 0; ++attempt) {
    journal_before = fs::exists(journal) ? read_bytes(journal) : std::string();
    harness::Process process = start(args, test.directory());
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(attempt)));
    if (!process.ended()) {
      process.signal(SIGKILL);
      ++kills;
    }
    const Outcome r = process.wait();
    if (r.exit_code == 0) {
      finished = r;
    } else {
      ASSERT_EQ(r.exit_code, 128 + SIGKILL) << describe(r);
    }
    // Whatever moment the kill hit, what is on disk is a readable journal (maybe torn at the end).
    if (fs::exists(journal) && contains(read_bytes(journal), "\n")) {
      ASSERT_NO_THROW(nqueens::scan_journal(read_bytes(journal), "journal"));
    }
  }
  ASSERT_EQ(finished.exit_code, 0) << "never finished";
  EXPECT_GE(kills, kSureKills);
  const Json resumed = last_record(finished);
  EXPECT_EQ(resumed["total"], board.total);
  EXPECT_EQ(resumed["unique"], board.unique);
  EXPECT_EQ(resumed["engine"], board.engine);
  EXPECT_EQ(numbers(resumed), numbers(last_record(uninterrupted)))
      << "a resumed run must give an uninterrupted run's numbers";
  expect_unit_time_of_all_runs(resumed, finished, journal_before, read_bytes(journal));
}

TEST_F(ResumeCli, KilledAtRandomMomentsThenResumedEndsWithTheOeisTotal) {
  kill_and_resume_until_done(*this, kKilledDfs);
}

TEST_F(ResumeCli, JoinEngineKilledAtRandomMomentsThenResumedEndsWithTheOeisTotal) {
  kill_and_resume_until_done(*this, kKilledJoin);
}

// A journal of an older format (1 or 2, written by development builds before the first release)
// with the first `units` records of a journal of this build, spelled and checksummed as those
// builds did: format 1 had no engine in its header and checked each record on its own text,
// format 2 bound each record to its run; neither had the unit's time.
std::string as_older_format(int format, const std::string& journal, std::size_t units) {
  const nqueens::JournalScan scan = nqueens::scan_journal(journal, "journal");
  std::string run = nqueens::header_text(scan.header);
  if (format == 1) run.erase(run.find(" engine="), std::string(" engine=").size() + scan.header.engine.size());
  const std::string head = "nqueens-journal " + std::to_string(format) + " " + run;
  std::string bytes = head + " crc=" + nqueens::checksum_hex(nqueens::crc32(head)) + "\n";
  const std::uint32_t bound = format == 1 ? 0 : nqueens::crc32(nqueens::run_identity(scan.header) + "\n");
  for (std::size_t i = 0; i < units; ++i) {
    const nqueens::Tally& t = scan.units.at(i).tally;
    std::string text = "U";
    for (const std::uint64_t field :
         {std::uint64_t{scan.units[i].id}, t.total, t.orbits[0], t.orbits[1], t.orbits[2], t.orbits[3], t.nodes}) {
      text += ' ';
      text += std::to_string(field);
    }
    bytes += text + " " + nqueens::checksum_hex(nqueens::crc32(text, bound)) + "\n";
  }
  return bytes;
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Compatibility starts at the first release: a journal of an older format is refused in one
// line (exit 2, as any file that is no journal of the run), by count, --repair and check alike,
// and left as it was.
TEST_F(ResumeCli, OlderJournalFormatsAreRefusedInOneLineAndLeftAsTheyAre) {
  const std::string journal = file("n12.journal").string();
  count(12, {"--checkpoint", journal, "--engine", "dfs"});
  const std::string current = read_bytes(journal);
  for (const int format : {1, 2}) {
    SCOPED_TRACE(testing::Message() << "format " << format);
    const std::string bytes = as_older_format(format, current, 40);
    write_bytes(journal, bytes);
    const std::string line =
        journal + ": a format " + std::to_string(format) +
        " journal, written by a development build of nqueens; this build reads formats 3 and 4 only: "
        "count the run again";
    for (const bool repair : {false, true}) {
      std::vector<std::string> args = {"count", "-n", "12", "--engine", "dfs", "--checkpoint", journal};
      if (repair) args.push_back("--repair");
      const Outcome r = run(args);
      EXPECT_EQ(r.exit_code, 2) << describe(r);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(line_count(r.err), 1u) << r.err;
      EXPECT_TRUE(r.err.starts_with("nqueens: error: " + line)) << r.err;
    }
    const Outcome checked = run({"check", journal});
    EXPECT_EQ(checked.exit_code, 2) << describe(checked);
    EXPECT_EQ(checked.out, "");
    EXPECT_EQ(line_count(checked.err), 1u) << checked.err;
    EXPECT_TRUE(contains(checked.err, line)) << checked.err;
    EXPECT_EQ(read_bytes(journal), bytes) << "the file was changed";
    EXPECT_FALSE(fs::exists(journal + ".damaged"));
  }
}

TEST_F(ResumeCli, FinishedJournalAnswersAtOnceWithoutTouchingIt) {
  const std::string journal = file("done.journal").string();
  const Json first = count(16, {"--checkpoint", journal});
  const std::string bytes = read_bytes(journal);
  const Outcome again =
      run({"count", "-n", "16", "-t", "2", "--checkpoint", journal, "--format", "json", "--log-level", "info"});
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  // Said, not timed: the supervisor is never started when the journal holds every unit.
  EXPECT_TRUE(contains(again.err, "already counted; printing the stored result")) << again.err;
  EXPECT_FALSE(contains(again.err, "[progress]")) << again.err;
  EXPECT_EQ(numbers(last_record(again)), numbers(first));
  EXPECT_EQ(read_bytes(journal), bytes);
}

TEST_F(ResumeCli, JournalOfAnotherRunIsRefusedWithExitCode2) {
  const std::string journal = file("n12.journal").string();
  count(12, {"--checkpoint", journal, "--engine", "dfs"});
  const std::string bytes = read_bytes(journal);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-n", "13", "--engine", "dfs"}, "N is 12 there, 13 here"},
      {{"-n", "12", "--symmetry", "mirror"}, "the setting --symmetry is full there, mirror here"},
      {{"-n", "12", "--split-depth", "4"}, "the setting --split-depth is 3 there, 4 here"},
      {{"-n", "12", "--engine", "join"}, "the engine is dfs there, join here (to resume it, give --engine dfs;"}};
  for (const auto& [options, message] : cases) {
    std::vector<std::string> args = {"count", "--checkpoint", journal};
    args.insert(args.end(), options.begin(), options.end());
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, message)) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(read_bytes(journal), bytes);
  write_bytes(file("notes.txt"), "my notes\n");
  const Outcome not_journal = run({"count", "-n", "12", "--checkpoint", file("notes.txt").string()});
  EXPECT_EQ(not_journal.exit_code, 2) << describe(not_journal);
  EXPECT_EQ(read_bytes(file("notes.txt")), "my notes\n");
}

// "Run the same command again" resumes: with the default engine (auto), a journal started by
// another engine is resumed with that one, where `auto` would now choose differently.
TEST_F(ResumeCli, AutoResumesWithTheEngineTheJournalWasStartedWith) {
  const std::string journal = file("n13.journal").string();
  const Outcome first = run({"count", "-n", "13", "--engine", "join", "--checkpoint", journal, "-q"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  const std::string bytes = read_bytes(journal);
  const Outcome again = run({"count", "-n", "13", "--checkpoint", journal, "--format", "json", "--log-level", "info"});
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_TRUE(contains(again.err, "resuming with the join engine the journal was started with")) << again.err;
  EXPECT_EQ(last_record(again)["engine"], "join");
  EXPECT_EQ(read_bytes(journal), bytes);
}

// The other way round, from a part of a run: a journal that `--engine dfs` started at N = 14,
// where `auto` takes the join engine, is finished by the same command without --engine, with
// the dfs engine and exactly the units it lacks.
TEST_F(ResumeCli, AutoFinishesAPartialJournalWithTheEngineItWasStartedWith) {
  const std::string full = file("full.journal").string(), partial = file("partial.journal").string();
  const Json whole = count(14, {"--engine", "dfs", "--checkpoint", full});
  const std::string bytes = read_bytes(full);
  std::size_t cut = bytes.find('\n') + 1;  // the header, then the first half of the records
  const std::size_t records = std::count(bytes.begin(), bytes.end(), '\n') - 1;
  for (std::size_t i = 0; i < records / 2; ++i) cut = bytes.find('\n', cut) + 1;
  write_bytes(partial, bytes.substr(0, cut));
  const Outcome resumed =
      run({"count", "-n", "14", "-t", "2", "--checkpoint", partial, "--format", "json", "--log-level", "info"});
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  EXPECT_TRUE(contains(resumed.err, "resuming with the dfs engine the journal was started with")) << resumed.err;
  EXPECT_TRUE(contains(resumed.err, std::to_string(records / 2) + " units already counted")) << resumed.err;
  EXPECT_EQ(last_record(resumed)["engine"], "dfs");
  EXPECT_EQ(numbers(last_record(resumed)), numbers(whole));
  const nqueens::JournalScan scan = nqueens::scan_journal(read_bytes(partial), partial);
  EXPECT_TRUE(scan.sound());
  EXPECT_EQ(scan.units.size(), records);
  EXPECT_EQ(scan.repeated, 0u) << "a unit the journal held was counted again";
}

// Files of this build's format written by an earlier build (tests/files/fixtures, checked in: half
// of `count -n 14 --engine dfs` and `--engine join` journals, and the shards 1/2 and 2/2 of N = 12
// with each engine) still resume and merge. The same journals are finished by the library's count()
// (CountResume.CheckedInJournalsOfThisFormatAreFinished) and by nqueens-mpi
// (Mpi.ResumesTheCheckedInJournalsOfThisFormat), each counting only the units the journal lacks.
TEST_F(ResumeCli, CheckedInJournalsAndShardFilesOfThisFormatResumeAndMerge) {
  const fs::path fixtures = fs::path(NQUEENS_SOURCE_DIR) / "tests/files/fixtures";
  for (const std::string engine : {"dfs", "join"}) {
    SCOPED_TRACE(engine);
    const fs::path journal = file("n14-" + engine + ".journal");
    fs::copy_file(fixtures / ("n14-" + engine + "-half.journal"), journal);
    const nqueens::JournalScan held = nqueens::scan_journal(read_bytes(journal), journal.string());
    ASSERT_TRUE(held.sound());
    const Outcome resumed = run({"count", "-n", "14", "-t", "2", "--checkpoint", journal.string(), "--format", "json"});
    ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
    EXPECT_TRUE(contains(resumed.err, std::to_string(held.units.size()) + " units already counted")) << resumed.err;
    EXPECT_EQ(last_record(resumed)["engine"], engine);
    EXPECT_EQ(last_record(resumed)["total"], 365596);
    EXPECT_EQ(last_record(resumed)["unique"], 45752);
    const nqueens::JournalScan finished = nqueens::scan_journal(read_bytes(journal), journal.string());
    EXPECT_TRUE(finished.sound());
    EXPECT_EQ(finished.units.size(), held.header.unit_count);
    EXPECT_EQ(finished.repeated, 0u) << "a unit the journal held was counted again";

    const Outcome merged = run({"merge", (fixtures / ("n12-" + engine + "-1-of-2.shard")).string(),
                                (fixtures / ("n12-" + engine + "-2-of-2.shard")).string(), "--format", "json"});
    ASSERT_EQ(merged.exit_code, 0) << describe(merged);
    EXPECT_EQ(last_record(merged)["engine"], engine);
    EXPECT_EQ(last_record(merged)["total"], 14200);
    EXPECT_EQ(last_record(merged)["unique"], 1787);
  }
}

// A resumed run's rates are of its own work: the solutions and nodes of the units it counted,
// over its seconds, not the whole total, half of which the journal held (a resumed N = 18 once
// claimed 183 M solutions a second).
TEST_F(ResumeCli, ResumedRatesAreOfThisRunsOwnUnits) {
  const std::string full = file("full.journal").string(), partial = file("partial.journal").string();
  count(16, {"--engine", "dfs", "--checkpoint", full});
  const std::string bytes = read_bytes(full);
  std::size_t cut = bytes.find('\n') + 1;  // the header, then the first half of the records
  const std::size_t records = std::count(bytes.begin(), bytes.end(), '\n') - 1;
  for (std::size_t i = 0; i < records / 2; ++i) cut = bytes.find('\n', cut) + 1;
  write_bytes(partial, bytes.substr(0, cut));
  double held_total = 0, held_nodes = 0;
  for (const nqueens::UnitCount& unit : nqueens::scan_journal(bytes.substr(0, cut), "journal").units) {
    held_total += static_cast<double>(unit.tally.total);
    held_nodes += static_cast<double>(unit.tally.nodes);
  }
  ASSERT_GT(held_total, 0);
  const Json resumed = count(16, {"--engine", "dfs", "--checkpoint", partial});
  const double seconds = resumed["seconds"].get<double>();
  const double here_total = resumed["total"].get<double>() - held_total;
  const double here_nodes = resumed["nodes"].get<double>() - held_nodes;
  EXPECT_NEAR(resumed["solutions_per_second"].get<double>() * seconds, here_total, 1e-6 * here_total) << resumed;
  EXPECT_NEAR(resumed["nodes_per_second"].get<double>() * seconds, here_nodes, 1e-6 * here_nodes) << resumed;
}

// The JSON context record used to be printed before the journal was opened: exit 2 with a line
// on stdout. Nothing is printed unless the run starts.
TEST_F(ResumeCli, RefusedJournalLeavesStdoutEmptyInEveryFormat) {
  const std::string journal = file("n9.journal").string();
  count(9, {"--checkpoint", journal});
  for (const char* format : {"json", "csv", "text"}) {
    const Outcome r = run({"count", "-n", "10", "--checkpoint", journal, "--format", format});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "") << format;
  }
  // A shard's file was claimed before the journal was opened: the refusal takes the claim back.
  const std::string output = file("n10.json").string();
  const Outcome shard = run({"count", "-n", "10", "--checkpoint", journal, "--shard", "1/1", "--output", output});
  EXPECT_EQ(shard.exit_code, 2) << describe(shard);
  EXPECT_FALSE(fs::exists(output + ".partial"));
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(ResumeCli, DamagedJournalIsRefusedWithExitCode3AndLeftAsItWas) {
  const std::string journal = file("n13.journal").string();
  count(13, {"--checkpoint", journal});
  std::string bytes = read_bytes(journal);
  const std::size_t at = bytes.find('\n', bytes.size() / 2) + 3;  // inside a record mid-file
  bytes[at] = bytes[at] == '7' ? '8' : '7';
  write_bytes(journal, bytes);
  const Outcome r = run({"count", "-n", "13", "--checkpoint", journal});
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "damaged")) << r.err;
  // The advice keeps the finished units instead of throwing them away.
  EXPECT_TRUE(contains(r.err, "nqueens check " + journal) && contains(r.err, "--repair")) << r.err;
  EXPECT_FALSE(contains(r.err, "move it away")) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_bytes(journal), bytes);
}

// ---- a command refused whole -------------------------------------------------------------

// Every N's run is checked before the first is counted: a budget too small for N = 14 used to be
// found after N = 8..13 were printed, one for N = 26 after N = 17 was counted into its journal
// (--force: past the refusal of its cost; -q: without the warning of that cost).
TEST_F(ResumeCli, ACommandIsRefusedWholeBeforeAnyNIsCounted) {
  const fs::path journals = file("journals");
  const std::vector<std::vector<std::string>> refused = {
      {"count", "-n", "8-16", "--memory", "100K"},
      {"count", "-n", "17,26", "--memory", "100M", "--checkpoint", journals.string(), "--force", "-q"}};
  for (const std::vector<std::string>& args : refused) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args[2] << "\n" << describe(r);
    EXPECT_EQ(r.out, "") << args[2];
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
    EXPECT_TRUE(contains(r.err, "nqueens: error: the join engine cannot count N=")) << r.err;
  }
  EXPECT_FALSE(fs::exists(journals));
}

// A later N's journal that another process holds is found before the first N is counted too.
TEST_F(ResumeCli, ALaterNsJournalInUseIsFoundBeforeAnyNIsCounted) {
  const fs::path journals = file("journals");
  fs::create_directories(journals);
  const fs::path held = journals / "n9.journal";
  write_bytes(held, "nqueens-journal 3 held by another count\n");
  const int holder = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  const Outcome r = run({"count", "-n", "8,9", "--checkpoint", journals.string()});
  ::close(holder);
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, held.string() + " is the journal of a count running in another nqueens process"))
      << r.err;
  EXPECT_FALSE(fs::exists(journals / "n8.journal"));
}

// ---- memory the system allows ----------------------------------------------------------------

// `count` under a shell's `ulimit -v`: the default budget is what the address space left holds
// beside the threads, and the log says so; it used to be half the physical memory whatever the limit, and the count
// ended in std::bad_alloc or an abort.
TEST_F(ResumeCli, TheDefaultBudgetKeepsWithinTheAddressSpaceLimit) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  const std::string command = std::string("ulimit -v 400000 && exec ") + NQUEENS_BINARY +
                              " count -n 16 --engine join -t 2 --format csv --log-level info --no-progress";
  const Outcome r = harness::run_program({"/bin/sh", "-c", command});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "memory budget ")) << r.err;
  EXPECT_TRUE(contains(r.err, "all of the address space left under its limit (ulimit -v)")) << r.err;
  // The threads' stacks are not the count's to spend: two threads and the supervisor.
  EXPECT_TRUE(contains(r.err, "(ulimit -v) beside 3 threads' stacks")) << r.err;
  EXPECT_TRUE(contains(r.out, "\n16,14772512,1846955,")) << r.out;
}

// Memory that runs out anyway (a budget given larger than the limit allows) ends in one line
// that names --memory, exit 3: not a bare "std::bad_alloc", never an abort. (-q leaves out the
// warning of N = 23's cost, hours on two threads.)
// Every engine honours --memory: the dfs engine took `--memory 1` and `--memory 1K` without a
// word; a budget below its unit list is now refused as the join refuses one, by count and plan.
TEST_F(ResumeCli, TheDfsEngineHonoursTheBudget) {
  for (const char* command : {"count", "plan"})
    for (const char* budget : {"1", "1K"}) {
      const Outcome refused = run({command, "-n", "8", "--engine", "dfs", "--memory", budget});
      EXPECT_EQ(refused.exit_code, 2) << command << " " << budget << ": " << describe(refused);
      EXPECT_EQ(refused.out, "");
      EXPECT_EQ(harness::lines_of(refused.err).size(), 1u) << describe(refused);
      EXPECT_TRUE(contains(refused.err, "the dfs engine cannot count N=8: a budget of ")) << refused.err;
      EXPECT_TRUE(contains(refused.err, "its unit list alone takes ")) << refused.err;
    }
  const Outcome counted = run({"count", "-n", "8", "--engine", "dfs", "--memory", "1M", "--format", "csv"});
  EXPECT_EQ(counted.exit_code, 0) << describe(counted);
  EXPECT_TRUE(contains(counted.out, "\n8,92,12,")) << counted.out;
}

TEST_F(ResumeCli, MemoryRunningOutIsOneLineThatNamesTheBudget) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  const std::string command =
      std::string("ulimit -v 200000 && exec ") + NQUEENS_BINARY + " count -n 23 --engine join -t 2 --memory 3G -q";
  const Outcome r = harness::run_program({"/bin/sh", "-c", command});
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "nqueens: error: out of memory")) << r.err;
  // What was being allocated, and a budget to give rather than "a smaller one than the log's"
  // (beside a raised limit where none fits under this one: CliMemoryAdvice follows each way).
  EXPECT_TRUE(contains(r.err, "while counting the units")) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("give --memory [1-9][0-9]*M"))) << r.err;
  EXPECT_EQ(r.out, "");
}

// ---- check and --repair -----------------------------------------------------------

TEST_F(ResumeCli, CheckSaysWholeDamagedOrNotAJournalByExitCode) {
  const std::string journal = file("n12.journal").string();
  const Json whole = count(12, {"--checkpoint", journal, "--engine", "dfs"});
  const Outcome sound = run({"check", journal});
  EXPECT_EQ(sound.exit_code, 0) << describe(sound);
  EXPECT_TRUE(contains(sound.out, "status: whole")) << sound.out;

  std::string bytes = read_bytes(journal);
  const std::size_t at = bytes.find('\n', bytes.size() / 2) + 3;
  bytes[at] = bytes[at] == '7' ? '8' : '7';
  write_bytes(journal, bytes);
  const Outcome damaged = run({"check", journal, "--format", "json"});
  EXPECT_EQ(damaged.exit_code, 1) << describe(damaged);
  const Json report = Json::parse(damaged.out);
  EXPECT_EQ(report["status"], "damaged");
  EXPECT_EQ(report["damaged"].size(), 1u);
  EXPECT_EQ(report["missing_count"], 1);
  EXPECT_TRUE(contains(report["advice"].get<std::string>(), "--repair")) << damaged.out;
  EXPECT_EQ(read_bytes(journal), bytes) << "check changed the file";

  write_bytes(file("notes.txt"), "my notes\n");
  const Outcome stranger = run({"check", file("notes.txt").string()});
  EXPECT_EQ(stranger.exit_code, 2) << describe(stranger);
  const Outcome mixed = run({"check", journal, file("notes.txt").string()});
  EXPECT_EQ(mixed.exit_code, 2) << describe(mixed);
}

// check's own stdout is treated as count's: a full disk is a runtime failure (exit 3) said once,
// not a fault of each file checked (exit 2, one line per file); a reader that quits (`| head
// -1`) ends it quietly with exit 0. Many files, so that the pipe closes while check still writes.
TEST_F(ResumeCli, CheckTreatsItsStdoutAsCountDoes) {
  const std::string journal = file("n10.journal").string();
  count(10, {"--checkpoint", journal});
  for (const char* format : {"text", "json"}) {
    const Outcome r = harness::run_program({NQUEENS_BINARY, "check", journal, journal, "--format", format},
                                           harness::Options::stdout_to("/dev/full"));
    EXPECT_EQ(r.exit_code, 3) << format << "\n" << describe(r);
    EXPECT_EQ(r.err, "nqueens: error: could not write to standard output: No space left on device\n") << describe(r);
  }
  std::vector<std::string> args = {NQUEENS_BINARY, "check"};
  for (int copy = 0; copy < 400; ++copy) args.push_back(journal);
  harness::Process reading(args);
  reading.hang_up_after(1);
  const Outcome quit = reading.wait();
  EXPECT_EQ(quit.exit_code, 0) << describe(quit);
  EXPECT_EQ(quit.err, "") << describe(quit);
}

TEST_F(ResumeCli, RepairKeepsACopyRewritesTheJournalAndEndsAtTheTotal) {
  const std::string journal = file("n13.journal").string();
  const Json whole = count(13, {"--checkpoint", journal});
  std::string bytes = read_bytes(journal);
  const std::size_t at = bytes.find('\n', bytes.size() / 3) + 3;
  bytes[at] = bytes[at] == '7' ? '8' : '7';
  bytes += "garbage\n";
  write_bytes(journal, bytes);
  const Outcome r = run({"count", "-n", "13", "-t", "2", "--checkpoint", journal, "--repair", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(repaired: kept \d+ sound records, dropped 2 damaged line\(s\))")))
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(numbers(last_record(r)), numbers(whole));
  EXPECT_EQ(read_bytes(journal + ".damaged"), bytes) << "the backup is not the damaged file byte for byte";
  EXPECT_EQ(run({"check", journal}).exit_code, 0);
}

TEST_F(ResumeCli, JournalDirectoryIsCreated) {
  const fs::path journal = file("runs") / "n12" / "run.journal";
  const Json whole = count(12, {"--checkpoint", journal.string()});
  EXPECT_TRUE(fs::is_regular_file(journal));
}

// With one N, a directory named like a journal (nqueens-n24.journal, the default journal's name)
// was taken for a directory of journals, and the count went on in one inside it: refused, in one
// line, unless the name ends with / (a directory meant as one).
TEST_F(ResumeCli, ADirectoryNamedLikeAJournalIsNoJournal) {
  const fs::path named = file("nqueens-n12.journal");
  fs::create_directory(named);
  const Outcome refused = run({"count", "-n", "12", "--checkpoint", named.string()});
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_EQ(harness::lines_of(refused.err).size(), 1u) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "is a directory named like a journal")) << refused.err;
  EXPECT_TRUE(fs::is_empty(named));
  const Json meant = count(12, {"--checkpoint", named.string() + "/"});
  EXPECT_TRUE(fs::is_regular_file(named / "n12.journal"));
}

TEST_F(ResumeCli, TornLastRecordIsDroppedWithAWarningAndRecounted) {
  const std::string journal = file("n14.journal").string();
  const Json whole = count(14, {"--checkpoint", journal});
  std::string bytes = read_bytes(journal);
  bytes.resize(bytes.size() - 12);  // the last record loses its end, as if the process died mid-write
  write_bytes(journal, bytes);
  const Outcome r = run({"count", "-n", "14", "-t", "2", "--checkpoint", journal, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "[warning]") && contains(r.err, "torn")) << r.err;
  EXPECT_EQ(numbers(last_record(r)), numbers(whole));
  const nqueens::JournalScan scan = nqueens::scan_journal(read_bytes(journal), "journal");
  EXPECT_EQ(scan.torn_bytes, 0u);
  EXPECT_EQ(scan.units.size(), scan.header.unit_count);
}

// ---- damaged headers, line ends and first bytes ------------------------

// The journal's bytes with one bit of byte `at` flipped.
std::string flip_bit(std::string bytes, std::size_t at, int bit = 0) {
  bytes[at] = static_cast<char>(bytes[at] ^ (1 << bit));
  return bytes;
}

// `count -n 16 --checkpoint F --repair` on an N = 17 journal with one flipped header bit exited 0
// after "kept 0 sound records, dropped 183481". Refused now (exit 2, the file as it was), naming
// the run the journal belongs to; the run it belongs to repairs it keeping every record.
TEST_F(ResumeCli, RepairUnderAnotherRunOfAHeaderDamagedJournalIsRefused) {
  const std::string journal = file("n13.journal").string();
  const Json whole = count(13, {"--checkpoint", journal, "--engine", "dfs"});
  const std::string sound = read_bytes(journal);
  const std::size_t records = std::count(sound.begin(), sound.end(), '\n') - 1;
  const std::string damaged = flip_bit(sound, sound.find(" units=") + 8);
  write_bytes(journal, damaged);
  for (const std::vector<std::string>& other : {std::vector<std::string>{"-n", "12"},
                                                {"-n", "13", "--engine", "join"},
                                                {"-n", "13", "--engine", "dfs", "--symmetry", "none"}}) {
    std::vector<std::string> args = {"count", "--checkpoint", journal, "--repair", "-t", "2"};
    args.insert(args.end(), other.begin(), other.end());
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "none of its " + std::to_string(records) + " records checks out under this run"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "it belongs to another run (the journal of `nqueens count -n 13 --engine dfs"))
        << r.err;
    EXPECT_EQ(read_bytes(journal), damaged) << "the file was changed";
    EXPECT_FALSE(fs::exists(journal + ".damaged"));
  }
  const Outcome repaired =
      run({"count", "-n", "13", "-t", "2", "--checkpoint", journal, "--repair", "--format", "json"});
  ASSERT_EQ(repaired.exit_code, 0) << describe(repaired);
  EXPECT_TRUE(contains(repaired.err, "kept " + std::to_string(records) + " sound records, dropped 1 damaged line"))
      << repaired.err;
  EXPECT_EQ(numbers(last_record(repaired)), numbers(whole));
  EXPECT_EQ(read_bytes(journal), sound);
}

// One flipped bit in the first 18 bytes ("not an nqueens journal"), CRLF line ends (0 of 3,300
// records kept) and more than 16 MiB of zeros at the end (refused, no advice) each ended a run's
// journal. Each now ends with every sound record kept.
TEST_F(ResumeCli, SmallDamageIsGotPastKeepingEverySoundRecord) {
  const std::string journal = file("n12.journal").string();
  const Json whole = count(12, {"--checkpoint", journal, "--engine", "dfs"});
  const std::string sound = read_bytes(journal);
  const std::string records = std::to_string(std::count(sound.begin(), sound.end(), '\n') - 1);
  auto resumes_with_every_record = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"count", "-n",       "12",   "-t",          "2",   "--checkpoint",
                                     journal, "--format", "json", "--log-level", "info"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_TRUE(contains(r.err, "resuming, " + records + " units already counted")) << r.err;
    if (r.exit_code == 0) {
      EXPECT_EQ(numbers(last_record(r)), numbers(whole));
    }
  };

  write_bytes(journal, flip_bit(sound, 3));  // "nqueens" -> "nqueuns"
  const Outcome checked = run({"check", journal});
  EXPECT_EQ(checked.exit_code, 1) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "records: " + records + " sound")) << checked.out;
  EXPECT_TRUE(contains(checked.out, "status: damaged: `nqueens count -n 12 --engine dfs")) << checked.out;
  const Outcome refused = run({"count", "-n", "12", "--engine", "dfs", "--checkpoint", journal});
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "line 1: the run header fails its checksum")) << refused.err;
  resumes_with_every_record({"--engine", "dfs", "--repair"});
  EXPECT_EQ(read_bytes(journal), sound);

  std::string crlf;
  for (const char c : sound) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  write_bytes(journal, crlf);
  EXPECT_EQ(run({"check", journal}).exit_code, 0);
  resumes_with_every_record({});

  write_bytes(journal, sound);
  fs::resize_file(journal, sound.size() + (std::uintmax_t{24} << 20));
  const Outcome zeros = run({"check", journal});
  EXPECT_EQ(zeros.exit_code, 0) << describe(zeros);
  EXPECT_TRUE(contains(zeros.out, "torn last line: " + std::to_string(std::uintmax_t{24} << 20) + " bytes"))
      << zeros.out;
  resumes_with_every_record({});
  EXPECT_EQ(read_bytes(journal), sound);
}

// On a journal whose header is damaged, check told the user to run check (itself) and never
// named N. It recovers the run from the records where it can, and says the repair command; where
// it cannot, it says what the damaged line still names and how many records there are.
TEST_F(ResumeCli, CheckOfAHeaderDamagedJournalNamesTheWayOn) {
  const std::string journal = file("n13.journal").string();
  const Json whole = count(13, {"--checkpoint", journal, "--engine", "dfs", "--split-depth", "2"});
  const std::string sound = read_bytes(journal);
  const std::string records = std::to_string(std::count(sound.begin(), sound.end(), '\n') - 1);

  write_bytes(journal, flip_bit(sound, sound.find(" fingerprint=") + 15));
  const Outcome recovered = run({"check", journal});
  EXPECT_EQ(recovered.exit_code, 1) << describe(recovered);
  EXPECT_TRUE(contains(recovered.out,
                       "damaged: line 1: the run header fails its checksum (the run it names was "
                       "recovered from the " +
                           records + " records that check out under it)"))
      << recovered.out;
  EXPECT_TRUE(contains(
      recovered.out,
      "`nqueens count -n 13 --engine dfs --symmetry full --split-depth 2 --checkpoint " + journal + " --repair`"))
      << recovered.out;
  EXPECT_FALSE(contains(recovered.out, "nqueens check")) << recovered.out;

  // Two bits in two fields: no one-bit correction and no reading as it is fits the records.
  write_bytes(journal, flip_bit(flip_bit(sound, sound.find(" fingerprint=") + 15), sound.find(" units=") + 7));
  const Outcome lost = run({"check", journal});
  EXPECT_EQ(lost.exit_code, 1) << describe(lost);
  EXPECT_TRUE(contains(lost.out, records + " of its " + records + " other lines are records")) << lost.out;
  EXPECT_TRUE(contains(
      lost.out, "`nqueens count -n 13 --engine dfs [the run's other options] --checkpoint " + journal + " --repair`"))
      << lost.out;
  EXPECT_FALSE(contains(lost.out, "nqueens check")) << lost.out;
  const Outcome repaired = run({"count", "-n", "13", "--engine", "dfs", "--split-depth", "2", "-t", "2", "--checkpoint",
                                journal, "--repair", "--format", "json"});
  ASSERT_EQ(repaired.exit_code, 0) << describe(repaired);
  EXPECT_EQ(numbers(last_record(repaired)), numbers(whole));
}

// Every JSON Lines count record of a run, in order.
std::vector<Json> count_records(const Outcome& r) {
  std::vector<Json> records;
  std::size_t begin = 0;
  for (std::size_t end; (end = r.out.find('\n', begin)) != std::string::npos; begin = end + 1) {
    Json line = Json::parse(r.out.substr(begin, end - begin));
    if (line.contains("total")) records.push_back(std::move(line));
  }
  return records;
}

// With several N, --checkpoint is a directory of journals, one per N: a range interrupted in
// its third N resumes there, answering the first two from their finished journals.
TEST_F(ResumeCli, CheckpointOfSeveralSizesKeepsOneJournalPerNAndResumesTheRange) {
  const fs::path journals = file("range") / "nested";  // created, parents and all
  const std::vector<std::string> args = {"count", "-n",           "11-13",           "-t",          "2",   "--format",
                                         "json",  "--checkpoint", journals.string(), "--log-level", "info"};
  const Outcome first = run(args);
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  const std::vector<Json> whole = count_records(first);
  ASSERT_EQ(whole.size(), 3u) << first.out;
  for (int n = 11; n <= 13; ++n) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "n" + std::to_string(n) + ...
    std::string name = "n";
    name += std::to_string(n);
    name += ".journal";
    const fs::path journal = journals / name;
    ASSERT_TRUE(fs::is_regular_file(journal)) << journal;
    EXPECT_EQ(nqueens::scan_journal(read_bytes(journal), "journal").header.n, n);
  }
  // N = 13 as if interrupted: only its header and first records survive.
  const fs::path last = journals / "n13.journal";
  std::string bytes = read_bytes(last);
  std::size_t cut = 0;
  for (int line = 0; line < 4; ++line) cut = bytes.find('\n', cut) + 1;
  bytes.resize(cut);
  write_bytes(last, bytes);

  const Outcome resumed = run(args);
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  const std::vector<Json> again = count_records(resumed);
  ASSERT_EQ(again.size(), 3u) << resumed.out;
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(numbers(again[i]), numbers(whole[i])) << i;
  EXPECT_TRUE(contains(resumed.err, "n11.journal: all")) << resumed.err;
  EXPECT_TRUE(contains(resumed.err, "n12.journal: all")) << resumed.err;
  EXPECT_TRUE(contains(resumed.err, "n13.journal: resuming, 3 units already counted")) << resumed.err;
}

// A count of several N makes one thread arena for the whole command, the checks of the journals
// already there included (the process says how many it made, at debug level).
TEST_F(ResumeCli, ACountOfSeveralNMakesOneArenaJournalsAndAll) {
  const std::vector<std::string> args = {
      "count",       "-n",    "11-13",        "-t", "2", "--checkpoint", file("arenas").string(),
      "--log-level", "debug", "--no-progress"};
  for (const char* round : {"counted", "answered from the journals"}) {
    SCOPED_TRACE(round);
    const Outcome counted = run(args);
    ASSERT_EQ(counted.exit_code, 0) << describe(counted);
    EXPECT_TRUE(contains(counted.err, "] 1 thread arena(s) made by this process")) << counted.err;
  }
}

// A resume says so at the default level: a count that starts from a journal's units is not
// silent about them.
TEST_F(ResumeCli, AResumeSaysSoAtTheDefaultLevel) {
  const std::string journal = file("n12.journal").string();
  const std::vector<std::string> args = {"count", "-n", "12", "-t", "1", "--engine", "dfs", "--checkpoint", journal};
  ASSERT_EQ(run(args).exit_code, 0);
  std::string bytes = read_bytes(journal);
  std::size_t cut = 0;
  for (int line = 0; line < 4; ++line) cut = bytes.find('\n', cut) + 1;  // the header and 3 records
  bytes.resize(cut);
  write_bytes(journal, bytes);
  const Outcome resumed = run(args);
  ASSERT_EQ(resumed.exit_code, 0) << describe(resumed);
  EXPECT_TRUE(contains(resumed.err, "n12.journal: resuming, 3 units already counted")) << resumed.err;
  EXPECT_EQ(harness::lines_of(resumed.err).size(), 1u) << resumed.err;
}

// A single N given a directory keeps its journal inside it, under the name a range would use.
TEST_F(ResumeCli, CheckpointNamingADirectoryHoldsThatNsJournal) {
  fs::create_directories(file("journals"));
  count(12, {"--checkpoint", file("journals").string()});
  EXPECT_EQ(nqueens::scan_journal(read_bytes(file("journals") / "n12.journal"), "journal").header.n, 12);
  count(10, {"--checkpoint", file("slash").string() + "/"});
  EXPECT_TRUE(fs::is_regular_file(file("slash") / "n10.journal"));
}

// ---- files that are not what they seem -----------------------

using harness::make_read_only;

// A finished journal that could not be opened for writing ended the run with exit 3 and no result.
TEST_F(ResumeCli, FinishedReadOnlyJournalStillPrintsItsResult) {
  const fs::path journal = file("done.journal");
  const Json first = count(12, {"--checkpoint", journal.string()});
  if (!make_read_only(journal)) GTEST_SKIP() << "no way to make a file read-only here";
  const Outcome again = run({"count", "-n", "12", "-t", "2", "--checkpoint", journal.string(), "--format", "json"});
  make_read_only(journal, false);
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(numbers(last_record(again)), numbers(first));
}

TEST_F(ResumeCli, UnfinishedReadOnlyJournalSaysWhyItCannotGoOn) {
  const fs::path journal = file("part.journal");
  const Json whole = count(12, {"--checkpoint", journal.string()});
  std::string bytes = read_bytes(journal);
  bytes.resize(bytes.rfind('\n', bytes.size() - 2) + 1);  // the last unit never finished
  write_bytes(journal, bytes);
  if (!make_read_only(journal)) GTEST_SKIP() << "no way to make a file read-only here";
  const Outcome r = run({"count", "-n", "12", "-t", "2", "--checkpoint", journal.string()});
  make_read_only(journal, false);
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "cannot write to journal") && contains(r.err, "1 units are left to count")) << r.err;
  EXPECT_EQ(read_bytes(journal), bytes);
}

// A later N's journal that could not be written was found after N = 8 was counted and printed:
// every N's journal is tried first, and nothing is counted, printed or left behind.
TEST_F(ResumeCli, ALaterNsReadOnlyJournalIsFoundBeforeTheFirstNIsCounted) {
  const fs::path journals = file("w");
  const std::vector<std::string> args = {"count", "-n", "8,9",          "--engine",       "dfs",
                                         "-t",    "2",  "--checkpoint", journals.string()};
  ASSERT_EQ(run(args).exit_code, 0);
  fs::remove(journals / "n8.journal");
  std::string bytes = read_bytes(journals / "n9.journal");
  bytes.resize(bytes.rfind('\n', bytes.size() - 2) + 1);  // its last unit never finished
  write_bytes(journals / "n9.journal", bytes);
  if (!make_read_only(journals / "n9.journal")) GTEST_SKIP() << "no way to make a file read-only here";
  const Outcome refused = run(args);
  make_read_only(journals / "n9.journal", false);
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(refused.out, "") << describe(refused);
  EXPECT_EQ(harness::lines_of(refused.err).size(), 1u) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "cannot write to journal") && contains(refused.err, "n9.journal")) << refused.err;
  EXPECT_FALSE(fs::exists(journals / "n8.journal"));
  EXPECT_EQ(read_bytes(journals / "n9.journal"), bytes);
}

// A read-only folder: N = 8's finished journal was printed before n9.journal could not be made.
// A finished journal in it still answers its N alone.
TEST_F(ResumeCli, AReadOnlyJournalFolderIsFoundBeforeTheFirstNIsPrinted) {
  const fs::path journals = file("w");
  ASSERT_EQ(run({"count", "-n", "8", "--engine", "dfs", "--checkpoint", (journals / "n8.journal").string()}).exit_code,
            0);
  if (!make_read_only(journals)) GTEST_SKIP() << "no way to make a folder read-only here";
  const Outcome refused = run({"count", "-n", "8,9", "--engine", "dfs", "--checkpoint", journals.string()});
  const Outcome answered =
      run({"count", "-n", "8", "--engine", "dfs", "--checkpoint", (journals / "n8.journal").string()});
  make_read_only(journals, false);
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(refused.out, "") << describe(refused);
  EXPECT_EQ(harness::lines_of(refused.err).size(), 1u) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "cannot write to journal") && contains(refused.err, "n9.journal")) << refused.err;
  EXPECT_EQ(answered.exit_code, 0) << describe(answered);
  EXPECT_EQ(std::distance(fs::directory_iterator(journals), fs::directory_iterator()), 1) << "left behind";
}

// --repair writes the sound records beside a damaged journal: in a read-only folder that was found
// once N = 8 had been printed.
TEST_F(ResumeCli, ARepairThatCannotWriteBesideTheJournalIsFoundBeforeTheFirstNIsPrinted) {
  const fs::path journals = file("w");
  const std::vector<std::string> args = {"count", "-n", "8,9", "--engine", "dfs", "--checkpoint", journals.string()};
  ASSERT_EQ(run(args).exit_code, 0);
  std::string bytes = read_bytes(journals / "n9.journal");
  const std::size_t second_record = bytes.find('\n', bytes.find('\n') + 1) + 1;
  bytes[second_record + 2] = bytes[second_record + 2] == '1' ? '2' : '1';  // a record that fails its checksum
  write_bytes(journals / "n9.journal", bytes);
  if (!make_read_only(journals)) GTEST_SKIP() << "no way to make a folder read-only here";
  std::vector<std::string> repair = args;
  repair.emplace_back("--repair");
  const Outcome refused = run(repair);
  make_read_only(journals, false);
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(refused.out, "") << describe(refused);
  EXPECT_TRUE(contains(refused.err, "cannot write to journal") && contains(refused.err, "n9.journal")) << refused.err;
  EXPECT_EQ(read_bytes(journals / "n9.journal"), bytes);
}

// A --repair killed before its renames left j.journal.partial (or the backup's
// j.journal.damaged.partial), which stayed for good once the next run was a plain count: the next
// count removes what no process holds, and says so.
TEST_F(ResumeCli, AStaleTemporaryFileBesideAJournalIsRemovedByTheNextCount) {
  const fs::path journal = file("j.journal");
  const Json first = count(10, {"--checkpoint", journal.string()});
  const fs::path partial = journal.string() + ".partial", backup_partial = journal.string() + ".damaged.partial";
  write_bytes(partial, "nqueens-journal 3 half of it");
  write_bytes(backup_partial, "half of a copy");
  const Outcome r = run({"count", "-n", "10", "-t", "2", "--checkpoint", journal.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(numbers(last_record(r)), numbers(first));
  EXPECT_FALSE(fs::exists(partial));
  EXPECT_FALSE(fs::exists(backup_partial));
  EXPECT_TRUE(contains(r.err, "removed " + partial.string() + ", left by an earlier run")) << r.err;
}

// A repair whose copy of the damaged journal (j.journal.damaged, a name the program chooses) was
// being written by another process advised "give the output another name", which cannot be
// followed: it says what holds it and what to do.
TEST_F(ResumeCli, ARepairWhoseBackupIsBusyGivesAdviceThatCanBeFollowed) {
  const fs::path journal = file("j.journal");
  count(10, {"--checkpoint", journal.string()});
  std::string bytes = read_bytes(journal);
  const std::size_t second_record = bytes.find('\n', bytes.find('\n') + 1) + 1;
  bytes[second_record + 2] = bytes[second_record + 2] == '1' ? '2' : '1';  // a record that fails its checksum
  write_bytes(journal, bytes);
  const fs::path busy = journal.string() + ".damaged.partial";
  write_bytes(busy, "");
  const int holder = ::open(busy.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  const Outcome r = run({"count", "-n", "10", "-t", "2", "--repair", "--checkpoint", journal.string()});
  ::close(holder);
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_EQ(harness::lines_of(r.err).size(), 1u) << describe(r);
  EXPECT_TRUE(contains(r.err, "run the repair again once it has ended")) << r.err;
  EXPECT_FALSE(contains(r.err, "another name")) << r.err;
  EXPECT_EQ(read_bytes(journal), bytes);
}

// /dev/zero or /dev/full behind a symlink, and a 2 GB sparse file, ended in std::bad_alloc.
TEST_F(ResumeCli, DevicesAndHugeFilesAreRefusedWithoutReadingThem) {
  fs::create_symlink("/dev/zero", file("zero.journal"));
  fs::create_symlink("/dev/full", file("full.journal"));
  for (const char* name : {"zero.journal", "full.journal"}) {
    const Outcome r = run({"count", "-n", "10", "--checkpoint", file(name).string()});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "is not a regular file")) << r.err;
  }
  const Outcome device = run({"merge", "/dev/zero"});
  EXPECT_EQ(device.exit_code, 2) << describe(device);  // bad input, as a directory is
  EXPECT_TRUE(contains(device.err, "/dev/zero is not a regular file")) << device.err;

  count(10, {"--checkpoint", file("big.journal").string()});
  const std::string records = read_bytes(file("big.journal"));
  fs::resize_file(file("big.journal"), std::uintmax_t{2} << 30);  // sparse, and not zeros at its very end
  std::fstream(file("big.journal"), std::ios::binary | std::ios::in | std::ios::out).seekp(-1, std::ios::end) << 'x';
  const Outcome big = run({"count", "-n", "10", "--checkpoint", file("big.journal").string()});
  EXPECT_EQ(big.exit_code, 3) << describe(big);
  EXPECT_TRUE(contains(big.err, "more than a journal of")) << big.err;
  EXPECT_LT(big.max_rss_kib, 100 * 1024) << "read whole";
  // Zeros to the end, however many, are a torn tail: cut off, never read into memory.
  fs::resize_file(file("big.journal"), records.size());
  fs::resize_file(file("big.journal"), std::uintmax_t{2} << 30);
  const Outcome zeros = run({"count", "-n", "10", "--checkpoint", file("big.journal").string()});
  EXPECT_EQ(zeros.exit_code, 0) << describe(zeros);
  EXPECT_TRUE(contains(zeros.err, "torn")) << zeros.err;
  EXPECT_LT(zeros.max_rss_kib, 100 * 1024) << "read whole";
  EXPECT_EQ(read_bytes(file("big.journal")), records);
  fs::resize_file(file("big.journal"), 0);
  write_bytes(file("big.json"), "");
  fs::resize_file(file("big.json"), std::uintmax_t{2} << 30);
  // Zeros are no shard file at all: bad input, known from the first bytes.
  const Outcome big_shard = run({"merge", file("big.json").string()});
  EXPECT_EQ(big_shard.exit_code, 2) << describe(big_shard);
  EXPECT_TRUE(contains(big_shard.err, "is not a shard file")) << big_shard.err;
  EXPECT_LT(big_shard.max_rss_kib, 100 * 1024) << "read whole";
}

// A zero-filled block after a power cut (more than 256 NUL bytes) was refused as damage.
TEST_F(ResumeCli, ZeroFilledBlockAtTheEndIsATornTail) {
  const fs::path journal = file("zeros.journal");
  const Json whole = count(12, {"--checkpoint", journal.string()});
  std::string bytes = read_bytes(journal);
  bytes.resize(bytes.rfind('\n', bytes.size() - 2) + 1 + 9);  // the last record torn after 9 bytes
  write_bytes(journal, bytes + std::string(4096, '\0'));
  const Outcome r = run({"count", "-n", "12", "-t", "2", "--checkpoint", journal.string(), "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "torn")) << r.err;
  EXPECT_EQ(numbers(last_record(r)), numbers(whole));
}

// ---- input never sizes the memory -------------------------------------------------

// A 134-byte journal whose header (its checksum sound) claims a join run of N = 23 with far more
// units than it has made `check` and `count` allocate by the claim (40 M units: 2.19 GB before
// "different run"; more: std::bad_alloc, exit 3), and a shard header so made `merge` take 1.47
// GB. The claim is held to the run this build makes before anything is sized by it: under a
// 1 GB address-space limit, every command ends with its own exit code for bad input.
TEST_F(ResumeCli, CraftedUnitCountsDoNotSizeTheMemory) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
#endif
  const std::string prlimit = "/usr/bin/prlimit";
  if (!fs::exists(prlimit)) GTEST_SKIP() << "no " << prlimit << " here";
  auto limited = [&](const std::vector<std::string>& args) {
    std::vector<std::string> argv = {prlimit, "--as=1000000000", NQUEENS_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    return harness::run_program(argv, harness::Options::captured_in(directory()));
  };
  nqueens::RunHeader crafted{"0.1.0", "join", 23, {}, 0, 0x0123456789abcdefu};
  for (const std::size_t units : {std::size_t{160'000'000}, std::size_t{400'000'000}}) {
    SCOPED_TRACE(testing::Message() << units << " units");
    crafted.unit_count = units;
    const std::string journal = file("crafted.journal").string();
    write_bytes(journal, nqueens::journal_header_line(crafted));
    for (const std::vector<std::string>& args : {std::vector<std::string>{"check", journal},
                                                 {"count", "-n", "12", "--checkpoint", journal},
                                                 {"count", "-n", "12", "--checkpoint", journal, "--repair"}}) {
      const Outcome r = limited(args);
      EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << describe(r);
      EXPECT_FALSE(contains(r.err, "bad_alloc")) << r.err;
      EXPECT_LT(r.seconds, 5) << args[0];
    }
    EXPECT_EQ(read_bytes(journal), nqueens::journal_header_line(crafted));

    nqueens::ShardFile shard;
    shard.header = crafted;
    shard.threads = 1;
    const std::string json = file("crafted.json").string();
    write_bytes(json, nqueens::shard_json(shard));
    const Outcome merged = limited({"merge", json});
    EXPECT_EQ(merged.exit_code, 3) << describe(merged);
    EXPECT_TRUE(contains(merged.err, "no run has this header: a join run of N=23 has")) << merged.err;
    const Outcome checked = limited({"check", json});
    EXPECT_EQ(checked.exit_code, 1) << describe(checked);
    EXPECT_FALSE(contains(checked.err + checked.out, "bad_alloc")) << describe(checked);
  }
}

// ---- interrupts ------------------------------------------------------------------------------

// The signal tests send their signal only once the run is under way: the interrupt handlers are
// installed before this line is logged (at --log-level info), and a sanitizer on a loaded machine
// can take longer than any fixed delay to get there.
constexpr const char* kStartLine = "[info] N=";
constexpr std::chrono::seconds kStartLimit{60};

TEST_F(ResumeCli, SigintStopsWithin2SecondsAndKeepsTheFinishedUnits) {
  const fs::path journal = file("n18.journal");
  harness::Process process = start(
      {"count", "-n", "18", "-t", "2", "--engine", "dfs", "--checkpoint", journal.string(), "--log-level", "info"},
      dir_);
  ASSERT_TRUE(process.wait_for_stderr(kStartLine, kStartLimit));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  process.signal(SIGINT);
  const Outcome r = process.wait();
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_LT(r.seconds, 2.5);
  EXPECT_TRUE(contains(r.err, "interrupted by SIGINT") && contains(r.err, "run the same command again to resume"))
      << r.err;
  const nqueens::JournalScan scan = nqueens::scan_journal(read_bytes(journal), "journal");
  ASSERT_GT(scan.units.size(), 0u);
  EXPECT_LT(scan.units.size(), scan.header.unit_count);
  const nqueens::WorkPlan plan = nqueens::split(18, nqueens::Symmetry::full);
  for (std::size_t i = 0; i < scan.units.size(); i += scan.units.size() / 3 + 1)
    EXPECT_EQ(scan.units[i].tally, nqueens::count_from(plan.units[scan.units[i].id], 18))
        << "unit " << scan.units[i].id;
}

// The join's setup at N = 26 (sizing 6.4e9 quarter placements, 2.6 million units, their costs
// and orders) lasts tens of seconds: a SIGTERM there, as a batch scheduler sends it, ends the
// process at once with the interrupt's exit code instead of after the setup. (N = 23's setup
// takes about a second now, too short to be sure the signal lands in it.)
TEST_F(ResumeCli, SigtermDuringTheSetupEndsTheProcessAtOnce) {
  harness::Process process =
      start({"count", "-n", "26", "--engine", "join", "-t", "2", "--force", "--log-level", "debug"}, dir_);
  ASSERT_TRUE(process.wait_for_stderr("setup: ", kStartLimit));
  process.signal(SIGTERM);
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(5));
  ASSERT_TRUE(r) << "still running 5 s after SIGTERM";
  EXPECT_EQ(r->exit_code, 143) << describe(*r);
  EXPECT_TRUE(contains(r->err, "nqueens: interrupted by SIGTERM after ") && contains(r->err, "while setting up N=26"))
      << r->err;
  EXPECT_EQ(r->out, "");
}

// An interrupt during the setup leaves nothing behind: the shard file's FILE.partial, created
// and locked before the setup, was left empty (9 runs of 9), and the message said that a journal
// the setup had not yet created "is as it was".
TEST_F(ResumeCli, SigtermDuringTheSetupLeavesNoFileAndNamesNoJournal) {
  const fs::path output = file("s.json"), journal = file("j.journal");
  harness::Process process = start({"count", "-n", "26", "--engine", "join", "-t", "2", "--shard", "1/1", "--output",
                                    output.string(), "--checkpoint", journal.string(), "--log-level", "debug"},
                                   dir_);
  // The setup's last phases, after the shard file is claimed, last a few seconds.
  ASSERT_TRUE(process.wait_for_stderr("setup: listing the units", std::chrono::seconds(120)));
  EXPECT_TRUE(fs::exists(file("s.json.partial")));
  process.signal(SIGTERM);
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(5));
  ASSERT_TRUE(r) << "still running 5 s after SIGTERM";
  EXPECT_EQ(r->exit_code, 143) << describe(*r);
  EXPECT_TRUE(contains(r->err, "while setting up N=26; nothing was counted\n")) << r->err;
  EXPECT_FALSE(contains(r->err, "is as it was")) << r->err;
  EXPECT_FALSE(fs::exists(file("s.json.partial")));
  EXPECT_FALSE(fs::exists(journal));
}

// At split depth 2, N = 20 has units of many seconds each: none can finish in time, so the exit
// must not wait for them.
TEST_F(ResumeCli, SigtermDoesNotWaitForLongUnits) {
  const fs::path journal = file("n20.journal");
  harness::Process process = start(
      {"count", "-n", "20", "--split-depth", "2", "-t", "2", "--checkpoint", journal.string(), "--log-level", "info"},
      dir_);
  ASSERT_TRUE(process.wait_for_stderr(kStartLine, kStartLimit));
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  process.signal(SIGTERM);
  const Outcome r = process.wait();
  EXPECT_EQ(r.exit_code, 143) << describe(r);
  EXPECT_LT(r.seconds, 2.5);
  EXPECT_TRUE(contains(r.err, "interrupted by SIGTERM")) << r.err;
  EXPECT_NO_THROW(nqueens::scan_journal(read_bytes(journal), "journal"));
}

// The message's time counts from the start of the run, not of the size being counted: it is at
// least the time the sizes already printed took (their `seconds`). No clock is read here; the
// program's own figures are compared. At split depth 2, N = 20 has units of seconds each.
TEST_F(ResumeCli, InterruptedListSaysTheTimeSinceTheRunStarted) {
  const fs::path out = file("out.jsonl");
  harness::Process process({NQUEENS_BINARY, "count", "-n", "15,16,20", "--engine", "dfs", "--split-depth", "2", "-t",
                            "2", "--format", "json", "--no-progress"},
                           harness::Options::stdout_to(out));
  while (harness::lines_of(read_bytes(out)).size() < 3 && !process.ended())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  process.signal(SIGINT);
  const Outcome r = process.wait();
  ASSERT_EQ(r.exit_code, 130) << describe(r);
  const std::vector<std::string> lines = harness::lines_of(read_bytes(out));
  ASSERT_EQ(lines.size(), 3u);
  const double printed =
      Json::parse(lines[1])["seconds"].get<double>() + Json::parse(lines[2])["seconds"].get<double>();
  std::smatch said;
  ASSERT_TRUE(std::regex_search(r.err, said, std::regex(R"(interrupted by SIGINT after (\d+\.\d) s)"))) << r.err;
  EXPECT_GE(std::stod(said[1]) + 0.05, printed) << r.err;  // the message rounds to 0.1 s
}

TEST_F(ResumeCli, SigintWithoutCheckpointSaysNothingWasSaved) {
  harness::Process process = start({"count", "-n", "20", "--split-depth", "2", "-t", "2", "--log-level", "info"}, dir_);
  ASSERT_TRUE(process.wait_for_stderr(kStartLine, kStartLimit));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  process.signal(SIGINT);
  const Outcome r = process.wait();
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_LT(r.seconds, 2.5);
  EXPECT_TRUE(contains(r.err, "nothing was saved")) << r.err;
}

// ---- progress --------------------------------------------------------------------------------

TEST_F(ResumeCli, ProgressLinesWhenStderrIsNotATerminal) {
  const Outcome shown = run({"count", "-n", "16", "-t", "1", "--engine", "dfs", "--progress-interval", "0.1"});
  ASSERT_EQ(shown.exit_code, 0) << describe(shown);
  EXPECT_TRUE(std::regex_search(
      shown.err,
      std::regex(R"(\[progress\] N=16: \d+/860 units, ~\d+\.\d% of work, )"
                 R"(\d:\d\d:\d\d elapsed, ETA (\d:\d\d:\d\d|-)( on whole cores \(the threads got \d+% of one\))?, )"
                 R"(\S+ sol/s)")))
      << shown.err;
  const Outcome hidden = run({"count", "-n", "16", "-t", "2", "--progress-interval", "0.1", "--no-progress"});
  EXPECT_EQ(hidden.err, "");
  const Outcome quiet = run({"count", "-n", "16", "-t", "2", "--progress-interval", "0.1", "-q"});
  EXPECT_EQ(quiet.err, "");
}

// ---- shards and merge ------------------------------------------------------------------------

class ShardCli : public ResumeCli {
 protected:
  // Shard files of `count -n n --shard i/k` for i = 1..k.
  std::vector<std::string> shards(int n, int k, const std::string& prefix = "shard") {
    std::vector<std::string> files;
    for (int i = 1; i <= k; ++i) {
      files.push_back(file(prefix + "-" + std::to_string(i) + "-of-" + std::to_string(k) + ".json").string());
      const std::string shard = std::to_string(i) + "/" + std::to_string(k);
      const Outcome r = run({"count", "-n", std::to_string(n), "-t", "2", "--shard", shard, "--output", files.back()});
      EXPECT_EQ(r.exit_code, 0) << describe(r);
      EXPECT_EQ(r.out, "");
    }
    return files;
  }

  // Adds 8 to the total of the third unit of the shard file `from`, writes the file to `to`, and
  // returns that unit: its checksum no longer matches its counts.
  nqueens::UnitCount tamper_with_a_count(const std::string& from, const std::string& to) {
    const nqueens::ShardFile shard = nqueens::parse_shard_json(read_bytes(from), from);
    const nqueens::UnitCount victim = shard.units.at(2);
    const std::string id_total =
        "\"id\":" + std::to_string(victim.id) + ",\"total\":" + std::to_string(victim.tally.total);
    std::string text = read_bytes(from);
    text.replace(text.find(id_total), id_total.size(),
                 "\"id\":" + std::to_string(victim.id) + ",\"total\":" + std::to_string(victim.tally.total + 8));
    write_bytes(to, text);
    return victim;
  }

  Outcome merge(const std::vector<std::string>& files, std::vector<std::string> options = {}) {
    std::vector<std::string> args = {"merge"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), options.begin(), options.end());
    return run(args);
  }
};

TEST_F(ShardCli, MergedShardsEqualThePlainCount) {
  const Json plain = count(14);
  for (int k : {1, 3, 5}) {
    const Outcome r = merge(shards(14, k), {"--format", "json", "--verify"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(numbers(last_record(r)), numbers(plain)) << "k=" << k;
    EXPECT_EQ(last_record(r)["verified"], true);
    EXPECT_EQ(last_record(r)["work_units"], plain["work_units"]);
  }
}

// A merge --missing killed outright (SIGKILL) leaves its FILE.partial, unlocked: the next merge
// with that --missing removes it and says so, even when nothing is missing and no list is
// written (it stayed for good then). One another process holds is left alone.
TEST_F(ShardCli, AMergeKilledOutrightLeavesNoTemporaryPastTheNextMerge) {
  const std::vector<std::string> files = shards(12, 2);
  const fs::path list = file("missing.txt");
  const fs::path partial = file("missing.txt.partial");
  write_bytes(partial, "0-4");  // what a merge killed while it wrote the list leaves
  const Outcome whole = merge(files, {"--missing", list.string()});
  ASSERT_EQ(whole.exit_code, 0) << describe(whole);
  EXPECT_FALSE(fs::exists(partial)) << describe(whole);
  EXPECT_FALSE(fs::exists(list));
  EXPECT_TRUE(contains(whole.err, "removed " + partial.string() + ", left by an earlier run killed")) << whole.err;

  write_bytes(partial, "0-4");
  const int holder = ::open(partial.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  const Outcome held = merge(files, {"--missing", list.string()});
  ::close(holder);
  EXPECT_EQ(held.exit_code, 0) << describe(held);
  EXPECT_TRUE(fs::exists(partial)) << "another process's temporary file was removed";
}

// merge prints the count's text table: the columns that fit 80, or every one with --wide.
// merge --missing onto the journal of a live count is refused in its one line, with nothing
// written: it printed the missing list and the shard's error before the refusal.
TEST_F(ShardCli, AMissingListOntoALiveJournalIsOneLine) {
  std::vector<std::string> files = shards(12, 2);
  files.pop_back();  // half the units missing
  const fs::path live = file("live.journal");
  write_bytes(live, "nqueens-journal 3 held by another count\n");
  const int holder = ::open(live.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  const Outcome refused = merge(files, {"--missing", live.string()});
  ::close(holder);
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(refused.out, "");
  ASSERT_EQ(harness::lines_of(refused.err).size(), 1u) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "--missing " + live.string() + " is the journal of a count running in another"))
      << refused.err;
  EXPECT_EQ(read_bytes(live), "nqueens-journal 3 held by another count\n");
}

TEST_F(ShardCli, MergedTextTableFitsEightyColumnsUnlessWide) {
  const std::vector<std::string> files = shards(12, 2);
  const Outcome narrow = merge(files, {"--verify"});
  ASSERT_EQ(narrow.exit_code, 0) << describe(narrow);
  const std::vector<std::string> lines = harness::lines_of(narrow.out);
  ASSERT_EQ(lines.size(), 2u) << narrow.out;
  EXPECT_EQ(lines[0], "  N       total      unique    status  sum_seconds  longest_shard  engine");
  for (const std::string& line : lines) EXPECT_LE(line.size(), 80u) << line;
  const Outcome wide = merge(files, {"--verify", "--wide"});
  ASSERT_EQ(wide.exit_code, 0) << describe(wide);
  EXPECT_TRUE(contains(harness::lines_of(wide.out).at(0), "solutions/s")) << wide.out;
  EXPECT_TRUE(contains(harness::lines_of(wide.out).at(0), "half_turn_fixed")) << wide.out;
}

// A merged `seconds` is the shards' seconds summed (37.5 s for shards that ran 19.5 s side by
// side read as the run's wall time): the record says so by carrying the longest shard's too,
// and the text table names both.
TEST_F(ShardCli, MergeGivesTheShardsSummedSecondsAndTheLongestApart) {
  const std::vector<std::string> files = shards(13, 3);
  double sum = 0, longest = 0;
  for (const std::string& name : files) {
    const double seconds = nqueens::read_shard_file(name).seconds;
    sum += seconds;
    longest = std::max(longest, seconds);
  }
  const Outcome r = merge(files, {"--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_DOUBLE_EQ(last_record(r)["seconds"].get<double>(), sum);
  EXPECT_DOUBLE_EQ(last_record(r)["longest_shard_seconds"].get<double>(), longest);
  EXPECT_LT(longest, sum);
}

// merge reports the summed time of the units it merged: the sum of the shard files' entries.
TEST_F(ShardCli, MergeReportsTheSummedTimeOfTheShardsUnits) {
  const std::vector<std::string> files = shards(13, 3);
  std::uint64_t sum = 0;
  for (const std::string& name : files)
    for (const nqueens::UnitCount& unit : nqueens::read_shard_file(name).units) sum += unit.microseconds;
  const Outcome r = merge(files, {"--format", "json", "--log-level", "info"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(last_record(r)["unit_seconds"], static_cast<double>(sum) / 1e6);
  EXPECT_TRUE(contains(r.err, "of thread time in all runs")) << r.err;
}

TEST_F(ShardCli, ShardFileGoesToStdoutWithoutOutput) {
  const Outcome r = run({"count", "-n", "10", "--shard", "1/1"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  write_bytes(file("stdout.json"), r.out);
  const Outcome merged = merge({file("stdout.json").string()}, {"--format", "csv"});
  ASSERT_EQ(merged.exit_code, 0) << describe(merged);
  EXPECT_TRUE(contains(merged.out, "\n10,724,92,724,92,")) << merged.out;
}

TEST_F(ShardCli, MissingDoubledAlteredOrConflictingShardsAreNamedByIdWithNoTotal) {
  const std::vector<std::string> files = shards(12, 3);
  const auto engine = nqueens::make_engine(12, {});  // the CLI's default: auto
  const std::vector<std::size_t> third = nqueens::shard_ids(*engine, {3, 3});

  auto expect_rejected = [&](const std::vector<std::string>& inputs, const std::string& message) {
    const Outcome r = merge(inputs, {"--format", "json"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_EQ(r.out, "") << "no total may be printed";
    EXPECT_TRUE(contains(r.err, message)) << "expected '" << message << "' in\n" << r.err;
    EXPECT_TRUE(contains(r.err, "no total")) << r.err;
  };
  expect_rejected({files[0], files[1]}, "missing (" + std::to_string(third.size()) + " of " +
                                            std::to_string(engine->unit_count()) + " units): units " +
                                            std::to_string(third[0]));
  expect_rejected({files[0], files[1], files[2], files[2]}, "duplicated: units " + std::to_string(third[0]));

  // An edited count: its checksum no longer matches.
  const nqueens::UnitCount victim = tamper_with_a_count(files[1], file("altered.json").string());
  expect_rejected({files[0], file("altered.json").string(), files[2]},
                  "altered (checksum does not match the counts): unit " + std::to_string(victim.id));

  // A copy with a changed count and a checksum to match: the two files disagree.
  nqueens::ShardFile forged = nqueens::parse_shard_json(read_bytes(files[1]), files[1]);
  forged.units[2].tally.total += 8;
  write_bytes(file("forged.json"), nqueens::shard_json(forged));
  expect_rejected({files[0], files[1], files[2], file("forged.json").string()},
                  "conflicting counts: unit " + std::to_string(victim.id));
}

TEST_F(ShardCli, ShardsOfDifferentRunsAreBadInput) {
  const std::vector<std::string> sixteen = shards(16, 2, "n16");
  const std::vector<std::string> fourteen = shards(14, 2, "n14");  // the same engine (join) as 16
  const Outcome r = merge({sixteen[0], fourteen[1]});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "N is 16 there, 14 here") || contains(r.err, "N is 14 there, 16 here")) << r.err;
  write_bytes(file("junk.json"), "{\"not\": \"a shard\"}");
  const Outcome junk = merge({sixteen[0], file("junk.json").string()});
  EXPECT_EQ(junk.exit_code, 2) << describe(junk);
  EXPECT_TRUE(contains(junk.err, "junk.json is not a shard file")) << junk.err;
}

TEST_F(ShardCli, BadOptionsAreUsageErrors) {
  fs::create_directory(file("sub"));
  write_bytes(file("j"), "");  // a file: with several N, --checkpoint must be a directory
  const std::string same = file("same.json").string(), also_same = file("sub/../same.json").string();
  const std::vector<std::vector<std::string>> cases = {
      {"count", "-n", "8-10", "--checkpoint", file("j").string()},
      {"count", "-n", "8,9", "--shard", "1/2"},
      {"count", "-n", "8", "--shard", "3/2"},
      {"count", "-n", "8", "--shard", "x"},
      {"count", "-n", "8", "--output", file("o").string()},
      {"count", "-n", "8", "--shard", "1/2", "--verify"},
      {"count", "-n", "8", "--progress-interval", "0"},
      {"count", "-n", "8", "--progress-interval", "nan"},
      {"count", "-n", "8", "--progress-interval", "inf"},
      {"count", "-n", "8", "--progress-interval", "-1"},
      {"count", "-n", "8", "--checkpoint", ""},
      {"count", "-n", "8", "--shard", "1/1", "--output", ""},
      // The shard file would replace the journal, or be written under its name.
      {"count", "-n", "8", "--shard", "1/1", "--output", same, "--checkpoint", also_same},
      {"count", "-n", "8", "--shard", "1/1", "--output", same, "--checkpoint", same + ".partial"},
      {"merge"},
      {"merge", file("does-not-exist.json").string()}};
  for (const auto& args : cases) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args[3] << "\n" << describe(r);
    EXPECT_EQ(r.out, "");
  }
  EXPECT_FALSE(fs::exists(same));
  EXPECT_FALSE(fs::exists(same + ".partial"));
}

// The shard file's place is claimed before the count: an unwritable --output used to be found
// only once the count was done, and the result lost. The log shows no size started, and the
// journal named on the same command line is never created.
TEST_F(ShardCli, UnwritableOutputFailsBeforeAnythingIsCounted) {
  const fs::path journal = file("n17.journal");
  // A directory named as the file is bad input (exit 2); one that does not exist fails the write (exit 3).
  for (const auto& [output, code] : {std::pair{file("no/such/dir/x.json").string(), 3}, {directory().string(), 2}}) {
    const Outcome r = run({"count", "-n", "17", "--shard", "1/1", "--output", output, "--checkpoint", journal.string(),
                           "--log-level", "info"});
    EXPECT_EQ(r.exit_code, code) << describe(r);
    EXPECT_TRUE(contains(r.err, code == 3 ? "nqueens: error: cannot " : "is a directory")) << r.err;
    EXPECT_FALSE(contains(r.err, "N=17")) << "the count started\n" << r.err;
    EXPECT_FALSE(fs::exists(journal));
    EXPECT_EQ(r.out, "");
  }
}

// Two runs writing one --output at once: the second is refused while the first holds
// FILE.partial. The first, interrupted, removes it; what a killed run leaves behind, unlocked
// (written here), the next run takes over.
TEST_F(ShardCli, SecondRunOnTheSameOutputIsRefusedAndALeftoverPartialIsTakenOver) {
  const fs::path output = file("n18.json"), partial = file("n18.json.partial");
  harness::Process first =
      start({"count", "-n", "18", "--engine", "dfs", "-t", "1", "--shard", "1/1", "--output", output.string()}, dir_);
  while (!fs::exists(partial) && !first.ended()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const Outcome second = run({"count", "-n", "18", "--engine", "dfs", "--shard", "1/1", "--output", output.string()});
  EXPECT_EQ(second.exit_code, 3) << describe(second);
  EXPECT_TRUE(contains(second.err, partial.string() + " is in use by another nqueens process")) << second.err;
  first.signal(SIGTERM);
  EXPECT_EQ(first.wait().exit_code, 143);
  EXPECT_FALSE(fs::exists(output));
  EXPECT_FALSE(fs::exists(partial));

  write_bytes(partial, "what a killed run left");
  const Outcome third = run({"count", "-n", "10", "--shard", "1/1", "--output", output.string()});
  ASSERT_EQ(third.exit_code, 0) << describe(third);
  EXPECT_FALSE(fs::exists(partial));
  const Outcome merged = merge({output.string()}, {"--format", "csv"});
  ASSERT_EQ(merged.exit_code, 0) << describe(merged);
  EXPECT_TRUE(contains(merged.out, "\n10,724,92,724,92,")) << merged.out;
}

// The file a running count journals into is no other command's target: `count --output` and
// `merge --missing` naming it used to rename their file over it, exit 0, and the count went on
// appending to a deleted file, then said its units were saved there. Both are refused (exit 3,
// nothing written), and the interrupted count's journal is still its journal.
TEST_F(ShardCli, ALiveJournalIsNoOtherCommandsOutput) {
  const fs::path journal = file("j.journal");
  const std::vector<std::string> half = shards(8, 2);
  harness::Process counting =
      start({"count", "-n", "18", "--engine", "dfs", "-t", "1", "--checkpoint", journal.string()}, dir_);
  while ((!fs::exists(journal) || fs::file_size(journal) == 0) && !counting.ended())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::string in_use = journal.string() + " is the journal of a count running in another nqueens process";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"count", "-n", "14", "--units", "1", "--output", journal.string()},
        std::vector<std::string>{"merge", half[0], "--missing", journal.string()}}) {
    const Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 3) << args[0] << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, in_use)) << r.err;
    // merge printed the missing list and the shard hint before the refusal.
    EXPECT_EQ(harness::lines_of(r.err).size(), 1u) << args[0] << "\n" << describe(r);
  }
  EXPECT_FALSE(fs::exists(file("j.journal.partial")));
  counting.signal(SIGTERM);
  const Outcome stopped = counting.wait();
  EXPECT_EQ(stopped.exit_code, 143) << describe(stopped);
  const Outcome checked = run({"check", journal.string()});
  EXPECT_EQ(checked.exit_code, 1) << describe(checked);  // an incomplete journal, as the count said
  EXPECT_TRUE(contains(checked.out, "status: incomplete")) << checked.out;
}

// Another run's live FILE.partial is no target either: written over, it became that run's shard
// file, and that run's own shard was lost.
TEST_F(ShardCli, ALiveTemporaryFileIsNoOtherCommandsOutput) {
  const fs::path output = file("s.json"), partial = file("s.json.partial");
  harness::Process first =
      start({"count", "-n", "18", "--engine", "dfs", "-t", "1", "--shard", "1/1", "--output", output.string()}, dir_);
  while (!fs::exists(partial) && !first.ended()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const Outcome second = run({"count", "-n", "8", "--units", "0-5", "--output", partial.string()});
  EXPECT_EQ(second.exit_code, 3) << describe(second);
  EXPECT_TRUE(contains(
      second.err, partial.string() + " is the temporary file of another nqueens process writing " + output.string()))
      << second.err;
  EXPECT_FALSE(fs::exists(file("s.json.partial.partial")));
  // A journal under that name is refused alike, and not created.
  const Outcome third = run({"count", "-n", "8", "--checkpoint", output.string()});
  EXPECT_EQ(third.exit_code, 3) << describe(third);
  EXPECT_TRUE(contains(third.err, output.string() + " is being written by another nqueens process")) << third.err;
  first.signal(SIGTERM);
  EXPECT_EQ(first.wait().exit_code, 143);
  EXPECT_FALSE(fs::exists(output));
}

// A tampered count is found by check and by merge, and count --units + merge recovers
// the exact total without counting the other units again.
TEST_F(ShardCli, TamperedShardIsFoundAndItsUnitsRecounted) {
  const std::vector<std::string> files = shards(14, 3);
  const nqueens::UnitCount victim = tamper_with_a_count(files[1], files[1]);

  const Outcome checked = run({"check", files[1]});
  EXPECT_EQ(checked.exit_code, 1) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "altered (checksum fails): units " + std::to_string(victim.id))) << checked.out;
  EXPECT_TRUE(contains(checked.out, "--units " + std::to_string(victim.id) + " ")) << checked.out;

  const Outcome merged = merge(files);
  EXPECT_EQ(merged.exit_code, 1) << describe(merged);
  const std::string units_option = "--units " + std::to_string(victim.id) + " ";
  ASSERT_TRUE(contains(merged.err, units_option)) << merged.err;

  const std::string recount = file("recount.json").string();
  const Outcome counted =
      run({"count", "-n", "14", "--engine", "join", "--units", std::to_string(victim.id), "--output", recount});
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  EXPECT_EQ(run({"check", recount}).exit_code, 0);
  std::vector<std::string> all = files;
  all.push_back(recount);
  // The altered entry still sits in the second file: it counts for nothing, and is only reported.
  const Outcome r = merge(all, {"--format", "json", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "unit " + std::to_string(victim.id) + " in " + files[1] + " fails its checksum"))
      << r.err;
  EXPECT_EQ(last_record(r)["total"], 365596);
  EXPECT_EQ(last_record(r)["verified"], true);
}

TEST_F(ShardCli, UnitListsThatDoNotFitTheRunAreBadInput) {
  for (const char* list : {"5-3", "x", "999999", "1,1"}) {
    const Outcome r = run({"count", "-n", "10", "--units", list});
    EXPECT_EQ(r.exit_code, 2) << list << "\n" << describe(r);
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(run({"count", "-n", "10", "--units", "1", "--shard", "1/2"}).exit_code, 2);
}

// A shard file of an older format (1 or 2, written by development builds before the first
// release) is refused by merge in one line (exit 3, as any shard file that cannot be read) and
// reported by check (exit 1), and left as it was. Made from a file of this build by what tells
// those formats apart first, their format_version and entries without a time (their checksums
// are never looked at).
TEST_F(ShardCli, OlderShardFormatsAreRefusedInOneLineAndLeftAsTheyAre) {
  const std::vector<std::string> files = shards(10, 2);
  const std::string old = file("old.json").string();
  for (const int format : {1, 2}) {
    SCOPED_TRACE(testing::Message() << "format " << format);
    std::string text = read_bytes(files[0]);
    text.replace(text.find("\"format_version\":4"), 18, "\"format_version\":" + std::to_string(format));
    text = std::regex_replace(text, std::regex(",\"microseconds\":[0-9]+"), "");
    write_bytes(old, text);
    const std::string line = old + ": a format " + std::to_string(format) +
                             " shard file, written by a development build of nqueens; this build reads format 3 and 4 "
                             "only: count the shard again";
    const Outcome merged = merge({old, files[1]});
    EXPECT_EQ(merged.exit_code, 3) << describe(merged);
    EXPECT_EQ(merged.out, "");
    EXPECT_EQ(merged.err, "nqueens: error: " + line + "\n");
    const Outcome checked = run({"check", old});
    EXPECT_EQ(checked.exit_code, 1) << describe(checked);
    EXPECT_TRUE(contains(checked.out, line)) << checked.out;
    EXPECT_EQ(read_bytes(old), text) << "the file was changed";
  }
}

// ---- partial damage ---------------------------------------------------------

// The lines of a text, each with its newline.
std::vector<std::string> text_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size() - 1);
    lines.push_back(text.substr(begin, end + 1 - begin));
    begin = end + 1;
  }
  return lines;
}

// The id of a shard file's entry line.
std::size_t entry_id(const std::string& line) { return std::stoul(line.substr(line.find("\"id\":") + 5)); }

// Shard files were all or nothing: one flipped bit, a truncation or a lost first line made the
// whole file unreadable (merge exit 3), and check said only "damaged". Each now loses at most its
// damaged entries: check counts the sound ones and names the units to count again, merge uses
// the sound entries and names the rest missing with the command that counts them, and that
// command's file completes the merge to the exact total.
TEST_F(ShardCli, DamagedShardFilesLoseOnlyTheirDamagedEntries) {
  const std::vector<std::string> files = shards(14, 3);
  std::vector<std::size_t> lost;
  // File 1 loses its first line: its run comes from the other files.
  std::vector<std::string> lines = text_lines(read_bytes(files[0]));
  const std::size_t first_entries = lines.size() - 2;
  std::string text;
  for (std::size_t i = 1; i < lines.size(); ++i) text += lines[i];
  write_bytes(files[0], text);
  // File 2: a bit flipped in an entry's JSON (a quote), so that the line is no JSON at all.
  lines = text_lines(read_bytes(files[1]));
  lost.push_back(entry_id(lines[3]));
  lines[3][lines[3].find("\"nodes\"")] ^= 0x04;
  text.clear();
  for (const std::string& line : lines) text += line;
  write_bytes(files[1], text);
  // File 3 is cut short in the middle of an entry.
  lines = text_lines(read_bytes(files[2]));
  const std::size_t kept = lines.size() / 2;
  text.clear();
  for (std::size_t i = 0; i < kept + 1; ++i) text += lines[i];
  for (std::size_t i = kept + 1; i + 1 < lines.size(); ++i) lost.push_back(entry_id(lines[i]));
  write_bytes(files[2], text + lines[kept + 1].substr(0, 25));
  std::sort(lost.begin(), lost.end());
  const std::string lost_list = nqueens::format_id_ranges(lost);

  const Outcome flipped = run({"check", files[1]});
  EXPECT_EQ(flipped.exit_code, 1) << describe(flipped);
  EXPECT_TRUE(contains(flipped.out, "damaged: line 4: not a unit entry (not JSON)")) << flipped.out;
  EXPECT_TRUE(contains(flipped.out, "--units " + std::to_string(lost.front()) + " --output FILE")) << flipped.out;
  const Outcome cut = run({"check", files[2], "--format", "json"});
  EXPECT_EQ(cut.exit_code, 1) << describe(cut);
  const Json report = Json::parse(cut.out);
  EXPECT_EQ(report["sound"], kept);
  EXPECT_EQ(report["status"], "damaged");
  EXPECT_TRUE(contains(report["advice"].get<std::string>(), "nqueens count -n 14 --engine join --units ")) << cut.out;
  // Alone, the headless file names no run; with the others, its entries check out under theirs.
  const Outcome alone = run({"check", files[0]});
  EXPECT_EQ(alone.exit_code, 1) << describe(alone);
  EXPECT_TRUE(contains(alone.out, "give it to merge or check with the other shard files of its run")) << alone.out;
  const Outcome together = run({"check", files[0], files[1], "--format", "json"});
  EXPECT_EQ(together.exit_code, 1) << describe(together);
  const Json headless = Json::parse(together.out.substr(0, together.out.find('\n')));
  EXPECT_EQ(headless["sound"], first_entries);
  EXPECT_EQ(headless["shard"], "unknown");

  const Outcome merged = merge(files);
  EXPECT_EQ(merged.exit_code, 1) << describe(merged);
  EXPECT_TRUE(contains(merged.err, "missing (" + std::to_string(lost.size()) + " of ")) << merged.err;
  EXPECT_TRUE(contains(merged.err, "nqueens count -n 14 --engine join --units " + lost_list + " --output recount.json"))
      << merged.err;
  const std::string recount = file("recount.json").string();
  const Outcome counted = run({"count", "-n", "14", "--engine", "join", "--units", lost_list, "--output", recount});
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  std::vector<std::string> all = files;
  all.push_back(recount);
  const Outcome r = merge(all, {"--format", "json", "--verify"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(last_record(r)["total"], 365596);
  EXPECT_EQ(last_record(r)["verified"], true);
}

// A shard file without its first line was read as one document of up to 256 MiB (a 120 MB one
// took 2.16 GB) and refused. Its entries are read line by line, under the run of the other file,
// in memory that follows its entries: here 40 MB of them, each repeated many times (harmless).
TEST_F(ShardCli, AShardFileWithoutItsFirstLineIsReadInTheMemoryItsEntriesTake) {
#ifdef NQUEENS_SANITIZED
  GTEST_SKIP() << "a sanitizer's own memory makes a bound on the peak meaningless";
#endif
  const std::vector<std::string> files = shards(12, 2);
  const std::vector<std::string> lines = text_lines(read_bytes(files[0]));
  std::string entries;
  for (std::size_t i = 1; i + 2 < lines.size(); ++i) entries += lines[i];
  std::string text;
  while (text.size() < (std::size_t{40} << 20)) text += entries;
  text += lines[lines.size() - 2] + lines.back();
  write_bytes(files[0], text);
  const Outcome r = merge(files, {"--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(last_record(r)["total"], 14200);
  EXPECT_LT(r.max_rss_kib, 160 * 1024) << "40 MB of entries";
}

// check said "whole" of a shard file that merge refused as duplicated (an entry repeated in it).
// They agree: a repeat in one file is harmless, as in a journal.
TEST_F(ShardCli, CheckAndMergeAgreeOnARepeatedEntry) {
  const std::vector<std::string> files = shards(12, 1);
  std::vector<std::string> lines = text_lines(read_bytes(files[0]));
  lines.insert(lines.begin() + 3, lines[2]);
  std::string text;
  for (const std::string& line : lines) text += line;
  write_bytes(files[0], text);
  const Outcome checked = run({"check", files[0]});
  EXPECT_EQ(checked.exit_code, 0) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "1 repeated")) << checked.out;
  const Outcome merged = merge(files, {"--format", "json"});
  EXPECT_EQ(merged.exit_code, 0) << describe(merged);
  EXPECT_EQ(last_record(merged)["total"], 14200);
}

// Editing "n":16 to 17 in a K = 1 shard file merged to "17 14772512" with exit 0 before shard headers were bound to
// their run. The edit is found, and the file is merged under the run its entries check out under.
TEST_F(ShardCli, ShardFileWithAnEditedHeaderIsFoundAndNeverMergedUnderTheEdit) {
  const std::vector<std::string> files = shards(10, 1);
  std::string text = read_bytes(files[0]);
  // One bit: the header's checksum finds it, and the entries, bound to their run, confirm N = 10.
  text.replace(text.find("\"n\":10"), 6, "\"n\":11");
  write_bytes(file("edited.json"), text);
  const Outcome r = merge({file("edited.json").string()}, {"--format", "json"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "edited.json line 1: the header fails its checksum")) << r.err;
  EXPECT_EQ(last_record(r)["n"], 10);
  EXPECT_EQ(last_record(r)["total"], 724);
  // Two bits: the line reads N = 13, which no entry fits: refused.
  text.replace(text.find("\"n\":11"), 6, "\"n\":13");
  write_bytes(file("edited.json"), text);
  const Outcome refused = merge({file("edited.json").string()});
  EXPECT_EQ(refused.exit_code, 3) << describe(refused);
  EXPECT_EQ(refused.out, "");
  EXPECT_TRUE(contains(refused.err, "edited.json: not a valid shard file: the header fails its checksum"))
      << refused.err;
  EXPECT_TRUE(contains(refused.err, "no unit entry checks out under the run it names")) << refused.err;
}

// A merge of one shard of a million named every missing shard on its own line: 1,000,001 lines.
TEST_F(ShardCli, MergeOfOneShardOfAMillionSaysSoInAFewLines) {
  const std::string one = file("one.json").string();
  const Outcome counted = run({"count", "-n", "8", "--shard", "1/1000000", "--output", one});
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  const Outcome r = merge({one});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_LE(std::count(r.err.begin(), r.err.end(), '\n'), 5) << r.err.substr(0, 2000);
  EXPECT_TRUE(contains(r.err, "no file for shards 2-1000000 of 1000000")) << r.err.substr(0, 2000);
}

// Shards 1/4 and 1/8 of one run overlap and leave gaps: the merge says they come from two
// splits, naming a file of each, instead of listing duplicates and gaps alone.
TEST_F(ShardCli, MergeOfShardsOfTwoSplitsSaysSo) {
  const std::string quarter = file("quarter.json").string(), eighth = file("eighth.json").string();
  ASSERT_EQ(run({"count", "-n", "12", "--shard", "1/4", "--output", quarter}).exit_code, 0);
  ASSERT_EQ(run({"count", "-n", "12", "--shard", "1/8", "--output", eighth}).exit_code, 0);
  const Outcome r = merge({quarter, eighth});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(
      contains(r.err, "the files are shards of 2 different splits: 1/4 (" + quarter + "), 1/8 (" + eighth + ")"))
      << r.err;
  EXPECT_FALSE(contains(r.err, "no file for shard")) << "the hints of one split would mislead: " << r.err;
}

// ---- merge --subtotals and --compare ----------------------------------------------------------

// Two runs of the same units, cut into 4 and into 3 shards on other thread counts, write the same
// subtotals file byte for byte (so its CRC alone says they agree), and compare equal.
TEST_F(ShardCli, SubtotalsOfTwoLayoutsAreOneFileAndCompareEqual) {
  const std::string a = file("a.subtotals").string();
  const std::string b = file("b.subtotals").string();
  ASSERT_EQ(merge(shards(13, 4, "a"), {"--subtotals", a}).exit_code, 0);
  std::vector<std::string> three;
  for (int i = 1; i <= 3; ++i) {
    three.push_back(file("b-" + std::to_string(i) + ".json").string());
    const Outcome r =
        run({"count", "-n", "13", "-t", "1", "--shard", std::to_string(i) + "/3", "--output", three.back()});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  const Outcome compared = merge(three, {"--subtotals", b, "--compare", a, "--log-level", "info"});
  EXPECT_EQ(compared.exit_code, 0) << describe(compared);
  EXPECT_TRUE(contains(compared.err, "every one of the 351 units agrees with")) << compared.err;
  const std::string text = read_bytes(a);
  EXPECT_EQ(text, read_bytes(b));
  EXPECT_EQ(text.rfind("nqueens-subtotals 2 n=13 split_depth=3 symmetry=full ", 0), 0U) << text.substr(0, 100);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 351 + 2);
}

// A subtotals file of format 1, which gave every header symmetry and split_depth whatever the
// engine (symmetry=full split_depth=0 for the join), is still read: its units compare equal with
// a format-2 file of the same run, of the dfs engine and of the join. A format-1 header whose
// fields stand for no run's settings is refused.
TEST_F(ShardCli, SubtotalsOfFormatOneAreStillRead) {
  // The file `written` with its first line replaced by `head` and its end line made anew.
  const auto as_format1 = [this](const std::string& written, const std::string& head, const std::string& name) {
    const std::string text = read_bytes(written);
    const std::string units = text.substr(text.find('\n') + 1, text.rfind("end ") - text.find('\n') - 1);
    const std::string body = head + "\n" + units;
    const std::string path = file(name).string();
    std::ofstream(path) << body << "end units=" << std::count(units.begin(), units.end(), '\n')
                        << " crc=" << nqueens::checksum_hex(nqueens::crc32(body)) << "\n";
    return path;
  };
  const auto fingerprint_of = [](const std::string& text) {
    const std::size_t at = text.find("fingerprint=");
    return text.substr(at, text.find('\n') - at);
  };
  const std::string dfs = file("dfs.subtotals").string();
  const std::vector<std::string> dfs_files = shards(13, 2, "d");
  ASSERT_EQ(merge(dfs_files, {"--subtotals", dfs}).exit_code, 0);
  const std::string old_dfs = as_format1(
      dfs, "nqueens-subtotals 1 n=13 symmetry=full split_depth=3 units=351 " + fingerprint_of(read_bytes(dfs)),
      "old-dfs.subtotals");
  const Outcome dfs_compared = merge(dfs_files, {"--compare", old_dfs, "--log-level", "info"});
  EXPECT_EQ(dfs_compared.exit_code, 0) << describe(dfs_compared);
  EXPECT_TRUE(contains(dfs_compared.err, "every one of the 351 units agrees with")) << dfs_compared.err;

  std::vector<std::string> join_files;
  for (int i = 1; i <= 2; ++i) {
    join_files.push_back(file("j-" + std::to_string(i) + ".json").string());
    ASSERT_EQ(run({"count", "-n", "12", "--engine", "join", "--shard", std::to_string(i) + "/2", "--output",
                   join_files.back()})
                  .exit_code,
              0);
  }
  const std::string join = file("join.subtotals").string();
  ASSERT_EQ(merge(join_files, {"--subtotals", join}).exit_code, 0);
  const std::string join_text = read_bytes(join);
  EXPECT_EQ(join_text.rfind("nqueens-subtotals 2 n=12 units=", 0), 0U) << join_text.substr(0, 100);
  const std::string units =
      join_text.substr(join_text.find("units="), join_text.find(" fingerprint") - join_text.find("units="));
  const std::string old_join = as_format1(
      join, "nqueens-subtotals 1 n=12 symmetry=full split_depth=0 " + units + " " + fingerprint_of(join_text),
      "old-join.subtotals");
  EXPECT_EQ(merge(join_files, {"--compare", old_join}).exit_code, 0);
  const std::string written_late =
      as_format1(join, "nqueens-subtotals 1 n=12 " + units + " " + fingerprint_of(join_text), "late-join.subtotals");
  EXPECT_EQ(merge(join_files, {"--compare", written_late}).exit_code, 0);

  const std::string bad = as_format1(
      join, "nqueens-subtotals 1 n=12 symmetry=mirror split_depth=0 " + units + " " + fingerprint_of(join_text),
      "bad.subtotals");
  const Outcome refused = merge(join_files, {"--compare", bad});
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "a header that does not read")) << refused.err;
}

// Another run's file with two units' totals changed and its CRC made anew (a forged file, or a
// run that went wrong): each unit is named with both counts, and merge exits 1. The same edit
// without the CRC made anew is refused as no file of merge's (exit 2).
TEST_F(ShardCli, CompareNamesEveryUnitThatDiffers) {
  const std::string ours = file("ours.subtotals").string();
  const std::vector<std::string> files = shards(12, 2);
  ASSERT_EQ(merge(files, {"--subtotals", ours}).exit_code, 0);
  std::vector<std::string> lines;
  std::istringstream in(read_bytes(ours));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (const std::size_t unit : {5U, 40U}) {
    std::istringstream fields(lines[unit + 1]);
    std::string id;
    std::uint64_t total = 0;
    std::string rest;
    fields >> id >> total;
    std::getline(fields, rest);
    lines[unit + 1] = id + " " + std::to_string(total + 8) + rest;
  }
  std::string body;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) body += lines[i] + "\n";
  const std::string theirs = file("theirs.subtotals").string();
  std::ofstream(theirs) << body << lines.back() << "\n";
  const Outcome unsigned_edit = merge(files, {"--compare", theirs});
  EXPECT_EQ(unsigned_edit.exit_code, 2) << describe(unsigned_edit);
  EXPECT_TRUE(contains(unsigned_edit.err, "its end line says")) << unsigned_edit.err;
  std::ofstream(theirs) << body << "end units=" << lines.size() - 2
                        << " crc=" << nqueens::checksum_hex(nqueens::crc32(body)) << "\n";
  const Outcome r = merge(files, {"--compare", theirs});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "unit 5: total ")) << r.err;
  EXPECT_TRUE(contains(r.err, "unit 40: total ")) << r.err;
  EXPECT_TRUE(contains(r.err, "2 units differ from")) << r.err;
}

// The join's units counted by two engines that share them (a join shard and a gpu shard, here a
// join shard written again under the gpu engine's header, as a gpu run writes its counts): one
// run to merge, whose result says which engine counted how many units. A dfs shard, whose
// units are its own, is still another run. This suite runs in every build, the sanitizers' too,
// which build no device path: gpu_stand_in_driver merges a shard the gpu engine wrote.
TEST_F(ShardCli, MergeMixesEnginesThatShareUnitsAndSaysWhichCountedWhat) {
  std::vector<std::string> files;
  for (int i = 1; i <= 2; ++i) {
    files.push_back(file("join-" + std::to_string(i) + ".json").string());
    const Outcome r = run({"count", "-n", "12", "-t", "2", "--engine", "join", "--shard", std::to_string(i) + "/2",
                           "--output", files.back()});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  nqueens::ShardFile second = nqueens::parse_shard_json(read_bytes(files[1]), files[1]);
  second.header.engine = "gpu";
  files[1] = file("gpu-2.json").string();
  std::ofstream(files[1]) << nqueens::shard_json(second);
  const Outcome r = merge(files, {"--verify", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const Json result = last_record(r);
  EXPECT_EQ(result["total"], 14200);
  EXPECT_EQ(result["verified"], true);
  const std::size_t first = nqueens::parse_shard_json(read_bytes(files[0]), files[0]).units.size();
  EXPECT_EQ(result["units_by_engine"]["join"], first);
  EXPECT_EQ(result["units_by_engine"]["gpu"], second.units.size());
  // check reads the gpu shard whether or not a gpu engine can count here (then with the join's units).
  const Outcome checked = run({"check", "--recount", "3", "--seed", "1", files[1]});
  EXPECT_EQ(checked.exit_code, 0) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "all equal")) << checked.out;
  const std::string dfs = file("dfs-2.json").string();
  ASSERT_EQ(run({"count", "-n", "12", "--engine", "dfs", "--shard", "2/2", "--output", dfs}).exit_code, 0);
  const Outcome mixed = merge({files[0], dfs});
  EXPECT_EQ(mixed.exit_code, 2) << describe(mixed);
  EXPECT_TRUE(contains(mixed.err, "belongs to a different run")) << mixed.err;
}

// ---- check --recount -------------------------------------------------------------------------

// `check --recount K` of a journal and of a shard file as a run wrote them: K of each file's
// records, drawn with the seed given, counted again and found equal.
TEST_F(ShardCli, CheckRecountOfGenuineFilesSaysAllEqualAndStatesTheSeed) {
  const std::string journal = file("n11.journal").string();
  count(11, {"--checkpoint", journal, "--engine", "dfs"});
  const std::vector<std::string> files = shards(12, 2);
  const std::size_t in_journal = nqueens::scan_journal(read_bytes(journal), journal).units.size();
  const std::size_t in_shard = nqueens::parse_shard_json(read_bytes(files[0]), files[0]).units.size();
  const auto said = [](std::size_t k, std::size_t records, const std::string& seed) {
    return "recount: " + std::to_string(std::min(k, records)) + " of " + std::to_string(records) +
           " units recounted (seed " + seed + "): all equal";
  };
  const Outcome r = run({"check", "--recount", "5", "--seed", "7", "-t", "2", journal, files[0]});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, said(5, in_journal, "7"))) << r.out;
  EXPECT_TRUE(contains(r.out, said(5, in_shard, "7"))) << r.out;
  // Without --seed, one is drawn and stated, and names the same draw when given again.
  const Outcome unseeded = run({"check", "--recount", "2", journal});
  EXPECT_EQ(unseeded.exit_code, 0) << describe(unseeded);
  EXPECT_TRUE(std::regex_search(unseeded.out, std::regex(R"(2 of [0-9]+ units recounted \(seed [0-9]+\): all equal)")))
      << unseeded.out;
  const Outcome drawn = run({"check", "--recount", "2", journal, "--format", "json"});
  ASSERT_EQ(drawn.exit_code, 0) << describe(drawn);
  const Json first = Json::parse(drawn.out)["recount"];
  const Outcome again = run({"check", "--recount", "2", "--seed", first["seed"].dump(), journal, "--format", "json"});
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(Json::parse(again.out)["recount"]["units"], first["units"]);
}

// The draw states what it can catch: of M records, K drawn meet one wrong record with
// probability K / M, and k wrong ones with 1 - C(M - k, K) / C(M, K), worked out here term by term.
TEST_F(ShardCli, CheckRecountStatesTheChanceOfCatchingWrongRecords) {
  const std::string journal = file("n11.journal").string();
  count(11, {"--checkpoint", journal, "--engine", "dfs"});
  const std::size_t records = nqueens::scan_journal(read_bytes(journal), journal).units.size();
  const Outcome r = run({"check", "--recount", "5", "--seed", "7", "--format", "json", journal});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const Json recount = Json::parse(r.out)["recount"];
  EXPECT_NEAR(recount["catch_one_wrong"].get<double>(), 5.0 / static_cast<double>(records), 1e-12);
  const auto caught = [records](std::size_t wrong) {
    long double missed = 1;
    for (std::size_t i = 0; i < 5; ++i)
      missed *= static_cast<long double>(records - wrong - i) / static_cast<long double>(records - i);
    return 1 - missed;
  };
  std::size_t k = 1;
  while (caught(k) < 0.99L) ++k;
  EXPECT_EQ(recount["wrong_caught_99"], k);
  const Outcome text = run({"check", "--recount", "5", "--seed", "7", journal});
  EXPECT_TRUE(contains(text.out, "with " + std::to_string(k) + " or more, 99 %")) << text.out;
  const Outcome all = run({"check", "--recount", std::to_string(records), journal});
  EXPECT_TRUE(contains(all.out, "all equal (every record recounted: any wrong record is caught)")) << all.out;
}

// The same seed draws the same units of a file, whatever else differs (threads, format).
TEST_F(ShardCli, CheckRecountDrawsTheSameUnitsForTheSameSeed) {
  const std::string journal = file("n12.journal").string();
  count(12, {"--checkpoint", journal, "--engine", "dfs"});
  const auto drawn = [this, &journal](const std::string& seed, const std::string& threads) {
    const Outcome r = run({"check", "--recount", "4", "--seed", seed, "-t", threads, "--format", "json", journal});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    const Json recount = Json::parse(r.out)["recount"];
    EXPECT_EQ(recount["seed"], std::stoull(seed));
    EXPECT_EQ(recount["recounted"], 4);
    EXPECT_TRUE(recount["all_equal"].get<bool>());
    return recount["units"].get<std::string>();
  };
  const std::string first = drawn("12345", "1");
  EXPECT_EQ(nqueens::parse_id_ranges(first, 1u << 20).size(), 4u) << first;
  EXPECT_EQ(drawn("12345", "2"), first);
  std::set<std::string> others;
  for (const char* seed : {"1", "2", "3", "4"}) others.insert(drawn(seed, "2"));
  EXPECT_GT(others.size(), 1u) << "four seeds drew the same units";
}

// A record edited with its checksum computed anew passes every other check; recounting every
// record finds it, names the unit and the field, and says the file is wrong (exit 1).
TEST_F(ShardCli, CheckRecountFindsARecordWrittenWrongUnderASoundChecksum) {
  const std::string journal = file("n11.journal").string();
  count(11, {"--checkpoint", journal, "--engine", "dfs"});
  std::string bytes = read_bytes(journal);
  const nqueens::JournalScan scan = nqueens::scan_journal(bytes, journal);
  const nqueens::UnitCount victim = scan.units.at(scan.units.size() / 2);
  nqueens::UnitCount forged = victim;
  forged.tally.total += 4;
  const std::string line = nqueens::journal_record_line(scan.header, victim);
  ASSERT_NE(bytes.find(line), std::string::npos);
  bytes.replace(bytes.find(line), line.size(), nqueens::journal_record_line(scan.header, forged));
  write_bytes(journal, bytes);
  ASSERT_EQ(run({"check", journal}).exit_code, 0) << "the edit is caught without recounting";

  const Outcome r = run({"check", "--recount", "1000000", "--seed", "3", journal});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(contains(r.out, "units recounted (seed 3): unit " + std::to_string(victim.id) +
                                  " differs (total: recorded " + std::to_string(forged.tally.total) + ", recounted " +
                                  std::to_string(victim.tally.total) + ")"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "status: wrong")) << r.out;
  EXPECT_EQ(read_bytes(journal), bytes) << "check changed the file";

  const std::string shard = shards(12, 2)[1];
  nqueens::ShardFile written = nqueens::parse_shard_json(read_bytes(shard), shard);
  nqueens::UnitCount& edited = written.units.at(1);
  const nqueens::Tally genuine = edited.tally;
  edited.tally.nodes += 1;
  write_bytes(shard, nqueens::shard_json(written));
  ASSERT_EQ(run({"check", shard}).exit_code, 0) << "the edit is caught without recounting";
  const Outcome found = run({"check", "--recount", "1000000", "--format", "json", shard});
  EXPECT_EQ(found.exit_code, 1) << describe(found);
  const Json report = Json::parse(found.out);
  EXPECT_EQ(report["status"], "wrong");
  ASSERT_EQ(report["recount"]["differ"].size(), 1u) << found.out;
  const Json& differ = report["recount"]["differ"][0];
  EXPECT_EQ(differ["id"], edited.id);
  EXPECT_EQ(differ["recorded"]["nodes"], edited.tally.nodes);
  EXPECT_EQ(differ["recounted"]["nodes"], genuine.nodes);
  EXPECT_EQ(differ["recounted"]["total"], genuine.total);
}

// --by independent recounts a join file with a second way of counting its units (a search on the
// whole board): a total forged under a sound checksum differs from it, the nodes (its own) are
// not held against the record, and the report names the path. An engine without such a path
// (dfs) is refused in one line.
TEST_F(ShardCli, CheckRecountByTheIndependentPathFindsAForgedJoinRecordAndNamesThePath) {
  const std::string journal = file("n14.journal").string();
  count(14, {"--checkpoint", journal, "--engine", "join"});
  const Outcome sound = run({"check", "--recount", "1000000", "--by", "independent", "--format", "json", journal});
  EXPECT_EQ(sound.exit_code, 0) << describe(sound);
  const Json clean = Json::parse(sound.out)["recount"];
  EXPECT_EQ(clean["by"], "independent");
  EXPECT_TRUE(contains(clean["path"].get<std::string>(), "backtracking search")) << sound.out;
  EXPECT_TRUE(clean["all_equal"].get<bool>()) << sound.out;

  std::string bytes = read_bytes(journal);
  const nqueens::JournalScan scan = nqueens::scan_journal(bytes, journal);
  const nqueens::UnitCount victim = scan.units.at(scan.units.size() / 3);
  nqueens::UnitCount forged = victim;
  forged.tally.total += 2;
  forged.tally.nodes += 7;
  const std::string line = nqueens::journal_record_line(scan.header, victim);
  ASSERT_NE(bytes.find(line), std::string::npos);
  bytes.replace(bytes.find(line), line.size(), nqueens::journal_record_line(scan.header, forged));
  write_bytes(journal, bytes);
  ASSERT_EQ(run({"check", journal}).exit_code, 0) << "the edit is caught without recounting";

  const Outcome r = run({"check", "--recount", "1000000", "--by", "independent", "--seed", "3", journal});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(contains(r.out, "recount by independent: the join units' independent path")) << r.out;
  EXPECT_TRUE(contains(r.out, "units recounted (seed 3): unit " + std::to_string(victim.id) +
                                  " differs (total: recorded " + std::to_string(forged.tally.total) + ", recounted " +
                                  std::to_string(victim.tally.total) + ")"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "status: wrong")) << r.out;
  const Outcome same = run({"check", "--recount", "1000000", "--seed", "3", journal});
  EXPECT_TRUE(contains(same.out, "recount by same: the run's own engine, join")) << same.out;

  const std::string dfs = file("n9.journal").string();
  count(9, {"--checkpoint", dfs, "--engine", "dfs"});
  const Outcome refused = run({"check", "--recount", "3", "--by", "independent", dfs});
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "the dfs engine's units have no independent recount path")) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_EQ(run({"check", "--by", "independent", dfs}).exit_code, 2) << "--by without --recount";
  EXPECT_EQ(run({"check", "--recount", "3", "--by", "other", dfs}).exit_code, 2);
}

// A K that is no positive whole number, or a seed without --recount, is refused in one line.
TEST_F(ShardCli, CheckRecountRefusesABadKInOneLine) {
  const std::string journal = file("n8.journal").string();
  count(8, {"--checkpoint", journal});
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--recount", "0"},
                                               {"--recount", "-3"},
                                               {"--recount", "many"},
                                               {"--recount", "2.5"},
                                               {"--recount", ""},
                                               {"--recount", "3", "--seed", "-1"},
                                               {"--seed", "5"}}) {
    std::vector<std::string> command = {"check", journal};
    command.insert(command.end(), args.begin(), args.end());
    const Outcome r = run(command);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "") << args[0] << " " << args[1];
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
