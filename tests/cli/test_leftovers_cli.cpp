// A temporary file (FILE.partial) hit by a signal, through the program as a user runs it. Each
// write of a whole file (a --missing list, a repaired journal and its backup, a shard file) lives
// as FILE.partial until its rename, a window a random delay may never land in: the program's test
// setting NQUEENS_STOP_BEFORE_RENAME=K stops the process just before its K-th rename, and the test
// signals it there. SIGTERM (delivered with SIGCONT) must leave no FILE.partial; SIGKILL leaves
// one, unlocked, which the next run touching that file, of any kind, removes or names.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using harness::describe;
using harness::Outcome;
using harness::read_bytes;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The state letter of process `pid` in /proc (R, S, T for stopped, Z), or 0 once it is gone.
char process_state(pid_t pid) {
  const std::string stat = read_bytes("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t close = stat.rfind(')');  // the command name may hold spaces
  return close == std::string::npos || close + 2 >= stat.size() ? '\0' : stat[close + 2];
}

class LeftoversCli : public testing::Test {
 public:
  void SetUp() override { dir_ = harness::fresh_test_directory("nqueens-leftovers"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

 protected:
  fs::path file(const std::string& name) const { return dir_ / name; }

  Outcome run(std::vector<std::string> args) {
    args.insert(args.begin(), NQUEENS_BINARY);
    return harness::Process(std::move(args), harness::Options::captured_in(dir_)).wait();
  }

  // Starts `args` stopped before its `rename`-th rename, and waits until it has stopped there
  // (false if it ended first, or took more than a minute on a loaded machine).
  bool stopped_before_rename(std::unique_ptr<harness::Process>& process, std::vector<std::string> args, int rename) {
    args.insert(args.begin(), {"/usr/bin/env", "NQUEENS_STOP_BEFORE_RENAME=" + std::to_string(rename), NQUEENS_BINARY});
    process = std::make_unique<harness::Process>(std::move(args), harness::Options::captured_in(dir_));
    for (int wait = 0; wait < 6000; ++wait) {
      const char state = process_state(process->pid());
      if (state == 'T') return true;
      if (state == '\0' || state == 'Z') return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  // SIGTERM to the stopped process, delivered by SIGCONT: what a user's kill does in that window.
  static Outcome terminated(harness::Process& process) {
    process.signal(SIGTERM);
    process.signal(SIGCONT);
    return process.wait();
  }

  // A whole journal of N = 12, then one record made to fail its checksum: --repair rewrites it.
  fs::path damaged_journal() {
    const fs::path journal = file("j.journal");
    const Outcome whole = run({"count", "-n", "12", "-t", "2", "--checkpoint", journal.string()});
    EXPECT_EQ(whole.exit_code, 0) << describe(whole);
    std::string bytes = read_bytes(journal);
    const std::size_t second_record = bytes.find('\n', bytes.find('\n') + 1) + 1;
    bytes[second_record + 2] = bytes[second_record + 2] == '1' ? '2' : '1';
    write_bytes(journal, bytes);
    return journal;
  }

  // Shard files of N = 12 in 2 shards, the second left out: merge --missing has a list to write.
  std::vector<std::string> half_the_shards() {
    const fs::path shard = file("s1.json");
    const Outcome r = run({"count", "-n", "12", "-t", "2", "--shard", "1/2", "--output", shard.string()});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return {"merge", shard.string()};
  }

  fs::path dir_;
};

constexpr const char* kStale = ", left by an earlier run killed while it wrote it";

TEST_F(LeftoversCli, AMergeMissingKilledAtItsRenameLeavesNothingPastTheNextMerge) {
  std::vector<std::string> merge = half_the_shards();
  const fs::path list = file("m.txt"), partial = file("m.txt.partial");
  merge.insert(merge.end(), {"--missing", list.string()});

  std::unique_ptr<harness::Process> merging;
  ASSERT_TRUE(stopped_before_rename(merging, merge, 1)) << describe(merging->wait());
  ASSERT_TRUE(fs::exists(partial));
  const Outcome ended = terminated(*merging);
  EXPECT_EQ(ended.exit_code, 143) << describe(ended);
  EXPECT_FALSE(fs::exists(partial)) << "SIGTERM left the temporary file";
  EXPECT_FALSE(fs::exists(list));

  ASSERT_TRUE(stopped_before_rename(merging, merge, 1)) << describe(merging->wait());
  merging->signal(SIGKILL);
  EXPECT_EQ(merging->wait().exit_code, 128 + SIGKILL);
  ASSERT_TRUE(fs::exists(partial)) << "SIGKILL cannot remove it: the next run must";
  const Outcome next = run(merge);
  EXPECT_EQ(next.exit_code, 1) << describe(next);  // units missing
  EXPECT_TRUE(contains(next.err, "removed " + partial.string() + kStale)) << next.err;
  EXPECT_FALSE(fs::exists(partial));
  EXPECT_TRUE(fs::exists(list));
}

// A count --repair renames the backup (j.journal.damaged) first, then the journal: each window is
// hit in turn. The next run of any kind on the journal (a plain count, check, a repair) removes
// or names what a SIGKILL left.
TEST_F(LeftoversCli, ARepairKilledAtEitherRenameLeavesNothingPastTheNextRun) {
  const std::vector<std::vector<std::string>> next_runs = {
      {"count", "-n", "12", "-t", "2"}, {"check"}, {"count", "-n", "12", "-t", "2", "--repair"}};
  const fs::path journal = damaged_journal();
  const std::string damaged = read_bytes(journal);
  for (const int rename : {1, 2}) {
    const fs::path partial = rename == 1 ? file("j.journal.damaged.partial") : file("j.journal.partial");
    const std::vector<std::string> repair = {"count",          "-n",      "12", "-t", "2", "--checkpoint",
                                             journal.string(), "--repair"};
    // SIGTERM: the count notes it and stops once the repair is whole, or the signal ends the
    // process first; either way, no temporary file is left. Always 143: a signal received before
    // the result is written stops the count, even when its one unit left was counted meanwhile
    // (under a thread sanitizer the setup's watcher thread, ending, took the signal with it: 6 of
    // 40 tries ended 0 before every thread but the main one blocked the stop signals).
    std::unique_ptr<harness::Process> repairing;
    ASSERT_TRUE(stopped_before_rename(repairing, repair, rename)) << describe(repairing->wait());
    ASSERT_TRUE(fs::exists(partial)) << rename;
    const Outcome ended = terminated(*repairing);
    EXPECT_EQ(ended.exit_code, 143) << describe(ended);
    EXPECT_FALSE(contains(ended.out, "14200")) << describe(ended);
    EXPECT_FALSE(fs::exists(partial)) << "SIGTERM left the temporary file, rename " << rename;

    for (const std::vector<std::string>& next_run : next_runs) {
      write_bytes(journal, damaged);
      fs::remove(file("j.journal.damaged"));
      ASSERT_TRUE(stopped_before_rename(repairing, repair, rename)) << describe(repairing->wait());
      repairing->signal(SIGKILL);
      EXPECT_EQ(repairing->wait().exit_code, 128 + SIGKILL);
      ASSERT_TRUE(fs::exists(partial)) << rename;
      std::vector<std::string> args = next_run;
      if (next_run.front() == "check")
        args.push_back(journal.string());
      else
        args.insert(args.end(), {"--checkpoint", journal.string()});
      const Outcome next = run(args);
      EXPECT_TRUE(contains(next.err, partial.string())) << "rename " << rename << ", then " << args[0] << "\n"
                                                        << describe(next);
      if (next_run.front() != "check") {
        EXPECT_FALSE(fs::exists(partial)) << "rename " << rename;
      }
      fs::remove(partial);
    }
    write_bytes(journal, damaged);
    fs::remove(file("j.journal.damaged"));
  }
}

// A shard file is written under FILE.partial from the start of the count: SIGTERM just before its
// rename leaves neither it nor a shard file; what SIGKILL leaves, the next count of that --output
// takes over and says so, and a merge that looks for the shard file names it.
TEST_F(LeftoversCli, ACountKilledAtItsShardFilesRenameLeavesNothingPastTheNextRun) {
  const fs::path shard = file("s.json"), partial = file("s.json.partial");
  const std::vector<std::string> count = {"count", "-n", "11", "-t", "2", "--shard", "1/1", "--output", shard.string()};
  std::unique_ptr<harness::Process> counting;
  ASSERT_TRUE(stopped_before_rename(counting, count, 1)) << describe(counting->wait());
  const Outcome ended = terminated(*counting);
  EXPECT_FALSE(fs::exists(partial)) << "SIGTERM left the temporary file\n" << describe(ended);

  fs::remove(shard);
  ASSERT_TRUE(stopped_before_rename(counting, count, 1)) << describe(counting->wait());
  counting->signal(SIGKILL);
  EXPECT_EQ(counting->wait().exit_code, 128 + SIGKILL);
  ASSERT_TRUE(fs::exists(partial));
  const Outcome merged = run({"merge", shard.string()});
  EXPECT_NE(merged.exit_code, 0) << describe(merged);
  EXPECT_TRUE(contains(merged.err, ".partial beside it was left by a count killed")) << merged.err;

  const Outcome next = run(count);
  ASSERT_EQ(next.exit_code, 0) << describe(next);
  EXPECT_TRUE(contains(next.err, "removed " + partial.string() + kStale)) << next.err;
  EXPECT_FALSE(fs::exists(partial));
  EXPECT_TRUE(fs::exists(shard));
}

// The setting is strict like every other: a value that is no rename number is refused in one line.
TEST_F(LeftoversCli, TheStopSettingRefusesWhatIsNoRenameNumber) {
  for (const char* value : {"0", "x", "-1", "1.5"}) {
    const Outcome r = harness::run_program(
        {"/usr/bin/env", std::string("NQUEENS_STOP_BEFORE_RENAME=") + value, NQUEENS_BINARY, "count", "-n", "8"});
    EXPECT_EQ(r.exit_code, 2) << value << "\n" << describe(r);
    EXPECT_EQ(harness::lines_of(r.err).size(), 1u) << describe(r);
    EXPECT_TRUE(contains(r.err, "NQUEENS_STOP_BEFORE_RENAME")) << r.err;
  }
}

}  // namespace
