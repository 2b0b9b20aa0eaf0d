#include "run/run_arena.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "system/stop_signals.hpp"

namespace nqueens {

namespace {

int checked(int threads) {
  if (threads < 1) throw std::invalid_argument("thread count must be at least 1, got " + std::to_string(threads));
  return threads;
}

std::atomic<int>& arenas_made() {
  static std::atomic<int> made{0};
  return made;
}

// How long a run's workers are waited for as they start. They were started and ended once before
// (ThreadAllowance), so this bounds only a pool that gives the arena fewer workers than its slots
// (its workers busy in another arena).
constexpr auto kWorkersStart = std::chrono::seconds(2);

// Each worker of an arena, in it at once: every task enqueued waits here until all have come, so
// that no two tasks run on one worker.
class Gathering {
 public:
  explicit Gathering(int workers) : workers_(workers) {}

  void arrive() {
    std::unique_lock<std::mutex> lock(lock_);
    if (++arrived_ == workers_) all_.notify_all();
    all_.wait_for(lock, kWorkersStart, [this] { return arrived_ >= workers_ || released_; });
  }

  // Until every worker has come (or kWorkersStart), then lets them go.
  void wait_and_release() {
    std::unique_lock<std::mutex> lock(lock_);
    all_.wait_for(lock, kWorkersStart, [this] { return arrived_ >= workers_; });
    released_ = true;
    all_.notify_all();
  }

 private:
  const int workers_;
  std::mutex lock_;
  std::condition_variable all_;
  int arrived_ = 0;        //!< guarded by lock_
  bool released_ = false;  //!< guarded by lock_
};

}  // namespace

// A caller that stays apart takes no slot: all `threads` are TBB's workers, and the allowance
// counts the caller too, as TBB does.
RunArena::RunArena(int threads, Caller caller)
    : threads_(checked(threads)),
      allowance_(caller == Caller::joins ? threads : threads + 1, caller == Caller::joins ? 0 : 1),
      arena_(threads, caller == Caller::joins ? 1 : 0) {
  if (detail::stop_signals_heard_on_main_thread()) start_workers(caller == Caller::joins ? threads - 1 : threads);
  arenas_made().fetch_add(1, std::memory_order_relaxed);
}

// oneTBB starts a worker when an arena first asks for it, on the thread that asks (or on a worker
// it started), and a new thread takes the signal mask of the thread that starts it. So a program's
// run starts every worker here, while this thread blocks the stop signals: each worker blocks them
// for good, and this thread hears them again after. A worker once started sleeps between tasks and
// lives as long as oneTBB's pool, which the arena holds. (An observer that blocked them as each
// worker entered the arena had to be switched off while a worker still held its proxy, and oneTBB
// 2021 never freed that proxy: LeakSanitizer's one finding in this program.)
void RunArena::start_workers(int workers) {
  if (workers <= 0) return;
  const detail::StopSignalsBlocked blocked;
  // Shared with the tasks, which may still be leaving arrive() when this returns.
  const auto gathering = std::make_shared<Gathering>(workers);
  for (int i = 0; i < workers; ++i) arena_.enqueue([gathering] { gathering->arrive(); });
  gathering->wait_and_release();
}

int RunArena::made() { return arenas_made().load(std::memory_order_relaxed); }

}  // namespace nqueens
