// The Run: one N from a selection (whole run, shard, unit list) and an optional journal to its
// result, for every engine of the registry. Its totals come from the reduction of per-thread
// counters; these tests hold them to the per-unit ledger, to the OEIS and to each other.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "nqueens/files/journal.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "run/schedule.hpp"
#include "support/engines.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using nqueens::CountOptions;
using nqueens::Selection;
using nqueens::to_string;

namespace {

// Every engine of the registry that counts here, with the options that make each of its runs:
// the dfs engine in its three symmetry modes, the others as they come. Every engine that counts
// here takes N = 12 with its default options, and some engine takes each mode.
std::vector<CountOptions> every_engine() {
  std::vector<CountOptions> all;
  for (const nqueens::EngineDescription* engine : nqueens::registered_engines()) {
    if (!test_support::counts_here(*engine)) continue;
    EXPECT_EQ(engine->refusal(12, test_support::default_options(*engine)), "") << engine->name;
    for (const nqueens::Symmetry mode : test_support::kModes) {
      const CountOptions options = test_support::with_symmetry(test_support::default_options(*engine), mode);
      if (engine->refusal(12, options).empty()) all.push_back(options);
    }
  }
  for (const nqueens::Symmetry mode : test_support::kModes)
    EXPECT_TRUE(std::ranges::any_of(
        all, [mode](const CountOptions& options) { return test_support::symmetry_of(options) == mode; }))
        << "no engine counts N=12 with symmetry " << to_string(mode);
  return all;
}

std::string named(const CountOptions& options, int n) {
  return options.engine + " " + std::string(to_string(test_support::symmetry_of(options))) + " N=" + std::to_string(n);
}

std::optional<nqueens::Run> run_of(int n, const CountOptions& options,
                                   const Selection& selection = Selection::whole_run()) {
  if (!nqueens::find_engine(options.engine)->refusal(n, options).empty()) return std::nullopt;
  return std::optional<nqueens::Run>(std::in_place, nqueens::make_engine(n, options), selection);
}

}  // namespace

TEST(RunOfOneN, EveryEngineCountsTheOeisTotalAndItsReductionEqualsItsLedger) {
  for (const CountOptions& options : every_engine())
    for (int n = 1; n <= 12; ++n)
      for (const int threads : {1, 3}) {
        // An engine that refuses so small a board says so; one that takes it must count it.
        std::optional<nqueens::Run> run = run_of(n, options);
        if (!run) continue;
        run->execute(threads);
        const nqueens::CountResult result = run->result(threads, 0);
        EXPECT_TRUE(result.totals == run->ledger_totals()) << named(options, n);
        EXPECT_TRUE(result.totals.total == *nqueens::oeis_total(n)) << named(options, n);
        if (test_support::symmetry_of(options) == nqueens::Symmetry::full) {
          EXPECT_TRUE(result.unique == *nqueens::oeis_unique(n)) << named(options, n);
        }
        EXPECT_EQ(result.engine, options.engine);
      }
}

TEST(RunOfOneN, ShardsOfEveryEnginePartitionTheUnitsAndAddUpToTheWholeRun) {
  for (const CountOptions& options : every_engine()) {
    const int n = 12;
    nqueens::Totals summed;
    std::vector<int> seen(nqueens::make_engine(n, options)->unit_count(), 0);
    for (int i = 1; i <= 3; ++i) {
      nqueens::Run part(nqueens::make_engine(n, options), Selection::shard({i, 3}));
      part.execute(2);
      const nqueens::CountResult result = part.result(2, 0);
      EXPECT_TRUE(result.totals == part.ledger_totals()) << named(options, n) << " shard " << i;
      summed += result.totals;
      for (const nqueens::UnitCount& unit : part.units()) ++seen[unit.id];
    }
    EXPECT_TRUE(summed.total == *nqueens::oeis_total(n)) << named(options, n);
    if (test_support::symmetry_of(options) == nqueens::Symmetry::full) {
      EXPECT_TRUE(summed.unique() == *nqueens::oeis_unique(n)) << named(options, n);
    }
    for (std::size_t id = 0; id < seen.size(); ++id) EXPECT_EQ(seen[id], 1) << named(options, n) << " unit " << id;
  }
}

