#include "run/run_arena.hpp"

#include <atomic>
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

}  // namespace

// A caller that stays apart takes no slot: all `threads` are TBB's workers, and the allowance
// counts the caller too, as TBB does.
RunArena::RunArena(int threads, Caller caller)
    : threads_(checked(threads)),
      allowance_(caller == Caller::joins ? threads : threads + 1, caller == Caller::joins ? 0 : 1),
      arena_(threads, caller == Caller::joins ? 1 : 0) {
  arenas_made().fetch_add(1, std::memory_order_relaxed);
}

void RunArena::WorkerSignals::on_scheduler_entry(bool worker) {
  if (worker) detail::leave_stop_signals_to_others();
}

int RunArena::made() { return arenas_made().load(std::memory_order_relaxed); }

}  // namespace nqueens
