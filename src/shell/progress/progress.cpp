#include "shell/progress/progress.hpp"

#include <algorithm>
#include <csignal>
#include <mutex>

#include <spdlog/spdlog.h>

#include "shell/output/console.hpp"
#include "shell/progress/shared_terminal.hpp"
#include "system/machine_load.hpp"

namespace nqueens::shell {

namespace {

using Clock = std::chrono::steady_clock;

// A terminal line is redrawn this often; below the first delay, a quick count draws nothing.
constexpr auto kRedraw = std::chrono::milliseconds(250);
constexpr auto kFirstDraw = std::chrono::milliseconds(500);
// On a terminal that another process draws its status on, a line is printed at most this often.
constexpr auto kSharedTerminalPeriod = std::chrono::seconds(10);
// A terminal that does not say its width (a serial console) is taken to have the classic one.
constexpr int kAssumedWidth = 80;

std::atomic<bool> window_resized{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_window_change(int) { window_resized.store(true, std::memory_order_relaxed); }

// The setup phase under way: one setup runs at a time (setup_stop.hpp), named on its thread and
// read on the watching one.
std::mutex phase_lock;
std::string current_phase;  // guarded by phase_lock

std::string phase_now() {
  const std::lock_guard<std::mutex> guard(phase_lock);
  return current_phase;
}

Clock::duration log_period(const ProgressOptions& options) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.interval_seconds));
}

Clock::duration shared_terminal_period(const ProgressOptions& options) {
  return std::min(log_period(options), Clock::duration(kSharedTerminalPeriod));
}

// Whether the status due now is drawn in place. Once another process draws its status on the
// same terminal, it is not (for good: lines that come and go would be as hard to read): the line
// drawn is erased, and from then on a line is printed every `line_period`.
bool draws_in_place(bool& terminal, bool& drawn, Clock::duration& period, Clock::duration line_period) {
  if (!terminal) return false;
  if (!terminal_shared_with_another_status()) return true;
  if (drawn) Console::err().clear_status();
  terminal = drawn = false;
  period = line_period;
  return false;
}

}  // namespace

void watch_window_size() {
  struct sigaction action = {};
  action.sa_handler = on_window_change;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write(2) in flight is resumed rather than failed with EINTR
  sigaction(SIGWINCH, &action, nullptr);
}

Progress::Progress(const Engine& engine, const std::vector<std::size_t>& todo, const std::vector<std::size_t>& done,
                   const ProgressOptions& options)
    : n_(engine.n()),
      part_(options.part),
      engine_(engine),
      terminal_(Console::err().terminal()),
      line_period_(shared_terminal_period(options)),
      threads_(std::max(options.threads, 0)) {
  for (const std::size_t id : todo) cost_total_ += engine.cost(id);
  for (const std::size_t id : done) cost_before_ += engine.cost(id);
  cost_total_ += cost_before_;
  units_before_ = done.size();
  units_total_ = todo.size() + done.size();
  period_ = terminal_ ? Clock::duration(kRedraw) : log_period(options);
  draws_in_place(terminal_, drawn_, period_, line_period_);  // marks the terminal as this process's too
  start_ = Clock::now();
  cpu_start_ = process_cpu_seconds();
  next_ = start_ + (terminal_ ? Clock::duration(kFirstDraw) : period_);
  if (terminal_) watch_window_size();
}

Progress::~Progress() { finish(); }

void Progress::unit_done(std::size_t id, const Tally& tally) {
  units_done_.fetch_add(1, std::memory_order_relaxed);
  cost_done_.fetch_add(engine_.cost(id), std::memory_order_relaxed);
  solutions_.fetch_add(tally.total, std::memory_order_relaxed);
}

ProgressSnapshot Progress::snapshot() {
  return snapshot_at(std::chrono::duration<double>(Clock::now() - start_).count(), process_cpu_seconds() - cpu_start_);
}