TEST(RunOfOneN, AUnitListCountsExactlyThoseUnitsAndABadListIsRefused) {
  CountOptions options;
  options.engine = "dfs";
  nqueens::Run listed(nqueens::make_engine(10, options), Selection::units("0-2,7"));
  EXPECT_EQ(listed.wanted(), (std::vector<std::size_t>{0, 1, 2, 7}));
  listed.execute(2);
  const nqueens::CountResult result = listed.result(2, 0);
  nqueens::Totals expected;
  nqueens::run_units(*nqueens::make_engine(10, options), 1, [&expected](std::size_t id, const nqueens::Tally& tally) {
    if (id <= 2 || id == 7) expected += tally;
  });
  EXPECT_TRUE(result.totals == expected) << test_support::describe(result.totals);
  EXPECT_THROW(nqueens::Run(nqueens::make_engine(10, options), Selection::units("0,99999")), std::invalid_argument);
  EXPECT_THROW(nqueens::Run(nqueens::make_engine(10, options), Selection::units("3,3")), std::invalid_argument);
  EXPECT_THROW(nqueens::Run(nqueens::make_engine(10, options), Selection::shard({4, 3})), std::invalid_argument);
}

// Units counted elsewhere (an MPI rank) and recorded: the reduction then sums what was received.
TEST(RunOfOneN, RecordedUnitsAreSummedOnceAndARepeatIsRefused) {
  CountOptions options;
  options.engine = "join";
  nqueens::Run run(nqueens::make_engine(14, options), Selection::whole_run());
  nqueens::run_units(run.engine(), 2, [&run](std::size_t id, const nqueens::Tally& tally) {
    static std::mutex lock;  // record() is for one collecting thread; the scheduler calls from many
    const std::lock_guard<std::mutex> guard(lock);
    run.record({id, tally, 1});
  });
  EXPECT_TRUE(run.complete());
  const nqueens::CountResult result = run.result(1, 0);
  EXPECT_TRUE(result.totals.total == 365596u);
  EXPECT_EQ(to_string(*result.unique), "45752");
  EXPECT_THROW(run.record({0, {}, 1}), std::runtime_error);
}

