#pragma once
// The kernel: a bitmask depth-first search (Richards' column / left-diagonal / right-diagonal
// masks) that counts every completion of one work unit. It knows nothing of threads, files or
// logging, and is what every speed measurement looks at first.
#include <cstddef>

#include "dfs/work_unit.hpp"
#include "nqueens/counts.hpp"

namespace nqueens {

//! Boards gathered at the switch row before the breadth-first part takes them. Large enough
//! that every level is long for SIMD, small enough that the levels stay in L2.
inline constexpr std::size_t kKernelBatch = 1024;

//! Counts all completions of `unit` on an n x n board.
Tally count_from(const WorkUnit& unit, int n);

//! count_from() with another batch size. Only the tests call it: with batches of 1 or 7 boards
//! the flush inside the descent runs on the small boards they can check against the reference.
Tally count_from_in_batches(const WorkUnit& unit, int n, std::size_t batch_size);

}  // namespace nqueens
