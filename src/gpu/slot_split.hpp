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

//! The bits a row set's sides are split on. A key's pattern is read a byte of the key at a time
//! from tables, only the bytes that hold a split bit: the host works it out for every key of
//! every large row set, which must cost little beside enumerating them.
class SlotSplit {
 public:
  SlotSplit() = default;  //!< no split: one slot, one group
  //! bits[i] is bit i of a pattern; at most kMaxSplitBits of them.
  explicit SlotSplit(std::span<const int> bits);

  int count() const { return count_; }
  int bit(int i) const { return bits_[static_cast<std::size_t>(i)]; }
  std::uint32_t groups() const { return 1u << count_; }
  //! The split on the first `count` bits of this one.
  SlotSplit first(int count) const {
    return SlotSplit(std::span<const int>(bits_.data(), static_cast<std::size_t>(count)));
  }

  //! The key's bits on the split, bit(i) as bit i.
  std::uint32_t pattern_of(std::uint64_t key) const {
    std::uint32_t pattern = 0;
    for (int i = 0; i < byte_count_; ++i) {
      const auto index = static_cast<std::size_t>(i);
      pattern |= patterns_[index][(key >> (8 * bytes_[index])) & 0xff];
    }
    return pattern;
  }

 private:
  std::array<int, kMaxSplitBits> bits_{};
  int count_ = 0;
  std::array<int, kMaxSplitBits> bytes_{};  // the key bytes that hold split bits
  int byte_count_ = 0;
  std::array<std::array<std::uint8_t, 256>, kMaxSplitBits> patterns_{};  // per such byte, by its value
};

//! The split of `stored` against `queries` on at most `max_bits` bits that makes the fewest tile
//! passes (maybe none).
SlotSplit choose_split(join::KeyParts stored, join::KeyParts queries, int key_bits, int max_bits = kMaxSplitBits);

//! A tile's table costs about as much as this many queries answered against it: building the bit
//! planes reads each stored key once per key bit, and each entry waits on the one it extends. A
//! split must spare more passes than the tables it adds (on an H100, 512 split the sides of
//! N = 20 and 21 where it did not pay).
inline constexpr double kBuildPasses = 1024;

}  // namespace nqueens::gpu