// An MPI rank's batch: recorded whole or not at all. A unit twice, in one batch or in two, is
// refused and leaves the ledger and the journal as they were; the journal then holds each unit
// once, and replays to the same result.
TEST(RunOfOneN, ABatchIsRecordedWholeOrNotAtAllAndARepeatIsRefused) {
  const fs::path dir = fs::temp_directory_path() / ("nqueens-run-batch-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "n10.journal";
  CountOptions options;
  options.engine = "dfs";
  std::vector<nqueens::UnitCount> units;
  {
    nqueens::Run run(nqueens::make_engine(10, options), Selection::whole_run(), nqueens::JournalRequest{path});
    nqueens::run_units(run.engine(), 2, [&units](std::size_t id, const nqueens::Tally& tally) {
      static std::mutex lock;
      const std::lock_guard<std::mutex> guard(lock);
      units.push_back({id, tally, 3});
    });
    ASSERT_GE(units.size(), 6u);
    const std::span<const nqueens::UnitCount> all(units);
    const std::size_t half = units.size() / 2;
    run.record(all.first(half));
    const std::vector<nqueens::UnitCount> twice_in_one = {units[half], units[half + 1], units[half]};
    const std::vector<nqueens::UnitCount> counted_before = {units[half + 2], units[0]};
    const std::vector<nqueens::UnitCount> outside = {units[half + 2], {run.engine().unit_count(), {}, 1}};
    for (const std::vector<nqueens::UnitCount>* refused : {&twice_in_one, &counted_before, &outside}) {
      EXPECT_THROW(run.record(std::span<const nqueens::UnitCount>(*refused)), std::runtime_error);
      EXPECT_EQ(run.done().size(), half);
      EXPECT_EQ(run.journal()->units(), half);
    }
    run.record(all.subspan(half));
    ASSERT_TRUE(run.complete());
    EXPECT_TRUE(run.result(2, 0).totals.total == 724u);
  }
  nqueens::Run resumed(nqueens::make_engine(10, options), Selection::whole_run(), nqueens::JournalRequest{path});
  EXPECT_EQ(resumed.done_before(), units.size());
  EXPECT_TRUE(resumed.result(2, 0).totals.total == 724u);
  fs::remove_all(dir);
}

TEST(RunOfOneN, AStoppedRunIsIncompleteAndHasNoResult) {
  CountOptions options;
  options.engine = "dfs";
  nqueens::Run run(nqueens::make_engine(12, options), Selection::whole_run());
  std::atomic<bool> stop{false};
  std::atomic<int> seen{0};
  run.execute(
      1, [&](std::size_t, const nqueens::Tally&) { stop = ++seen >= 3; }, &stop);
  EXPECT_FALSE(run.complete());
  EXPECT_THROW(run.result(1, 0), std::runtime_error);
}

TEST(RunOfOneN, AResumedRunCountsOnlyWhatTheJournalLacksAndEndsWithTheSameResult) {
  const fs::path dir = fs::temp_directory_path() / ("nqueens-run-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "n12.journal";
  for (const CountOptions& options : every_engine()) {
    fs::remove(path);
    std::size_t first_part = 0;
    {
      nqueens::Run first(nqueens::make_engine(12, options), Selection::whole_run(), nqueens::JournalRequest{path});
      std::atomic<bool> stop{false};
      std::atomic<std::size_t> seen{0};
      first.execute(
          1, [&](std::size_t, const nqueens::Tally&) { stop = ++seen >= first.todo().size() / 2; }, &stop);
      first_part = seen;
    }
    nqueens::Run resumed(nqueens::make_engine(12, options), Selection::whole_run(), nqueens::JournalRequest{path});
    EXPECT_EQ(resumed.done_before(), first_part) << named(options, 12);
    EXPECT_EQ(resumed.todo().size(), resumed.wanted().size() - first_part) << named(options, 12);
    resumed.execute(2);
    const nqueens::CountResult result = resumed.result(2, 0);
    EXPECT_TRUE(result.totals == resumed.ledger_totals()) << named(options, 12);
    EXPECT_TRUE(result.totals.total == 14200u) << named(options, 12);
  }
  fs::remove_all(dir);
}

// The library's count() resumes a journal as `nqueens count` (ResumeCli.AutoFinishesAPartial...)
// and `nqueens-mpi count` (Mpi.AutoResumesAJournalWithTheEngineItWasStartedWith) do: a journal
// that the dfs engine started at N = 14, where `auto` takes the join engine, is finished with the
// engine `auto` and the dfs engine, counting only the units it lacks.
TEST(CountResume, AutoFinishesAJournalWithTheEngineItWasStartedWithAsTheProgramsDo) {
  const fs::path dir = fs::temp_directory_path() / ("nqueens-count-resume-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path path = dir / "n14.journal";
  CountOptions dfs;
  dfs.engine = "dfs";
  std::size_t first_part = 0;
  {
    nqueens::Run first(nqueens::make_engine(14, dfs), Selection::whole_run(), nqueens::JournalRequest{path});
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> seen{0};
    first.execute(
        1, [&](std::size_t, const nqueens::Tally&) { stop = ++seen >= first.todo().size() / 2; }, &stop);
    first_part = seen;
  }
  ASSERT_GT(first_part, 0u);
  CountOptions resume;  // engine: auto, which takes the join engine for a fresh N = 14
  ASSERT_EQ(nqueens::choose_engine(14, resume).name, "join");
  resume.checkpoint = path;
  std::atomic<std::size_t> counted{0};
  resume.on_unit_done = [&counted](std::size_t, const nqueens::Tally&) { ++counted; };
  const nqueens::CountResult result = nqueens::count(14, resume);
  EXPECT_EQ(result.engine, "dfs");
  EXPECT_TRUE(result.totals.total == 365596u);
  const std::size_t units = nqueens::make_engine(14, dfs)->unit_count();
  EXPECT_EQ(counted.load(), units - first_part);
  fs::remove_all(dir);
}

// The bytes of the file at `path`.
static std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Files of this build's format written by an earlier build (tests/files/fixtures, checked in)
// still resume and merge through the library: count() finishes half of a dfs and of a join journal
// of N = 14 with `auto`, each with the engine it was started with and counting only the units it
// lacks, as `nqueens count` (ResumeCli.CheckedInJournalsAndShardFilesOfThisFormatResumeAndMerge)
// and nqueens-mpi (Mpi.ResumesTheCheckedInJournalsOfThisFormat) finish the same files; the
// shards of N = 12 merge to the total.
TEST(CountResume, CheckedInJournalsOfThisFormatAreFinished) {
  const fs::path fixtures = fs::path(NQUEENS_SOURCE_DIR) / "tests/files/fixtures";
  const fs::path dir = fs::temp_directory_path() / ("nqueens-fixtures-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string engine : {"dfs", "join"}) {
    SCOPED_TRACE(engine);
    const fs::path journal = dir / ("n14-" + engine + ".journal");
    fs::copy_file(fixtures / ("n14-" + engine + "-half.journal"), journal);
    const nqueens::JournalScan held = nqueens::scan_journal(bytes_of(journal), journal.string());
    ASSERT_TRUE(held.sound());
    ASSERT_GT(held.units.size(), 0u);
    CountOptions resume;  // engine: auto
    resume.threads = 2;
    resume.checkpoint = journal;
    std::atomic<std::size_t> counted{0};
    resume.on_unit_done = [&counted](std::size_t, const nqueens::Tally&) { ++counted; };
    const nqueens::CountResult result = nqueens::count(14, resume);
    EXPECT_EQ(result.engine, engine);
    EXPECT_TRUE(result.totals.total == 365596u);
    EXPECT_TRUE(result.totals.unique() == 45752u);
    EXPECT_EQ(counted.load(), held.header.unit_count - held.units.size());

    std::vector<nqueens::ShardFile> shards;
    for (const char* part : {"1-of-2", "2-of-2"})
      shards.push_back(nqueens::read_shard_file(fixtures / ("n12-" + engine + "-" + part + ".shard")));
    const nqueens::MergeReport merged = nqueens::merge_shards(shards);
    EXPECT_TRUE(merged.complete());
    EXPECT_EQ(merged.header.engine, engine);
    EXPECT_TRUE(merged.totals.total == 14200u);
    EXPECT_TRUE(merged.totals.unique() == 1787u);
  }
  fs::remove_all(dir);
}

// count()'s progress: the units done, and the share of the work, each unit weighted by its
// engine's cost as the program's percentage is. On one thread the units arrive one at a time,
// so every report can be held to the costs of the units finished before it.
TEST(CountProgress, WorkDoneWeighsEachUnitByItsCostAndEndsAtOne) {
  CountOptions options;
  options.engine = "dfs";
  options.threads = 1;
  const int n = 12;
  std::vector<std::size_t> finished;
  std::vector<nqueens::Progress> reports;
  options.on_unit_done = [&finished](std::size_t id, const nqueens::Tally&) { finished.push_back(id); };
  options.on_progress = [&reports](const nqueens::Progress& progress) { reports.push_back(progress); };
  nqueens::count(n, options);
  const std::unique_ptr<nqueens::Engine> engine = nqueens::make_engine(n, options);
  ASSERT_EQ(finished.size(), engine->unit_count());
  ASSERT_GE(reports.size(), 2u);
  std::uint64_t total = 0;
  for (std::size_t id = 0; id < engine->unit_count(); ++id) total += engine->cost(id);
  std::vector<std::uint64_t> done_after(1, 0);  // the cost of the first i units finished
  for (const std::size_t id : finished) done_after.push_back(done_after.back() + engine->cost(id));
  EXPECT_EQ(reports[0].work_done, 0.0);
  for (const nqueens::Progress& report : reports) {
    EXPECT_EQ(report.units_total, engine->unit_count());
    EXPECT_DOUBLE_EQ(report.work_done, static_cast<double>(done_after[report.units_done]) / static_cast<double>(total))
        << report.units_done;
  }
  EXPECT_EQ(reports.back().units_done, engine->unit_count());
  EXPECT_EQ(reports.back().work_done, 1.0);
  // The costliest units come first: after the first, the work done is ahead of the units done.
  EXPECT_GT(static_cast<double>(done_after[1]) / static_cast<double>(total),
            1.0 / static_cast<double>(engine->unit_count()));
}

// Reports came once per unit from several threads at once, out of order (2771 then 2769), 677,295
// of them at N = 24: they now come one at a time, only growing, about ten a second at most, and
// the last unit is always reported; on_unit_done still sees every unit.
TEST(CountProgress, ReportsAreSerialisedMonotonicAndThrottled) {
  CountOptions options;
  options.engine = "dfs";
  options.threads = 4;
  std::atomic<int> inside{0}, most_inside{0};
  std::atomic<std::size_t> units_seen{0};
  std::vector<nqueens::Progress> reports;
  options.on_unit_done = [&units_seen](std::size_t, const nqueens::Tally&) { ++units_seen; };
  options.on_progress = [&](const nqueens::Progress& progress) {
    const int now = ++inside;
    int most = most_inside.load();
    while (now > most && !most_inside.compare_exchange_weak(most, now)) {
    }
    reports.push_back(progress);
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // widens any overlap
    --inside;
  };
  const auto start = std::chrono::steady_clock::now();
  const nqueens::CountResult result = nqueens::count(13, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(most_inside.load(), 1);
  EXPECT_EQ(units_seen.load(), result.work_units);
  ASSERT_FALSE(reports.empty());
  for (std::size_t i = 1; i < reports.size(); ++i) {
    EXPECT_GE(reports[i].units_done, reports[i - 1].units_done) << i;
    EXPECT_GE(reports[i].work_done, reports[i - 1].work_done) << i;
  }
  EXPECT_EQ(reports.back().units_done, result.work_units);
  EXPECT_EQ(reports.back().work_done, 1.0);
  EXPECT_LE(static_cast<double>(reports.size()), 2 + 10 * seconds + 1) << seconds << " s";
  EXPECT_LT(reports.size(), result.work_units / 2);
}
