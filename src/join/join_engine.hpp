#pragma once
// The half-board join engine for n, as the registry's `join` makes it. Throws
// std::invalid_argument with the reason when it cannot count n (join::unsupported_reason).
#include <memory>

#include "run/engine.hpp"

namespace nqueens {

std::unique_ptr<Engine> make_join_engine(int n);

}  // namespace nqueens
