#pragma once
// The kernel: a bitmask depth-first search (Richards' column / left-diagonal / right-diagonal
// masks) that counts every completion of one work unit. It knows nothing of threads, files or
// logging, and is what every speed measurement looks at first.
#include "nqueens/reduce.hpp"
#include "work_unit.hpp"

namespace nqueens {

//! Counts all completions of `unit` on an n x n board.
Tally count_from(const WorkUnit& unit, int n);

}  // namespace nqueens
