#include "progress.hpp"

#include <csignal>

#include "console.hpp"

namespace nqueens::shell {

namespace {

using Clock = std::chrono::steady_clock;

// A terminal line is redrawn this often; below the first delay, a quick count draws nothing.
constexpr auto kRedraw = std::chrono::milliseconds(250);
constexpr auto kFirstDraw = std::chrono::milliseconds(500);
// A terminal that does not say its width (a serial console) is taken to have the classic one.
constexpr int kAssumedWidth = 80;

std::atomic<bool> window_resized{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_window_change(int) { window_resized.store(true, std::memory_order_relaxed); }

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
    : n_(engine.n()), engine_(engine), terminal_(Console::err().terminal()) {
  for (const std::size_t id : todo) cost_total_ += engine.cost(id);
  for (const std::size_t id : done) cost_before_ += engine.cost(id);
  cost_total_ += cost_before_;
  units_before_ = done.size();
  units_total_ = todo.size() + done.size();
  period_ = terminal_
                ? Clock::duration(kRedraw)
                : std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.interval_seconds));
  start_ = Clock::now();
  next_ = start_ + (terminal_ ? Clock::duration(kFirstDraw) : period_);
  if (terminal_) watch_window_size();
}

Progress::~Progress() { finish(); }

void Progress::unit_done(std::size_t id, const Tally& tally) {
  units_done_.fetch_add(1, std::memory_order_relaxed);
  cost_done_.fetch_add(engine_.cost(id), std::memory_order_relaxed);
  solutions_.fetch_add(tally.total, std::memory_order_relaxed);
}

ProgressSnapshot Progress::snapshot() const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::uint64_t cost_now = cost_done_.load(std::memory_order_relaxed);
  ProgressSnapshot s;
  s.n = n_;
  s.units_done = units_before_ + units_done_.load(std::memory_order_relaxed);
  s.units_total = units_total_;
  s.work_share = cost_total_ ? static_cast<double>(cost_before_ + cost_now) / static_cast<double>(cost_total_) : 1.0;
  s.elapsed_seconds = elapsed;
  // The ETA extrapolates this process's own pace: work counted before it started took no time here.
  if (cost_now > 0 && elapsed > 0) {
    const double rate = static_cast<double>(cost_now) / elapsed;
    s.eta_seconds = static_cast<double>(cost_total_ - cost_before_ - cost_now) / rate;
  }
  const double solutions = static_cast<double>(solutions_.load(std::memory_order_relaxed));
  s.solutions_per_second = elapsed > 0 ? solutions / elapsed : 0.0;
  return s;
}

void Progress::tick() noexcept {
  const Clock::time_point now = Clock::now();
  const bool resized = terminal_ && drawn_ && window_resized.exchange(false, std::memory_order_relaxed);
  if (now < next_ && !resized) return;
  next_ = now + period_;
  try {
    if (terminal_) {
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

}  // namespace nqueens::shell
