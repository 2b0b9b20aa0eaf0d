// One preparation of a command's runs (run/prepare.hpp), which count(), `nqueens count` and
// `nqueens-mpi count` share: the default budget every request takes, the journal a whole count
// past a day keeps by default (the programs') and never unasked (count()'s), the memory plan made
// once per N, and the checks before counting that count() now makes as the programs do.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/memory_budget.hpp"
#include "nqueens/nqueens.hpp"
#include "run/prepare.hpp"
#include "run/registry.hpp"

namespace {

namespace fs = std::filesystem;
using nqueens::CountOptions;
using nqueens::Preparation;
using nqueens::PreparedRuns;
using nqueens::RunPlace;

CountOptions on_threads(int threads, std::string engine = "auto") {
  CountOptions options;
  options.engine = std::move(engine);
  options.threads = threads;
  return options;
}

// Without --memory every request has the programs' default: that of one process running its
// threads and the driver's own, so that count(), `nqueens count` (which logs it), plan and check
// plan a run under one budget.
TEST(RunPreparation, EveryRequestTakesTheDefaultBudgetOfItsThreadsAndTheDriversOwn) {
  for (const int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    const std::uint64_t expected = nqueens::default_budget(1, threads + 1).bytes;
    EXPECT_EQ(nqueens::request_run(16, on_threads(threads)).memory_bytes, expected);
    const PreparedRuns runs = nqueens::prepare_runs({12, 16}, on_threads(threads), {});
    for (const nqueens::RunRequest& request : runs.requests) EXPECT_EQ(request.memory_bytes, expected);
    CountOptions settled = on_threads(threads);
    EXPECT_FALSE(nqueens::settle_memory_budget(settled).empty()) << "the log says where a default comes from";
    EXPECT_EQ(settled.memory_bytes, expected);
  }
  CountOptions given = on_threads(2);
  given.memory_bytes = std::uint64_t{3} << 30;
  EXPECT_EQ(nqueens::request_run(16, given).memory_bytes, given.memory_bytes);
  EXPECT_EQ(nqueens::settle_memory_budget(given), "");
}

// A whole count past a day keeps a journal by default where the driver asks for that (the
// programs), one file for one N and a directory for several, and never a part of a run, one
// given a journal, or count(), which writes no file it was not given.
TEST(RunPreparation, AWholeCountPastADayKeepsAJournalByDefaultOnlyWhereTheDriverAsks) {
  const Preparation programs{.processes = 1, .journal_by_default = true};
  const PreparedRuns one = nqueens::prepare_runs({26}, on_threads(2), {}, programs);
  EXPECT_TRUE(one.journal_by_default);
  EXPECT_EQ(one.place.checkpoint, fs::path("nqueens-n26.journal"));
  EXPECT_EQ(one.requests.front().n, 26);
  EXPECT_EQ(nqueens::prepare_runs({16, 26}, on_threads(2), {}, programs).place.checkpoint,
            fs::path("nqueens-journals"));
  EXPECT_FALSE(nqueens::prepare_runs({16}, on_threads(2), {}, programs).place.checkpoint) << "a count of seconds";
  EXPECT_FALSE(nqueens::prepare_runs({26}, on_threads(2), {}).place.checkpoint) << "count() keeps none unasked";
  RunPlace part;
  part.selection = nqueens::Selection::shard({1, 4});
  EXPECT_FALSE(nqueens::prepare_runs({26}, on_threads(2), part, programs).place.checkpoint);
  RunPlace named;
  named.checkpoint = "mine.journal";
  const PreparedRuns given = nqueens::prepare_runs({26}, on_threads(2), named, programs);
  EXPECT_EQ(given.place.checkpoint, fs::path("mine.journal"));
  EXPECT_FALSE(given.journal_by_default);
}

// The checks before counting make each N's memory plan once and keep it in its request, where the
// engine is built from it (EngineMemoryPlan.TheJoinIsBuiltFromThePlanItsRequestCarries); a
// budget too small is refused there, before anything is built.
TEST(RunPreparation, TheChecksKeepEachNsMemoryPlanInItsRequest) {
  PreparedRuns runs = nqueens::prepare_runs({14, 16}, on_threads(2, "join"), {});
  for (const nqueens::RunRequest& request : runs.requests) EXPECT_EQ(request.memory_plan, nullptr);
  std::vector<int> watched;
  nqueens::check_runs(runs, [&watched](int n, const std::function<void()>& plan) {
    watched.push_back(n);
    plan();
  });
  EXPECT_EQ(watched, (std::vector<int>{14, 16}));
  for (const nqueens::RunRequest& request : runs.requests) {
    ASSERT_NE(request.memory_plan, nullptr);
    EXPECT_EQ(request.memory_plan->line(), nqueens::memory_plan(request));
  }
  CountOptions small = on_threads(2, "join");
  small.memory_bytes = 1024;
  PreparedRuns refused = nqueens::prepare_runs({16}, small, {});
  EXPECT_THROW(nqueens::check_runs(refused), std::invalid_argument);
}

// count() makes the programs' checks before it counts: a FILE.partial beside its journal that no
// process holds, left by a repair killed before its rename, is removed (and the count resumes
// the journal as the programs would).
TEST(RunPreparation, CountRemovesAStaleTemporaryFileBesideItsJournalAsTheProgramsDo) {
  const fs::path dir = fs::temp_directory_path() / ("nqueens-prepare-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  CountOptions options = on_threads(2);
  options.checkpoint = dir / "n10.journal";
  const nqueens::CountResult first = nqueens::count(10, options);
  const fs::path partial = dir / "n10.journal.partial";
  std::ofstream(partial) << "nqueens-journal 4 half of it";
  const nqueens::CountResult again = nqueens::count(10, options);
  EXPECT_FALSE(fs::exists(partial));
  EXPECT_TRUE(again.totals.total == first.totals.total);
  EXPECT_TRUE(again.totals.total == 724u);
  fs::remove_all(dir);
}

}  // namespace
