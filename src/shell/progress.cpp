#include "progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/core.h>

namespace nqueens::shell {

namespace {

using Clock = std::chrono::steady_clock;

// A terminal line is redrawn this often; below the first delay, a quick count draws nothing.
constexpr auto kRedraw = std::chrono::milliseconds(250);
constexpr auto kFirstDraw = std::chrono::milliseconds(500);

std::string clock_text(double seconds) {
  const long long s = std::llround(seconds);
  return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

}  // namespace

Progress::Progress(const Engine& engine, const std::vector<std::size_t>& todo, const std::vector<std::size_t>& done,
                   const ProgressOptions& options)
    : n_(engine.n()), engine_(engine), terminal_(isatty(STDERR_FILENO) == 1) {
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
}

Progress::~Progress() { finish(); }

void Progress::unit_done(std::size_t id, const Tally& tally) {
  units_done_.fetch_add(1, std::memory_order_relaxed);
  cost_done_.fetch_add(engine_.cost(id), std::memory_order_relaxed);
  solutions_.fetch_add(tally.total, std::memory_order_relaxed);
}

// "N=18: 1234/5678 units, ~21.7% of work, 0:01:23 elapsed, ETA 0:04:56, 3.12e+08 sol/s": under
// 80 columns up to N = 23, since a line that wraps can not be redrawn in place.
std::string Progress::status() const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::uint64_t cost_now = cost_done_.load(std::memory_order_relaxed);
  const double share =
      cost_total_ ? static_cast<double>(cost_before_ + cost_now) / static_cast<double>(cost_total_) : 1.0;
  // The ETA extrapolates this process's own pace: work counted before it started took no time here.
  std::string eta = "-";
  if (cost_now > 0) {
    const double rate = static_cast<double>(cost_now) / elapsed;
    eta = clock_text(static_cast<double>(cost_total_ - cost_before_ - cost_now) / rate);
  }
  const double solutions = static_cast<double>(solutions_.load(std::memory_order_relaxed));
  return fmt::format("N={}: {}/{} units, ~{:.1f}% of work, {} elapsed, ETA {}, {:.3g} sol/s", n_,
                     units_before_ + units_done_.load(std::memory_order_relaxed), units_total_, 100 * share,
                     clock_text(elapsed), eta, elapsed > 0 ? solutions / elapsed : 0.0);
}

void Progress::tick() {
  const Clock::time_point now = Clock::now();
  if (now < next_) return;
  next_ = now + period_;
  if (terminal_) {
    fmt::print(stderr, "\r{}\x1b[K", status());  // \x1b[K: erase what a longer line left
    drawn_ = true;
  } else {
    fmt::print(stderr, "[progress] {}\n", status());
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (!drawn_) return;
  fmt::print(stderr, "\r\x1b[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace nqueens::shell
