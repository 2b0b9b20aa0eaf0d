#include "session.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "nqueens/journal.hpp"
#include "signals.hpp"

namespace nqueens::cli {

namespace {

using Clock = std::chrono::steady_clock;

// How often the watching thread looks at signals and progress: short enough that an
// interrupt is acted on at once, long enough to cost nothing.
constexpr auto kWatchPeriod = std::chrono::milliseconds(50);
// How long units in flight get to finish after an interrupt before they are abandoned (they
// are counted again on resume). Keeps the exit within about two seconds of the signal.
constexpr auto kGracePeriod = std::chrono::milliseconds(1000);

// The counts of one run's units as they arrive. Each slot is written by the one worker that ran
// that unit, and read after the workers are joined, so it needs no lock.
struct Ledger {
  explicit Ledger(std::size_t units) : tallies(units), have(units, 0) {}
  void record(std::size_t id, const Tally& tally) {
    tallies[id] = tally;
    have[id] = 1;
  }
  std::vector<Tally> tallies;
  std::vector<char> have;  //!< not vector<bool>: neighbouring slots are written by different threads
};

// The count runs on its own thread while the calling thread watches it: that thread must stay
// free to act on a signal while every worker is deep inside a long unit.
class Supervisor {
 public:
  Supervisor(const WorkPlan& plan, int threads, Ledger& ledger, Journal* journal, Clock::time_point start)
      : plan_(plan), threads_(threads), ledger_(ledger), journal_(journal), start_(start) {}

  void run(const std::vector<std::size_t>& todo, const std::vector<std::size_t>& done, const ProgressOptions& options) {
    units_done_before_ = done.size();
    units_wanted_ = todo.size() + done.size();
    std::unique_ptr<Progress> progress;
    if (options.enabled) progress = std::make_unique<Progress>(plan_, todo, done, options);
    const UnitObserver observer = [this, &progress](std::size_t id, const Tally& tally) {
      ledger_.record(id, tally);
      if (journal_) journal_->append({id, tally});
      if (progress) progress->unit_done(id, tally);
    };
    std::thread worker([&] { work(observer, todo); });
    watch(progress.get());
    worker.join();
    if (progress) progress->finish();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work(const UnitObserver& observer, const std::vector<std::size_t>& todo) {
    try {
      run_units(plan_, threads_, observer, todo, &stop_);
    } catch (...) {
      error_ = std::current_exception();
    }
    const std::lock_guard<std::mutex> guard(lock_);
    finished_ = true;
    finished_signal_.notify_all();
  }

  // Returns when the worker is done; an interrupt never returns.
  void watch(Progress* progress) {
    std::unique_lock<std::mutex> lock(lock_);
    while (!finished_signal_.wait_for(lock, kWatchPeriod, [this] { return finished_; })) {
      if (const int signal = interrupt_signal()) {
        lock.unlock();
        stop_and_exit(signal, progress);
      }
      if (progress) progress->tick();
    }
  }

  // Stops handing out units, gives running ones a moment, saves, and ends the process. It
  // exits rather than returns because abandoned units may still be running on TBB threads that
  // hold references into this stack frame; _Exit skips the destructors that would wait on them
  // or pull their data away. Everything worth keeping is flushed first.
  [[noreturn]] void stop_and_exit(int signal, Progress* progress) {
    stop_ = true;
    {
      std::unique_lock<std::mutex> lock(lock_);
      finished_signal_.wait_for(lock, kGracePeriod, [this] { return finished_; });
    }
    if (progress) progress->finish();
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    if (journal_) {
      journal_->seal();
      const std::size_t saved = units_done_before_ + journal_->units() - journal_->recorded().size();
      fmt::print(stderr,
                 "nqueens: interrupted by {} after {:.1f} s; {} of {} units are saved in {}: "
                 "run the same command again to resume\n",
                 signal_name(signal), seconds, saved, units_wanted_, journal_->path().string());
    } else {
      fmt::print(stderr,
                 "nqueens: interrupted by {} after {:.1f} s; nothing was saved "
                 "(give --checkpoint FILE to make a run resumable)\n",
                 signal_name(signal), seconds);
    }
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(interrupted_exit_code(signal));
  }

  const WorkPlan& plan_;
  int threads_;
  Ledger& ledger_;
  Journal* journal_;
  Clock::time_point start_;
  std::size_t units_done_before_ = 0;  //!< of the units asked for, those the journal already held
  std::size_t units_wanted_ = 0;       //!< all units of the run, or of its shard
  std::atomic<bool> stop_{false};
  std::mutex lock_;
  std::condition_variable finished_signal_;
  bool finished_ = false;  //!< guarded by lock_
  std::exception_ptr error_;
};

}  // namespace

std::unique_ptr<Journal> open_journal(const std::filesystem::path& path, const RunHeader& header) {
  std::unique_ptr<Journal> journal;
  try {
    journal = std::make_unique<Journal>(path, header);
  } catch (const JournalMismatch& mismatch) {
    throw JournalMismatch(std::string(mismatch.what()) + " (to start a new run, give another --checkpoint file)");
  }
  if (journal->dropped_bytes() > 0)
    spdlog::warn(
        "{}: dropped a torn last record ({} bytes, cut short when the process died); that unit is counted again",
        path.string(), journal->dropped_bytes());
  if (!journal->recorded().empty())
    spdlog::info("{}: resuming, {} units already counted", path.string(), journal->recorded().size());
  return journal;
}

std::vector<std::size_t> wanted_ids(const WorkPlan& plan, const std::optional<ShardSpec>& shard) {
  if (shard) return shard_ids(plan, *shard);
  std::vector<std::size_t> ids(plan.units.size());
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  return ids;
}

CountResult make_result(const WorkPlan& plan, const Totals& totals, int threads, Clock::time_point start) {
  CountResult result;
  result.n = plan.n;
  result.totals = totals;
  if (plan.symmetry == Symmetry::full) result.unique = totals.unique();
  result.symmetry = plan.symmetry;
  result.split_depth = plan.split_depth;
  result.work_units = plan.units.size();
  result.threads = threads;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

SessionResult count_session(int n, const CountOptions& options, const SessionOptions& session) {
  const Clock::time_point start = Clock::now();
  const int threads = options.threads == 0 ? hardware_threads() : options.threads;
  const WorkPlan plan = split(n, options.symmetry, options.split_depth);
  SessionResult out;
  out.header = make_header(plan);

  Ledger ledger(plan.units.size());
  std::unique_ptr<Journal> journal;
  if (session.checkpoint) journal = open_journal(*session.checkpoint, out.header);
  if (journal)
    for (const UnitCount& unit : journal->recorded()) ledger.record(unit.id, unit.tally);

  const std::vector<std::size_t> wanted = wanted_ids(plan, session.shard);
  std::vector<std::size_t> todo, done;
  for (const std::size_t id : wanted) (ledger.have[id] ? done : todo).push_back(id);
  if (todo.empty() && journal)
    spdlog::info("{}: all {} units are already counted; printing the stored result", journal->path().string(),
                 done.size());
  if (!todo.empty()) Supervisor(plan, threads, ledger, journal.get(), start).run(todo, done, session.progress);

  Totals totals;
  for (const std::size_t id : wanted) {
    totals += ledger.tallies[id];
    out.units.push_back({id, ledger.tallies[id]});
  }
  out.result = make_result(plan, totals, threads, start);
  return out;
}

}  // namespace nqueens::cli
