#include "supervisor.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "console.hpp"
#include "nqueens/journal.hpp"
#include "run/registry.hpp"
#include "nqueens/unit_ranges.hpp"
#include "signals.hpp"

namespace nqueens::shell {

namespace {

using Clock = std::chrono::steady_clock;

// How often the watching thread looks at signals and progress: short enough that an
// interrupt is acted on at once, long enough to cost nothing.
constexpr auto kWatchPeriod = std::chrono::milliseconds(50);
// How long units in flight get to finish after an interrupt before they are abandoned (they
// are counted again on resume). Keeps the exit within about two seconds of the signal.
constexpr auto kGracePeriod = std::chrono::milliseconds(1000);

// Joins a worker on every way out of a scope; on an exception it first asks the worker to stop
// handing out units, so the join takes at most the units in flight.
class JoinOnExit {
 public:
  JoinOnExit(std::thread& worker, std::atomic<bool>& stop) : worker_(worker), stop_(stop) {}
  ~JoinOnExit() {
    if (std::uncaught_exceptions() > uncaught_) stop_ = true;
    if (worker_.joinable()) worker_.join();
  }
  JoinOnExit(const JoinOnExit&) = delete;
  JoinOnExit& operator=(const JoinOnExit&) = delete;

 private:
  std::thread& worker_;
  std::atomic<bool>& stop_;
  int uncaught_ = std::uncaught_exceptions();
};

// The count runs on its own thread while the calling thread watches it: that thread must stay
// free to act on a signal while every worker is deep inside a long unit.
class Supervisor {
 public:
  Supervisor(Session& session, int threads, Journal* journal, Clock::time_point start)
      : session_(session), threads_(threads), journal_(journal), start_(start) {}

  void run(const ProgressOptions& options) {
    std::unique_ptr<Progress> progress;
    if (options.enabled)
      progress = std::make_unique<Progress>(session_.engine(), session_.todo(), session_.done(), options);
    const UnitObserver observer = [&progress](std::size_t id, const Tally& tally) {
      if (progress) progress->unit_done(id, tally);
    };
    std::thread worker([&] { work(observer); });
    {
      // Whatever leaves watch() (it should be nothing: progress swallows its own failures),
      // the worker is stopped and joined first: a joinable std::thread must never be destroyed.
      const JoinOnExit join(worker, stop_);
      watch(progress.get());
    }
    if (progress) progress->finish();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work(const UnitObserver& observer) {
    try {
      session_.run(threads_, observer, &stop_);
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
    report_interrupt("nqueens", signal, seconds, session_, journal_);
    std::fflush(stdout);
    std::_Exit(interrupted_exit_code(signal));
  }

  Session& session_;
  int threads_;
  Journal* journal_;
  Clock::time_point start_;  //!< the whole run's start, for the interrupt message
  std::atomic<bool> stop_{false};
  std::mutex lock_;
  std::condition_variable finished_signal_;
  bool finished_ = false;  //!< guarded by lock_
  std::exception_ptr error_;
};

}  // namespace

std::unique_ptr<Journal> open_journal(const std::filesystem::path& path, const RunHeader& header, bool repair) {
  std::unique_ptr<Journal> journal;
  try {
    journal = std::make_unique<Journal>(path, header, repair);
  } catch (const JournalMismatch& mismatch) {
    throw JournalMismatch(std::string(mismatch.what()) + " (to start a new run, give another --checkpoint file)");
  }
  if (const auto& repaired = journal->repaired())
    spdlog::warn(
        "{}: repaired: kept {} sound records, dropped {} damaged line(s) and the records of {} unit(s) that "
        "disagree (the damaged file is kept as {}); {} of the run's {} units are left to count",
        path.string(), repaired->kept, repaired->damaged, repaired->conflicting, repaired->backup.string(),
        header.unit_count - repaired->kept, header.unit_count);
  else if (repair)
    spdlog::info("{}: nothing to repair", path.string());
  if (journal->dropped_bytes() > 0)
    spdlog::warn(
        "{}: dropped a torn last record ({} bytes, cut short when the process died); that unit is counted again",
        path.string(), journal->dropped_bytes());
  if (!journal->recorded().empty())
    spdlog::info("{}: resuming, {} units already counted", path.string(), journal->recorded().size());
  return journal;
}

void report_interrupt(std::string_view program, int signal, double seconds, const Session& session, Journal* journal) {
  if (journal) {
    journal->seal();
    const std::size_t saved = session.done_before() + journal->units() - journal->recorded().size();
    Console::err().line(
        fmt::format("{}: interrupted by {} after {:.1f} s; {} of {} units are saved in {}: "
                    "run the same command again to resume",
                    program, signal_name(signal), seconds, saved, session.wanted().size(), journal->path().string()));
  } else {
    Console::err().line(
        fmt::format("{}: interrupted by {} after {:.1f} s; nothing was saved "
                    "(give --checkpoint FILE to make a run resumable)",
                    program, signal_name(signal), seconds));
  }
}

std::vector<std::size_t> wanted_ids(const Engine& engine, const SessionOptions& session) {
  if (session.units) return parse_id_ranges(*session.units, engine.unit_count());
  return session.shard ? shard_ids(engine, *session.shard) : all_ids(engine);
}

void log_start(const Engine& engine, const Session& session, const Journal* journal) {
  spdlog::info("N={}: {}", engine.n(), engine.describe());
  if (journal && session.todo().empty())
    spdlog::info("{}: all {} units are already counted; printing the stored result", journal->path().string(),
                 session.wanted().size());
}

SessionResult finish_session(const Session& session, const SessionOptions& options, int threads,
                             Clock::time_point start) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return {session.result(threads, seconds), session.engine().header(),
          options.shard ? session.units() : std::vector<UnitCount>{}, session.unit_time_here()};
}

SessionResult count_session(int n, const CountOptions& options, const SessionOptions& session) {
  const Clock::time_point start = Clock::now();
  const int threads = resolve_threads(options.threads);
  const std::unique_ptr<Engine> engine = make_engine(n, options);
  std::unique_ptr<Journal> journal;
  const std::vector<std::size_t> wanted = wanted_ids(*engine, session);
  if (session.checkpoint) journal = open_journal(*session.checkpoint, engine->header(), session.repair);
  Session counting(*engine, wanted, journal.get());
  log_start(*engine, counting, journal.get());
  if (!counting.complete()) Supervisor(counting, threads, journal.get(), session.run_start).run(session.progress);
  return finish_session(counting, session, threads, start);
}

}  // namespace nqueens::shell
