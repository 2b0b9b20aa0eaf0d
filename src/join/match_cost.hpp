#pragma once
// What the bit-sliced matcher costs, for choosing how to count a pair of sides (one by one,
// which side to load, a slot split): rough times measured on a Zen 4 core.
#include <cstddef>

#include "join/disjoint_count.hpp"

namespace nqueens::join::detail {

// Rough times in nanoseconds, measured on a Zen 4 core with bench/join_match_bench.cpp and a
// load/count split: building one block's tables (whatever its lane count), answering one query
// for one block, preparing one query, and testing one pair one at a time.
inline constexpr double kBuildBlockNs = 2000;
inline constexpr double kQueryBlockNs = 3;
inline constexpr double kQueryNs = 10;
inline constexpr double kPairOneByOneNs = 0.35;

inline std::size_t blocks_of(std::size_t keys, std::size_t lanes) { return (keys + lanes - 1) / lanes; }
inline std::size_t blocks_of(const KeyParts& parts, std::size_t lanes) {
  return blocks_of(parts[0].size(), lanes) + blocks_of(parts[1].size(), lanes);
}
inline std::size_t size_of(const KeyParts& parts) { return parts[0].size() + parts[1].size(); }

inline double bit_sliced_ns(std::size_t blocks, std::size_t queries) {
  return static_cast<double>(blocks) * (kBuildBlockNs + static_cast<double>(queries) * kQueryBlockNs) +
         static_cast<double>(queries) * kQueryNs;
}

}  // namespace nqueens::join::detail