ProgressSnapshot Progress::snapshot_at(double elapsed, double cpu_seconds) {
  const std::uint64_t cost_now = cost_done_.load(std::memory_order_relaxed);
  ProgressSnapshot s;
  s.n = n_;
  s.part = part_;
  s.units_done = units_before_ + units_done_.load(std::memory_order_relaxed);
  s.units_total = units_total_;
  s.work_share = cost_total_ ? static_cast<double>(cost_before_ + cost_now) / static_cast<double>(cost_total_) : 1.0;
  s.elapsed_seconds = elapsed;
  // The ETA extrapolates this process's own pace: work counted before it started took no time here.
  // Its clock is the threads' CPU time (eta.hpp): the time left on cores of their own, as the
  // warning and `plan` price a run; what they got of a core is said where it is low.
  const std::uint64_t cost_here = cost_total_ - cost_before_;
  const double clock = threads_ > 0 ? thread_clock_seconds(elapsed, cpu_seconds, threads_) : elapsed;
  s.eta_seconds = eta_.update(clock, cost_here ? static_cast<double>(cost_now) / static_cast<double>(cost_here) : 1.0);
  // Said with the ETA it qualifies: in a count's first moments the threads are still starting.
  if (const double share = elapsed > 0 ? clock / elapsed : 1.0; s.eta_seconds && share < kLowCoreShare)
    s.core_share = share;
  const double solutions = static_cast<double>(solutions_.load(std::memory_order_relaxed));
  s.solutions_per_second = elapsed > 0 ? solutions / elapsed : 0.0;
  return s;
}

void Progress::tick() noexcept {
  const Clock::time_point now = Clock::now();
  const bool resized = terminal_ && drawn_ && window_resized.exchange(false, std::memory_order_relaxed);
  if (now < next_ && !resized) return;
  try {
    const bool in_place = draws_in_place(terminal_, drawn_, period_, line_period_);
    next_ = now + period_;
    if (in_place) {
      const int width = Console::err().width();
      Console::err().status(fit_status(snapshot(), width > 0 ? width : kAssumedWidth));
      drawn_ = true;
    } else {
      Console::err().line("[progress] " + log_status(snapshot()), Stamp::when_batch);
    }
  } catch (...) {  // formatting ran out of memory: skip this tick, the count goes on
  }
}

void Progress::finish() noexcept {
  if (!drawn_) return;
  Console::err().clear_status();
  drawn_ = false;
}

SetupStatus::SetupStatus(int n, const ProgressOptions& options)
    : n_(n),
      part_(options.part),
      terminal_(Console::err().terminal()),
      period_(terminal_ ? Clock::duration(kRedraw) : log_period(options)),
      line_period_(shared_terminal_period(options)) {
  draws_in_place(terminal_, drawn_, period_, line_period_);  // marks the terminal as this process's too
  start_ = Clock::now();
  next_ = start_ + (terminal_ ? Clock::duration(kFirstDraw) : period_);
  enter_phase("starting");
}

SetupStatus::~SetupStatus() {
  if (drawn_) Console::err().clear_status();
}

void SetupStatus::enter_phase(std::string_view phase) {
  spdlog::debug("setup: {}", phase);
  const std::lock_guard<std::mutex> guard(phase_lock);
  current_phase = phase;
}

void SetupStatus::tick() noexcept {
  const Clock::time_point now = Clock::now();
  if (now < next_) return;
  try {
    const bool in_place = draws_in_place(terminal_, drawn_, period_, line_period_);
    next_ = now + period_;
    const SetupSnapshot s{n_, phase_now(), std::chrono::duration<double>(now - start_).count(), part_};
    if (in_place) {
      const int width = Console::err().width();
      Console::err().status(fit_setup_status(s, width > 0 ? width : kAssumedWidth));
      drawn_ = true;
    } else {
      Console::err().line("[progress] " + log_setup_status(s), Stamp::when_batch);
    }
  } catch (...) {  // formatting ran out of memory: skip this tick, the setup goes on
  }
}

}  // namespace nqueens::shell
