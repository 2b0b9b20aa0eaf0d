#pragma once
// The kernel: a bitmask depth-first search (Richards' column / left-diagonal / right-diagonal
// masks) that counts every completion of one work unit. It knows nothing of threads, files or
// logging, and is what every speed measurement looks at first.
#include <array>
#include <cstdint>

#include "nqueens/work_unit.hpp"

namespace nqueens {

//! What one unit contributes. 64 bits suffice per unit: even at N = 32 a single unit would
//! need centuries of search to pass 2^64 completions. Sums across units use `Totals`.
struct Tally {
  std::uint64_t total = 0;                //!< boards this unit stands for, weights applied
  std::array<std::uint64_t, 4> orbits{};  //!< full mode: canonical boards of orbit 1, 2, 4, 8
  std::uint64_t nodes = 0;                //!< queens placed by the search

  Tally& operator+=(const Tally& other);
  friend bool operator==(const Tally&, const Tally&) = default;
};

//! Index into Tally::orbits for an orbit of `size` boards (1, 2, 4 or 8).
constexpr std::size_t orbit_slot(int size) { return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3; }

//! Counts all completions of `unit` on an n x n board.
Tally count_from(const WorkUnit& unit, int n);

}  // namespace nqueens
