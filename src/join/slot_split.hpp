#pragma once
// A slot split: the stored keys are split into 2^c slots on c bits that are often set in both
// sides, the queries into 2^c groups on the same bits, and each slot is loaded once and answers
// only the groups that share none of its bits. A pair that shares one of those bits is never
// disjoint, so the pairs skipped are exactly pairs that would not count; with bits set in half
// the keys of each side, every bit spares a quarter of the pair tests.
//
// The matcher's split (join/disjoint_count.cpp decides when; join/match_cost.hpp prices it).
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "join/disjoint_count.hpp"

namespace nqueens::join::detail {

//! Both sides need this many keys before a split is weighed: below it, no width spares time
//! (join_bench --widths on N = 21's sides of 512 to 1023 keys). From 1024 rather than 8192 keys,
//! N = 20 and 21 count 6 and 5 % quicker (count --shard 1/8 and 1/64, one thread, 4 alternating
//! pairs each).
inline constexpr std::size_t kMinKeysToSplit = 1024;

//! The widest split weighed for sides whose smaller one holds `keys` keys: 4 bits at 1024 keys,
//! one more for each doubling, up to kMaxSlotBits from 4M keys. The cheapest width measured is
//! a bit or more below (join_bench --widths: 3 bits up to 4K keys, 6 to 7 at 32K, 9 to 10 at
//! 128K), and weighing fewer slots costs small sides less.
inline int widest_split_bits(std::size_t keys) {
  return std::clamp(static_cast<int>(std::bit_width(keys)) - 7, 1, kMaxSlotBits);
}

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

//! What counting in slots does, as estimated from samples of both sides: what the cost model
//! prices. (Sorting the keys into slots, and each slot's calls per compatible group, cost less
//! than they change: fitted to join_bench --widths at N = 20 and 21, they chose worse widths.)
struct SplitWork {
  double blocks = 0;         //!< blocks of stored keys built, over every slot
  double block_queries = 0;  //!< a query answered by a block, over every slot
  double queries = 0;        //!< queries prepared (once each, whatever the split)
  double visits = 0;         //!< a slot's call on a compatible group of queries, over every slot
};

//! The cost model's time of that work (join/match_cost.hpp).
double split_ns(const SplitWork& work);

//! The work of a split on each first 0 .. widest.count of `widest`'s bits (0: no split), for a
//! matcher of those block widths.
std::vector<SplitWork> split_works(const KeyParts& stored, const KeyParts& queries, const SlotBits& widest,
                                   BlockLanes lanes);

//! The split (maybe none) the cost model finds cheapest for a matcher of those block widths.
SlotBits cheapest_split(const KeyParts& stored, const KeyParts& queries, int key_bits, BlockLanes lanes);

//! The stored side counted with both parts in every slot, or each part on its own with a split
//! of its own. Under a wide split the fold's ties (a few percent of the keys) are a fraction of a
//! key a slot, yet each slot that holds one loads a block for them and every query it meets
//! answers that block too: counted apart, the ties take a narrower split.
struct SplitChoice {
  SlotBits together;
  double together_ns = 0;
  std::array<SlotBits, 2> apart{};  //!< each stored part's split, when both parts hold keys
  double apart_ns = std::numeric_limits<double>::infinity();
};

//! The cheapest split together and apart, priced by the cost model.
SplitChoice choose_split(const KeyParts& stored, const KeyParts& queries, int key_bits, BlockLanes lanes);

//! The weighted pairs of `stored` and `queries` (weights[stored part][query part]) counted slot
//! by slot on `split`'s bits.
std::uint64_t count_in_slots(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries,
                             const PartWeights& weights, int key_bits, const SlotBits& split);

}  // namespace nqueens::join::detail
