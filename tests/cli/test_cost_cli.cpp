// What a count says it will cost before it starts: an N past an hour on the threads given is
// announced on the log, one past a year refused whole (exit 2, one line) unless --force, before
// any setup; and the setup's phases show on stderr while the tables are built.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using harness::describe;
using harness::lines_of;
using harness::Outcome;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class CostCli : public testing::Test {
 public:
  void SetUp() override { dir_ = harness::fresh_test_directory("nqueens-cost"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // The program in a directory of its own, its output in files there (captured apart), so that
  // it can be signalled while it runs.
  harness::Process start(std::vector<std::string> args) {
    args.insert(args.begin(), NQUEENS_BINARY);
    return start_command(std::move(args));
  }
  harness::Process start_command(std::vector<std::string> args) {
    fs::create_directories(dir_ / "run");
    harness::Options options = harness::Options::captured_in(dir_);
    options.working_directory = dir_ / "run";
    return harness::Process(std::move(args), options);
  }

  bool ran_in_empty_directory() const { return fs::is_empty(dir_ / "run"); }

 private:
  fs::path dir_;
};

// N = 30 takes centuries on any machine this runs on: refused at once, in one line that names
// the estimate, `nqueens plan` and --force, with nothing written and nothing set up.
TEST_F(CostCli, CenturiesAreRefusedWithoutForce) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"count", "-n", "30"}, {"count", "-n", "8,30", "--checkpoint", "journals"}}) {
    harness::Process process = start(args);
    const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
    ASSERT_TRUE(r) << "no answer within 20 s: the refusal must come before the setup";
    EXPECT_EQ(r->exit_code, 2) << describe(*r);
    EXPECT_EQ(r->out, "");
    ASSERT_EQ(lines_of(r->err).size(), 1u) << r->err;
    EXPECT_TRUE(contains(r->err, "N=30: a whole count")) << r->err;
    EXPECT_TRUE(contains(r->err, " years on ")) << r->err;
    EXPECT_TRUE(contains(r->err, "`nqueens plan -n 30`")) << r->err;
    EXPECT_TRUE(contains(r->err, "--force")) << r->err;
    EXPECT_TRUE(ran_in_empty_directory()) << "a refused command created files";
  }
}

// --force lets N = 30 past the refusal: it is announced, and its setup starts (stopped here by
// SIGTERM, with the interrupt's exit code, rather than waited for).
// Asking for threads the machine does not have bought a warning of days in place of the
// refusal: a cost is priced on the threads that run at once, and says more were asked for.
TEST_F(CostCli, ThreadsTheMachineDoesNotHaveAreNotPriced) {
  harness::Process process = start({"count", "-n", "29", "-t", "4096"});
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(r) << "no answer within 20 s: the refusal must come before the setup";
  EXPECT_EQ(r->exit_code, 2) << describe(*r);
  EXPECT_EQ(r->out, "");
  ASSERT_EQ(lines_of(r->err).size(), 1u) << r->err;
  EXPECT_TRUE(contains(r->err, " years on ")) << r->err;
  EXPECT_TRUE(contains(r->err, "; 4096 threads were asked for, but this machine runs at most ")) << r->err;
  EXPECT_TRUE(ran_in_empty_directory());
}

// `-n 25,30`: N = 25's days were announced before N = 30's refusal, two lines for a refusal.
TEST_F(CostCli, ARefusalIsNotPrecededByTheAnnouncementOfASmallerN) {
  harness::Process process = start({"count", "-n", "25,30", "-t", "2"});
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(r) << "no answer within 20 s: the refusal must come before the setup";
  EXPECT_EQ(r->exit_code, 2) << describe(*r);
  EXPECT_EQ(r->out, "");
  EXPECT_EQ(lines_of(r->err).size(), 1u) << r->err;
  EXPECT_TRUE(contains(r->err, "N=30: a whole count")) << r->err;
}

// `-n 17,26 --memory 100M`: N = 26's unit list alone passes the budget, which is found at once,
// but the announcement of its hundred days came first, two lines for a refusal.
TEST_F(CostCli, AMemoryRefusalIsNotPrecededByTheAnnouncement) {
  harness::Process process = start({"count", "-n", "17,26", "-t", "2", "--memory", "100M"});
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 2) << describe(*r);
  EXPECT_EQ(r->out, "");
  EXPECT_EQ(lines_of(r->err).size(), 1u) << r->err;
  EXPECT_TRUE(contains(r->err, "nqueens: error: the join engine cannot count N=26: a budget of 100.0 MiB")) << r->err;
  EXPECT_TRUE(ran_in_empty_directory());
}

