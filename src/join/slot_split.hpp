#pragma once
// A slot split: the stored keys are split into 2^c slots on c bits that are often set in both
// sides, the queries into 2^c groups on the same bits, and each slot is loaded once and answers
// only the groups that share none of its bits. A pair that shares one of those bits is never
// disjoint, so the pairs skipped are exactly pairs that would not count; with bits set in half
// the keys of each side, every bit spares a quarter of the pair tests.
//
// The matcher's split (join/disjoint_count.cpp decides when; join/match_cost.hpp prices it).
#include <array>
#include <cstddef>
#include <cstdint>

#include "join/disjoint_count.hpp"

namespace nqueens::join::detail {

//! Both sides need this many keys before a split is weighed: below it, sampling the keys and
//! sorting them into slots cost about what the split spares (join_bench, N = 18 and 20).
inline constexpr std::size_t kMinKeysToSplit = 8192;
//! Below this many keys on either side a split takes at most kShallowSlotBits: deeper ones, which
//! the cost model takes on N = 20's larger sides (up to 106,000 keys), made N = 20 5 to 8 %
//! slower (count -n 20 --shard 1/4 -t 1, 4 pairs each, from 65,536 keys and from 8192), while
//! N = 22's sides (190,000 keys on average) gain most from 9 or 10 bits.
inline constexpr std::size_t kMinKeysToSplitDeep = std::size_t{1} << 17;
inline constexpr int kShallowSlotBits = 5;

//! The bits of a split, the most often shared first.
struct SlotBits {
  std::array<int, kMaxSlotBits> bits{};  // most often shared first
  int count = 0;

  std::size_t slot_of(std::uint64_t key) const {
    std::size_t slot = 0;
    for (int i = 0; i < count; ++i) slot |= ((key >> bits[static_cast<std::size_t>(i)]) & 1) << i;
    return slot;
  }
  std::uint64_t mask() const {
    std::uint64_t mask = 0;
    for (int i = 0; i < count; ++i) mask |= std::uint64_t{1} << bits[static_cast<std::size_t>(i)];
    return mask;
  }
  SlotBits first(int fewer) const {
    SlotBits prefix = *this;
    prefix.count = fewer;
    return prefix;
  }
};

//! The `count` bits (at most) that rule out the most pairs of `stored` and `queries`.
SlotBits most_shared_bits(const KeyParts& stored, const KeyParts& queries, int key_bits, int count);

//! The split (maybe none) the cost model finds cheapest for a matcher of `lanes` keys a block.
SlotBits cheapest_split(const KeyParts& stored, const KeyParts& queries, int key_bits, std::size_t lanes);

//! The weighted pairs of `stored` and `queries` (weights[stored part][query part]) counted slot
//! by slot on `split`'s bits.
std::uint64_t count_in_slots(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries,
                             const PartWeights& weights, int key_bits, const SlotBits& split);

}  // namespace nqueens::join::detail
