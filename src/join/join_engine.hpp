#pragma once
// The half-board join engine for n, as the registry's `join` makes it, on the threads and under
// the memory budget of `options`. Throws std::invalid_argument with the reason when it cannot
// count n (join::unsupported_reason) or the budget is too small (join_memory.hpp).
#include <memory>

#include "run/engine.hpp"

namespace nqueens {

std::unique_ptr<Engine> make_join_engine(int n, const CountOptions& options = {});

}  // namespace nqueens
