// One preparation of a command's runs (run/prepare.hpp), which count(), `nqueens count` and
// `nqueens-mpi count` share: the default budget every request takes, the journal a whole count
// past a day keeps by default (the programs') and never unasked (count()'s), the memory plan made
// once per N, and the checks before counting that count() now makes as the programs do.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/memory_budget.hpp"
#include "join/join_engine.hpp"
#include "join/slice_cache.hpp"
#include "nqueens/nqueens.hpp"
#include "run/prepare.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "run/run_arena.hpp"

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

// This process's address-space limit (RLIMIT_AS) lowered to what it has mapped and `room` more
// (a lower one already set is kept), the old one put back when it goes.
class AddressSpaceRoom {
 public:
  explicit AddressSpaceRoom(std::uint64_t room) {
    if (getrlimit(RLIMIT_AS, &old_) != 0) return;
    rlimit lowered = old_;
    lowered.rlim_cur = mapped_bytes() + room;
    limited_ = lowered.rlim_cur >= old_.rlim_cur;  // a lower limit already: kept
    lowered_ = !limited_ && setrlimit(RLIMIT_AS, &lowered) == 0;
    limited_ = limited_ || lowered_;
  }
  ~AddressSpaceRoom() {
    if (lowered_) setrlimit(RLIMIT_AS, &old_);
  }
  AddressSpaceRoom(const AddressSpaceRoom&) = delete;
  AddressSpaceRoom& operator=(const AddressSpaceRoom&) = delete;
  bool limited() const { return limited_; }

 private:
  // VmSize of /proc/self/status, in bytes.
  static std::uint64_t mapped_bytes() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmSize:", 0) == 0) {
        std::uint64_t kib = 0;
        std::istringstream(line.substr(7)) >> kib;
        return kib << 10;
      }
    return 0;
  }

  rlimit old_{};
  bool limited_ = false;
  bool lowered_ = false;
};

// Without --memory every request has the programs' default: that of one process running its
// threads and the driver's own, so that count(), `nqueens count` (which logs it), plan and check
// plan a run under one budget. The threads change the default only under an address-space limit,
// where their stacks come out of what is left first: so the test sets one, and tells the budget of
// the threads and the driver's apart from that of the threads alone (the address space read
// twice may differ by what the heap took in between: a quarter of one thread's room is allowed).
TEST(RunPreparation, EveryRequestTakesTheDefaultBudgetOfItsThreadsAndTheDriversOwn) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitized process keeps its own mappings under an address-space limit";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "a sanitized process keeps its own mappings under an address-space limit";
#endif
#endif
  const AddressSpaceRoom limit(std::uint64_t{4} << 30);
  ASSERT_TRUE(limit.limited()) << "cannot lower the address-space limit";
  for (const int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    const std::uint64_t expected = nqueens::default_budget(1, threads + 1).bytes;
    const std::uint64_t threads_alone = nqueens::default_budget(1, threads).bytes;
    ASSERT_GT(threads_alone, expected) << "the driver's thread must take room from the default";
    const auto tolerance = static_cast<double>(threads_alone - expected) / 4;
    EXPECT_NEAR(static_cast<double>(nqueens::request_run(16, on_threads(threads)).memory_bytes),
                static_cast<double>(expected), tolerance);
    const PreparedRuns runs = nqueens::prepare_runs({12, 16}, on_threads(threads), {});
    for (const nqueens::RunRequest& request : runs.requests)
      EXPECT_NEAR(static_cast<double>(request.memory_bytes), static_cast<double>(expected), tolerance);
    CountOptions settled = on_threads(threads);
    EXPECT_FALSE(nqueens::settle_memory_budget(settled).empty()) << "the log says where a default comes from";
    EXPECT_NEAR(static_cast<double>(settled.memory_bytes), static_cast<double>(expected), tolerance);
  }
  CountOptions given = on_threads(2);
  given.memory_bytes = std::uint64_t{3} << 30;
  EXPECT_EQ(nqueens::request_run(16, given).memory_bytes, given.memory_bytes);
  EXPECT_EQ(nqueens::settle_memory_budget(given), "");
}

