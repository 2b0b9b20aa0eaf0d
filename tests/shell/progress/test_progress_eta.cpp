// The progress line's ETA runs on the counting threads' CPU time: on a machine that other jobs
// load, what the threads got of their cores does not stretch it, and the line says what they got.
// At the cost model's own pace the ETA is what the warning before the count prices the work left.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "join/join_engine.hpp"
#include "run/rough_cost.hpp"
#include "shell/progress/progress.hpp"
#include "shell/progress/status_line.hpp"

namespace {

using nqueens::shell::Progress;
using nqueens::shell::ProgressOptions;
using nqueens::shell::ProgressSnapshot;

constexpr int kThreads = 2;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// N = 17 counted on two threads, stopped after its costliest 2 % of units: their CPU time, and a
// wall time `stretch` times longer than two threads on cores of their own would take.
struct Stopped {
  std::unique_ptr<nqueens::Engine> engine = nqueens::make_join_engine(17);
  std::unique_ptr<Progress> progress;
  double model_done_seconds = 0;  // the cost model's thread time of the units done
  double model_all_seconds = 0;

  explicit Stopped(int threads = kThreads) {
    ProgressOptions quiet;
    quiet.enabled = false;
    quiet.threads = threads;
    const auto order = engine->costliest_first();
    const std::vector<std::size_t> all(order.begin(), order.end());
    progress = std::make_unique<Progress>(*engine, all, std::vector<std::size_t>{}, quiet);
    for (std::size_t i = 0; i < all.size(); ++i) {
      const double seconds = 1e-9 * static_cast<double>(engine->cost(all[i]));
      model_all_seconds += seconds;
      if (i >= all.size() / 50) continue;
      progress->unit_done(all[i], {});
      model_done_seconds += seconds;
    }
  }

  ProgressSnapshot at(double cpu_seconds, double stretch) {
    return progress->snapshot_at(stretch * cpu_seconds / kThreads, cpu_seconds);
  }
};

// The threads got 1/14 of a core each (N = 26 on this machine's loaded cores): a wall-clock ETA
// read 14 times the work left; on the threads' CPU time it is the work left on cores of their own.
TEST(ProgressEta, RunsOnTheThreadsCpuTimeAndSaysWhatTheyGot) {
  Stopped run;
  const double cpu = 200;
  const ProgressSnapshot s = run.at(cpu, 14);
  ASSERT_TRUE(s.eta_seconds);
  const double left_on_own_cores = cpu / kThreads * (1 - s.work_share) / s.work_share;
  EXPECT_NEAR(*s.eta_seconds, left_on_own_cores, 1e-6 * left_on_own_cores)
      << "a wall-clock ETA would read " << s.elapsed_seconds * (1 - s.work_share) / s.work_share;
  ASSERT_TRUE(s.core_share);
  EXPECT_NEAR(*s.core_share, 1.0 / 14, 1e-9);
  const std::string log = nqueens::shell::log_status(s);
  EXPECT_TRUE(contains(log, "on whole cores (the threads got 7% of one)")) << log;
  EXPECT_TRUE(contains(nqueens::shell::fit_status(s, 200), "7% of a core")) << nqueens::shell::fit_status(s, 200);
}

TEST(ProgressEta, SaysNothingOfTheCoresWhereTheThreadsHadThem) {
  Stopped run;
  const ProgressSnapshot s = run.at(200, 1.05);
  EXPECT_FALSE(s.core_share);
  EXPECT_FALSE(contains(nqueens::shell::log_status(s), "cores")) << nqueens::shell::log_status(s);
}

// A progress of work counted elsewhere too (nqueens-mpi's rank 0 shows every rank's) says no
// threads of its own: its CPU time is not the work's, and the ETA keeps the wall clock.
TEST(ProgressEta, KeepsTheWallClockWithoutThreadsOfItsOwn) {
  Stopped run(0);
  const ProgressSnapshot s = run.at(200, 14);
  ASSERT_TRUE(s.eta_seconds);
  const double left_by_the_wall_clock = s.elapsed_seconds * (1 - s.work_share) / s.work_share;
  EXPECT_NEAR(*s.eta_seconds, left_by_the_wall_clock, 1e-6 * left_by_the_wall_clock);
  EXPECT_FALSE(s.core_share);
}

// At the pace the cost model prices (the units done took their estimate, here on cores
// kSlower times slower than the model's, so that N = 17 passes the ETA's first seconds), the ETA
// is the model's thread time of the units left on two threads: what the warning before a whole
// count prices (run/rough_cost.hpp, the model's sums per N) less what is done, within the sums'
// rounding.
TEST(ProgressEta, AtTheModelsPaceIsTheWarningsPriceOfTheWorkLeft) {
  constexpr double kSlower = 1000;
  Stopped run;
  const ProgressSnapshot s = run.at(kSlower * run.model_done_seconds, 10);
  ASSERT_TRUE(s.eta_seconds);
  const double warned = *nqueens::rough_thread_seconds(nqueens::join_engine_description(), 17);
  const double left = nqueens::rough_wall_seconds(kSlower * (warned - run.model_done_seconds), kThreads);
  EXPECT_NEAR(*s.eta_seconds, left, 0.05 * left)
      << "the model's sum at N = 17: " << run.model_all_seconds << " s, the warning's: " << warned << " s";
}

}  // namespace
