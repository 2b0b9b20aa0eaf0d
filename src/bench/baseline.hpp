#pragma once
// The baseline every speed figure is quoted against: the textbook recursive bitmask search with
// the mirror trick, single-threaded, as the project's seed programs wrote it. It is kept
// deliberately plain; `nqueens bench` times it in the same run as the engine.
#include <cstdint>

namespace nqueens {

//! A000170(n) by the textbook recursion. Slow by design; n <= 20 or so in practice.
std::uint64_t textbook_count(int n);

}  // namespace nqueens
