#pragma once
// The gpu engine's slot split: a row set's stored side cut into slots, and its query side into
// groups, on a few key bits often set in both sides. Two keys that share one of those bits are
// never disjoint, so a slot only meets the groups that share none of its bits: with bits set in
// half the keys of each side, every bit spares a quarter of the pair tests. The CPU join does the
// same (join/disjoint_count.cpp); here the choice weighs what a split costs a device, a 1024-key
// tile's table built per slot, against the query passes it spares.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/tile_match.hpp"
#include "join/disjoint_count.hpp"

namespace nqueens::gpu {

struct SlotSplit {
  std::array<int, kMaxSplitBits> bits{};  //!< the most often shared first
  int count = 0;                          //!< 0: no split

  std::uint32_t groups() const { return 1u << count; }
  //! The key's bits on the split, bits[i] as bit i.
  std::uint32_t pattern_of(std::uint64_t key) const {
    std::uint32_t pattern = 0;
    for (int i = 0; i < count; ++i)
      pattern |= static_cast<std::uint32_t>((key >> bits[static_cast<std::size_t>(i)]) & 1) << i;
    return pattern;
  }
};

//! The split of `stored` against `queries` that makes the fewest tile passes (maybe none).
SlotSplit choose_split(join::KeyParts stored, join::KeyParts queries, int key_bits);

//! A tile's table costs about as much as this many queries answered against it (building the
//! bit planes reads each stored key once per key bit): a split must spare more passes than the
//! tables it adds.
inline constexpr double kBuildPasses = 512;

}  // namespace nqueens::gpu
