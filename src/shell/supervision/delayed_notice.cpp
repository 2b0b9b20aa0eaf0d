#include "shell/supervision/delayed_notice.hpp"

#include <utility>

#include "shell/supervision/cost_notice.hpp"
#include "system/stop_signals.hpp"

namespace nqueens::shell {

DelayedNotice::DelayedNotice(std::vector<std::string> lines, std::chrono::milliseconds delay)
    : lines_(std::move(lines)) {
  if (lines_.empty()) return;  // nothing to say: no thread
  timer_ = std::thread([this, delay] {
    detail::leave_stop_signals_to_others();  // a thread that ends soon must not take a stop signal with it
    std::unique_lock<std::mutex> guard(lock_);
    if (settled_.wait_for(guard, delay, [this] { return done_; })) return;
    done_ = true;
    warn_each(lines_);
  });
}

DelayedNotice::~DelayedNotice() { finish(false); }

void DelayedNotice::say() { finish(true); }

void DelayedNotice::finish(bool logged) {
  {
    const std::lock_guard<std::mutex> guard(lock_);
    if (!done_ && logged) warn_each(lines_);
    done_ = true;
  }
  settled_.notify_all();
  if (timer_.joinable()) timer_.join();
}

}  // namespace nqueens::shell