// A process that counts runs another prepared (an MPI rank other than 0) takes the engines that
// process chose, here not those `auto` would choose, with the threads and the default budget
// resolved as prepare_runs resolves them, keeps no journal, and makes its own memory plans once.
TEST(RunPreparation, FollowedRunsTakeTheEnginesGivenAndTheirOwnThreadsAndPlans) {
  const std::vector<std::string> engines = {"join", "dfs"};
  PreparedRuns runs = nqueens::follow_runs({12, 16}, on_threads(2), engines, {.processes = 3});
  const PreparedRuns prepared = nqueens::prepare_runs({12, 16}, on_threads(2), {}, {.processes = 3});
  ASSERT_EQ(runs.requests.size(), 2u);
  for (std::size_t at = 0; at < 2; ++at) {
    SCOPED_TRACE(at);
    const nqueens::RunRequest& request = runs.requests[at];
    EXPECT_EQ(request.n, prepared.requests[at].n);
    EXPECT_EQ(request.engine->name, engines[at]);
    EXPECT_NE(request.engine, prepared.requests[at].engine) << "auto would choose the other";
    EXPECT_EQ(request.options.engine, engines[at]);
    EXPECT_EQ(request.threads, 2);
    EXPECT_EQ(request.memory_bytes, prepared.requests[at].memory_bytes);
    EXPECT_FALSE(request.memory_plan);
  }
  EXPECT_EQ(runs.threads.running, prepared.threads.running);
  EXPECT_FALSE(runs.place.checkpoint);
  nqueens::RunArena arena(2);
  nqueens::check_runs(runs, arena);
  EXPECT_TRUE(runs.requests.front().memory_plan) << "the join's plan, made once and kept";
  EXPECT_THROW((void)nqueens::follow_runs({12, 16}, on_threads(2), std::vector<std::string>{"dfs"}), std::logic_error);
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
  nqueens::RunArena arena(2);
  nqueens::check_runs(runs, arena, [&watched](int n, const std::function<void()>& plan) {
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
  EXPECT_THROW(nqueens::check_runs(refused, arena), std::invalid_argument);
}

// A command of several N builds what they share once: N = 15 counted after N = 14 takes the quarter
// slices of k = 7 that N = 14 built (engine/kept_tables.hpp), where it would build them counted
// alone; N = 16 (k = 8) after N = 15 takes none. The counts are the published ones.
TEST(RunPreparation, ACommandBuildsTheSlicesItsSizesShareOnce) {
  const auto slices_built = [](const std::vector<int>& sizes) {
    PreparedRuns runs = nqueens::prepare_runs(sizes, on_threads(2, "join"), {});
    nqueens::RunArena arena(2);
    nqueens::check_runs(runs, arena);
    std::map<int, std::uint64_t> built;
    for (const nqueens::RunRequest& request : runs.requests) {
      const std::uint64_t before = nqueens::join::SliceCache::built_in_process();
      nqueens::Run run(nqueens::make_engine(request, arena), nqueens::Selection::whole_run());
      run.execute(arena, {}, nullptr);
      EXPECT_EQ(run.result(2, 0).totals.total, nqueens::oeis_total(request.n));
      built[request.n] = nqueens::join::SliceCache::built_in_process() - before;
    }
    return built;
  };
  const std::map<int, std::uint64_t> alone = slices_built({15});
  const std::map<int, std::uint64_t> together = slices_built({14, 15, 16});
  EXPECT_GT(together.at(14), 0u);
  EXPECT_EQ(together.at(15), alone.at(15) - std::min(alone.at(15), together.at(14)))
      << "N=15 built again slices of k = 7 that N=14 had built";
  EXPECT_EQ(together.at(16), slices_built({16}).at(16));
}

// What a run of N may leave alive for the next N of its command is within the next run's plan: no
// more than its slice cache (nor than this run's), none between N of another k, none after the
// last N. A budget under which neither holds the whole table: N = 17's larger unit list and
// buffers leave its cache less than N = 16's.
TEST(RunPreparation, WhatARunLeavesForTheNextNIsWithinTheNextPlan) {
  const nqueens::join::JoinMemory unbounded = nqueens::join::plan_join_memory(17, 2, UINT64_MAX);
  CountOptions options = on_threads(2, "join");
  options.memory_bytes = unbounded.unit_list_bytes + 2 * unbounded.thread_buffer_bytes + unbounded.all_slices_bytes / 2;
  PreparedRuns runs = nqueens::prepare_runs({15, 16, 17}, options, {});
  nqueens::RunArena arena(2);
  nqueens::check_runs(runs, arena);
  const auto cache_of = [&runs](std::size_t at) {
    return dynamic_cast<const nqueens::join::JoinMemoryPlan&>(*runs.requests[at].memory_plan).memory().cache_bytes;
  };
  ASSERT_LT(cache_of(2), cache_of(1));
  EXPECT_EQ(runs.requests[0].hand_on_bytes, 0u) << "N=15 reads other slices";
  EXPECT_EQ(runs.requests[1].hand_on_bytes, cache_of(2));
  EXPECT_EQ(runs.requests[2].hand_on_bytes, 0u);
  for (const nqueens::RunRequest& request : runs.requests) EXPECT_EQ(request.kept, runs.requests[0].kept);
  EXPECT_NE(runs.requests[0].kept, nullptr);
  PreparedRuns one = nqueens::prepare_runs({16}, options, {});
  nqueens::check_runs(one, arena);
  EXPECT_EQ(one.requests[0].kept, nullptr);
}

// The checks build in the command's arena: the engines whose headers the journals of several N
// are checked against (one arena made for each before), and the memory plans.
TEST(RunPreparation, TheChecksMakeNoArenaOfTheirOwn) {
  const fs::path dir = fs::temp_directory_path() / ("nqueens-arenas-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const int n : {8, 9}) {
    CountOptions options = on_threads(1, "dfs");
    options.checkpoint = dir / ("n" + std::to_string(n) + ".journal");
    (void)nqueens::count(n, options);
  }
  RunPlace place;
  place.checkpoint = dir;
  PreparedRuns runs = nqueens::prepare_runs({8, 9}, on_threads(1, "dfs"), place);
  nqueens::RunArena arena(1);
  const int before = nqueens::RunArena::made();
  nqueens::check_runs(runs, arena);
  EXPECT_EQ(nqueens::RunArena::made(), before);
  fs::remove_all(dir);
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