// The cost is priced on the CPUs this process may run on (its affinity), whatever -t asks for:
// the dfs engine's N = 26 on one CPU is years, refused, though -t 100 is asked for.
TEST_F(CostCli, ThreadsPastTheAffinityAreNotPriced) {
  harness::Process process = start_command(
      {"/usr/bin/taskset", "-c", "0", NQUEENS_BINARY, "count", "-n", "26", "--engine", "dfs", "-t", "100"});
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 2) << describe(*r);
  ASSERT_EQ(lines_of(r->err).size(), 1u) << r->err;
  EXPECT_TRUE(contains(r->err, " years on 1 thread (")) << r->err;
  EXPECT_TRUE(contains(r->err, "; 100 threads were asked for, but this machine runs at most 1 of them at once"))
      << r->err;
}

TEST_F(CostCli, ForceRunsItAnyway) {
  harness::Process process = start({"count", "-n", "30", "-t", "2", "--force", "--progress-interval", "0.1"});
  ASSERT_TRUE(process.wait_for_stderr("N=30: a whole count", std::chrono::seconds(20)));
  process.signal(SIGTERM);
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 128 + SIGTERM) << describe(*r);
  EXPECT_TRUE(contains(r->err, "`nqueens plan -n 30` measures it on this one")) << r->err;
}

// N = 24 on one thread takes days: announced (thread time, wall time, memory, the way to a
// measured estimate), then set up with its phases on stderr, one progress line each interval.
TEST_F(CostCli, DaysAreAnnouncedAndTheSetupShowsItsPhases) {
  harness::Process process = start({"count", "-n", "24", "-t", "1", "--progress-interval", "0.1"});
  // The announcement waits for the checks a moment (a refusal found at once is one line), but not
  // for the whole setup.
  ASSERT_TRUE(process.wait_for_stderr("[warning] N=24: ", std::chrono::seconds(60)));
  ASSERT_TRUE(process.wait_for_stderr("[progress] N=24: setting up: ", std::chrono::seconds(60)));
  process.signal(SIGTERM);
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 128 + SIGTERM) << describe(*r);
  const std::vector<std::string> lines = lines_of(r->err);
  const auto warning = std::find_if(lines.begin(), lines.end(),
                                    [](const std::string& line) { return contains(line, "[warning] N=24: "); });
  ASSERT_NE(warning, lines.end()) << r->err;
  const std::string& announced = *warning;
  EXPECT_TRUE(contains(announced, "[warning] N=24: a whole count with the join engine takes about ")) << r->err;
  EXPECT_TRUE(contains(announced, " hours on 1 thread (")) << announced;
  EXPECT_TRUE(contains(announced, " hours of thread time) and memory up to the budget of ")) << announced;
  EXPECT_TRUE(contains(announced, "`nqueens plan -n 24` measures it on this one")) << announced;
  // Past a day, a whole count keeps a journal: by default, named on the first line.
  EXPECT_TRUE(contains(announced, "finished units go to nqueens-n24.journal (the same command resumes)")) << announced;
  EXPECT_TRUE(contains(r->err, " elapsed")) << r->err;
}

// bench says so before it times a run past an hour (the join at N = 23 on one thread is about
// eight hours), as count does, instead of timing it in silence.
TEST_F(CostCli, BenchAnnouncesALongRunBeforeTimingIt) {
  harness::Process process = start({"bench", "-n", "23", "-t", "1", "--engines", "join", "--no-baseline"});
  ASSERT_TRUE(
      process.wait_for_stderr("N=23: a whole count with the join engine takes about ", std::chrono::seconds(30)));
  process.signal(SIGTERM);
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(r);
  EXPECT_TRUE(contains(r->err, " on 1 thread (")) << r->err;
  EXPECT_TRUE(contains(r->err, "`nqueens plan -n 23` measures it on this one")) << r->err;
}

// --no-checkpoint counts a run of days without the journal it would keep by default; a run
// under a day keeps none unless asked.
TEST_F(CostCli, NoCheckpointCountsADaysRunWithoutAJournal) {
  harness::Process process = start({"count", "-n", "24", "-t", "1", "--no-checkpoint", "--progress-interval", "0.1"});
  ASSERT_TRUE(process.wait_for_stderr("[warning] N=24: ", std::chrono::seconds(60)));
  process.signal(SIGTERM);
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(20));
  ASSERT_TRUE(r);
  EXPECT_TRUE(contains(r->err, "; no journal: give --checkpoint FILE to keep finished units")) << r->err;
  EXPECT_TRUE(ran_in_empty_directory()) << "a journal was made";
}

// Under an hour nothing is announced: a small count's stderr stays empty.
TEST_F(CostCli, ShortCountsSayNothing) {
  harness::Process process = start({"count", "-n", "10"});
  const std::optional<Outcome> r = process.wait_for(std::chrono::seconds(60));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->exit_code, 0) << describe(*r);
  EXPECT_EQ(r->err, "");
}

}  // namespace
