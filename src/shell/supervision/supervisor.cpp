#include "shell/supervision/supervisor.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "engine/setup_stop.hpp"
#include "files/file_io.hpp"
#include "files/journal_header.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "run/registry.hpp"
#include "shell/output/console.hpp"
#include "shell/supervision/out_of_memory_at.hpp"
#include "shell/supervision/signals.hpp"
#include "system/stop_signals.hpp"
#include "text/echo.hpp"

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
  Supervisor(Run& run, RunArena& arena, Clock::time_point start) : run_(run), arena_(arena), start_(start) {}

  void run(const ProgressOptions& options) {
    std::unique_ptr<Progress> progress;
    if (options.enabled) {
      ProgressOptions counted_by = options;
      counted_by.threads = arena_.threads();
      progress = std::make_unique<Progress>(run_.engine(), run_.todo(), run_.done(), counted_by);
    }
    const std::size_t failing_unit = out_of_memory_test_unit();
    std::atomic<std::size_t> finished_units{0};
    const UnitObserver observer = [&progress, failing_unit, &finished_units](std::size_t id, const Tally& tally) {
      if (progress) progress->unit_done(id, tally);
      if (failing_unit != 0 && finished_units.fetch_add(1) + 1 == failing_unit) throw std::bad_alloc();
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
    detail::leave_stop_signals_to_others();
    try {
      run_.execute(arena_, observer, &stop_);
    } catch (...) {
      error_ = std::current_exception();
    }
    const std::lock_guard<std::mutex> guard(lock_);
    finished_ = true;
    finished_signal_.notify_all();
  }

  // Returns when the worker is done; an interrupt never returns. The rule: a signal received
  // before the count's result is written stops it (exit 128 + the signal, its finished units
  // saved), even when the last unit finished meanwhile, so that the last look comes after the
  // worker's end. One that came before the count started (during a repair, say) stops it at once:
  // a count quicker than one look went on to its end, exit 0, as if the signal had never come.
  void watch(Progress* progress) {
    std::unique_lock<std::mutex> lock(lock_);
    for (;;) {
      const bool finished = finished_;
      if (const int signal = interrupt_signal()) {
        lock.unlock();
        stop_and_exit(signal, progress);
      }
      if (finished) return;
      finished_signal_.wait_for(lock, kWatchPeriod, [this] { return finished_; });
      if (!finished_ && progress) progress->tick();
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
    report_interrupt("nqueens", signal, seconds, run_);
    remove_interrupt_leftovers();
    std::fflush(stdout);
    std::_Exit(interrupted_exit_code(signal));
  }

  Run& run_;
  RunArena& arena_;
  Clock::time_point start_;  //!< the whole run's start, for the interrupt message
  std::atomic<bool> stop_{false};
  std::mutex lock_;
  std::condition_variable finished_signal_;
  bool finished_ = false;  //!< guarded by lock_
  std::exception_ptr error_;
};

// How long an interrupted setup gets to stop its loops before the process ends anyway: the
// setup keeps nothing worth waiting for, and a batch scheduler's SIGKILL follows its SIGTERM.
constexpr auto kSetupGracePeriod = std::chrono::milliseconds(500);

// The setup of a run (unit list, cost estimates, orders, the journal opened) runs on the calling
// thread while this one's thread watches signals and shows the setup's phase (SetupStatus): an
// interrupt stops the setup's parallel loops (setup_stop.hpp) and ends the process within about a
// second, whether or not the setup has returned, with the interrupt's message and exit code.
// Nothing was counted yet; a journal is left as it was.
class SetupWatch {
 public:
  SetupWatch(int n, const RunSettings& settings) : n_(n), settings_(settings) {}

  template <typename Setup>
  auto run(Setup setup) -> decltype(setup()) {
    // Made before the setup starts, so that its first phase is not overwritten by the start's.
    std::optional<SetupStatus> status;
    if (settings_.progress.enabled) status.emplace(n_, settings_.progress);
    std::thread watcher([this, &status] {
      detail::leave_stop_signals_to_others();  // it ends with the setup: the calling thread hears them
      watch(status ? &*status : nullptr);
    });
    const auto finish = [&] {
      {
        const std::lock_guard<std::mutex> guard(lock_);
        finished_ = true;
      }
      finished_signal_.notify_all();
      watcher.join();
    };
    try {
      const nqueens::detail::SetupScope scope(&stop_, SetupStatus::enter_phase);
      auto made = setup();
      finish();
      return made;
    } catch (...) {
      finish();  // after a stop, the watcher ends the process here
      throw;
    }
  }

 private:
  void watch(SetupStatus* status) {
    std::unique_lock<std::mutex> lock(lock_);
    while (!finished_signal_.wait_for(lock, kWatchPeriod, [this] { return finished_; })) {
      if (status) status->tick();
      if (const int signal = interrupt_signal()) {
        stop_ = true;
        finished_signal_.wait_for(lock, kSetupGracePeriod, [this] { return finished_; });
        const double seconds = std::chrono::duration<double>(Clock::now() - settings_.run_start).count();
        // Only a journal that exists is one to resume: the setup may not have created it yet.
        std::error_code unknown;  // never thrown here: this thread ends the process
        const std::string kept = settings_.checkpoint && std::filesystem::exists(*settings_.checkpoint, unknown)
                                     ? "; the journal " + settings_.checkpoint->string() +
                                           " is as it was: run the same command again to resume"
                                     : "";
        Console::err().line(
            fmt::format("nqueens: interrupted by {} after {:.1f} s, while setting up N={}; nothing "
                        "was counted{}",
                        signal_name(signal), seconds, n_, kept));
        remove_interrupt_leftovers();
        std::fflush(stdout);
        std::_Exit(interrupted_exit_code(signal));
      }
    }
  }

  int n_;
  const RunSettings& settings_;
  std::atomic<bool> stop_{false};
  std::mutex lock_;
  std::condition_variable finished_signal_;
  bool finished_ = false;  //!< guarded by lock_
};

// What opening the journal did, on the log: a repair, a torn last record, a resume.
void log_journal(const Journal& journal, const RunHeader& header, bool repair) {
  const std::string path = journal.path().string();
  if (const auto& repaired = journal.repaired())
    spdlog::warn(
        "{}: repaired: kept {} sound records, dropped {} damaged line(s) and the records of {} unit(s) that "
        "disagree (the damaged file is kept as {}); {} of the run's {} units are left to count",
        path, repaired->kept, repaired->damaged, repaired->conflicting, repaired->backup.string(),
        header.unit_count - repaired->kept, header.unit_count);
  else if (repair)
    spdlog::info("{}: nothing to repair", path);
  if (journal.dropped_bytes() > 0)
    spdlog::warn(
        "{}: dropped a torn last record ({} bytes, cut short when the process died); that unit is counted again", path,
        journal.dropped_bytes());
  // At the default level: a count that starts from a journal's units says so, or its short
  // time and the journal's earlier runs would go unexplained (a repair's line has said it).
  if (!journal.recorded().empty())
    spdlog::log(journal.repaired() ? spdlog::level::info : spdlog::level::warn,
                "{}: resuming, {} units already counted", path, journal.recorded().size());
}

}  // namespace

