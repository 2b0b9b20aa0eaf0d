#include "run/run_arena.hpp"

#include <stdexcept>
#include <string>

namespace nqueens {

namespace {

int checked(int threads) {
  if (threads < 1) throw std::invalid_argument("thread count must be at least 1, got " + std::to_string(threads));
  return threads;
}

}  // namespace

// A caller that stays apart takes no slot: all `threads` are TBB's workers, and the allowance
// counts the caller too, as TBB does.
RunArena::RunArena(int threads, Caller caller)
    : threads_(checked(threads)),
      allowance_(caller == Caller::joins ? threads : threads + 1),
      arena_(threads, caller == Caller::joins ? 1 : 0) {}

}  // namespace nqueens