RunSettings settings_for_size(const RunSettings& session, int n, std::size_t sizes) {
  RunSettings one = session;
  static_cast<RunPlace&>(one) = place_for_size(session, n, sizes);
  return one;
}

void log_resumed_engine(const RunRequest& request, const RunSettings& settings) {
  if (request.engine_unlike_auto)
    spdlog::info("{}: resuming with the {} engine the journal was started with", settings.checkpoint->string(),
                 request.engine->name);
}

void check_every_run(const RunSettings& session, PreparedRuns& runs, RunArena& arena, bool watched) {
  const std::size_t sizes = runs.requests.size();
  const PlanWatch watch = [&session, sizes](int n, const std::function<void()>& plan) {
    SetupWatch(n, settings_for_size(session, n, sizes)).run([&plan] {
      plan();
      return true;
    });
  };
  check_runs(runs, arena, watched ? watch : PlanWatch{}, [](const std::string& said) { spdlog::warn("{}", said); });
}

std::unique_ptr<Run> open_run(const RunRequest& request, RunArena& arena, const RunSettings& settings) {
  log_resumed_engine(request, settings);
  if (const std::string memory = memory_plan(request); !memory.empty()) spdlog::info("N={}: {}", request.n, memory);
  return open_run(make_engine(request, arena), settings);
}

std::unique_ptr<Run> open_run(std::unique_ptr<Engine> engine, const RunSettings& settings) {
  std::optional<JournalRequest> journal;
  if (settings.checkpoint) journal = JournalRequest{*settings.checkpoint, settings.repair};
  const int n = engine->n();
  const RunHeader header = engine->header();
  std::unique_ptr<Run> run;
  try {
    run = std::make_unique<Run>(std::move(engine), settings.selection, journal);
  } catch (const JournalMismatch& mismatch) {
    throw JournalMismatch(std::string(mismatch.what()) + journal_mismatch_advice(*settings.checkpoint, header.engine));
  }
  if (run->journal()) log_journal(*run->journal(), run->header(), settings.repair);
  spdlog::info("N={}: {}", n, run->engine().describe());
  if (run->journal() && run->todo().empty())
    spdlog::info("{}: all {} units are already counted; printing the stored result", run->journal()->path().string(),
                 run->wanted().size());
  return run;
}

void report_interrupt(std::string_view program, int signal, double seconds, const Run& run) {
  if (Journal* journal = run.journal()) {
    journal->seal();
    const std::size_t saved = run.done_before() + journal->units() - journal->recorded().size();
    Console::err().line(
        fmt::format("{}: interrupted by {} after {:.1f} s; {} of {} units are saved in {}: "
                    "run the same command again to resume",
                    program, signal_name(signal), seconds, saved, run.wanted().size(), journal->path().string()));
  } else {
    Console::err().line(
        fmt::format("{}: interrupted by {} after {:.1f} s; nothing was saved "
                    "(give --checkpoint FILE to make a run resumable)",
                    program, signal_name(signal), seconds));
  }
}

RunOutcome outcome_of(const Run& run, const RunSettings& settings, int threads, Clock::time_point start) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return {run.result(threads, seconds),
          run.header(),
          settings.selection.whole() ? std::vector<UnitCount>{} : run.units(),
          run.unit_time_here(),
          run.totals_here(),
          !run.todo().empty()};
}

RunOutcome count_run(const RunRequest& request, const RunSettings& settings) {
  RunArena arena(request.threads);
  return count_run(request, settings, arena);
}

RunOutcome count_run(const RunRequest& request, const RunSettings& settings, RunArena& arena) {
  const Clock::time_point start = Clock::now();
  const std::unique_ptr<Run> run =
      SetupWatch(request.n, settings).run([&] { return open_run(request, arena, settings); });
  if (!run->complete()) Supervisor(*run, arena, settings.run_start).run(settings.progress);
  return outcome_of(*run, settings, request.threads, start);
}

void count_each(std::span<const RunRequest> requests, const RunSettings& session, RunArena& arena,
                const std::function<void(const RunOutcome&)>& counted) {
  for (const RunRequest& request : requests)
    counted(count_run(request, settings_for_size(session, request.n, requests.size()), arena));
}

}  // namespace nqueens::shell
