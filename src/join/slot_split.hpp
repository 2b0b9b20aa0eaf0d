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
#include <memory>
#include <span>
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

  //! Each key's slot, into `slots`: bit i of a slot is the key's bits[i]. Worked out a bit of
  //! every key at a time, a loop the compiler runs several keys an instruction: a loop over one
  //! key's bits at a time took 2.7 % of N = 18 (the sampled slot sizes, perf).
  void slots_of(std::span<const std::uint64_t> keys, std::uint16_t* slots) const {
    std::fill_n(slots, keys.size(), std::uint16_t{0});
    for (int i = 0; i < count; ++i) {
      const int bit = bits[static_cast<std::size_t>(i)];
      for (std::size_t j = 0; j < keys.size(); ++j)
        slots[j] = static_cast<std::uint16_t>(slots[j] | (((keys[j] >> bit) & 1) << i));
    }
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

//! `keys` sorted by slot (a counting sort) with the split's bits cleared, as they are settled by
//! the slot-group pairing: fewer live bits can save the matcher a chunk. starts[s] is where slot
//! s begins, starts[2^count] the end.
struct Slots {
  static_assert(kMaxSlotBits <= 16, "a key's slot is kept in 16 bits");
  static constexpr std::size_t kStreams = 4;
  // Not a vector: every key is written by the sort, and a vector zero-filled them first (with
  // the slots' scratch, four sorts a split count: about 2 % of N = 18 with their allocations).
  std::unique_ptr<std::uint64_t[]> sorted;
  std::size_t size;
  std::vector<std::size_t> starts;  // 2^count + 1: a split of a few bits clears and walks no more

  Slots(std::span<const std::uint64_t> unsorted, const SlotBits& split, std::uint64_t key_mask, bool gather);
  std::span<const std::uint64_t> keys() const { return {sorted.get(), size}; }
  std::span<const std::uint64_t> slot(std::size_t index) const {
    return keys().subspan(starts[index], starts[index + 1] - starts[index]);
  }
};

struct PartSlots {
  Slots first, second;
  PartSlots(const KeyParts& keys, const SlotBits& split, std::uint64_t key_mask, bool gather)
      : first(keys[0], split, key_mask, gather), second(keys[1], split, key_mask, gather) {}
  KeyParts slot(std::size_t index) const { return {first.slot(index), second.slot(index)}; }
};

//! count_in_slots() made ready once (the keys sorted into slots, the queries prepared) and then
//! counted a slot at a time, in any order, a slot's queries whole or in ranges: what lets a
//! count be cut into exact shares whose times add up to its own (join/match_shares.hpp).
class SlotCount {
 public:
  SlotCount(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries, const PartWeights& weights,
            int key_bits, const SlotBits& split);
  std::size_t slots() const { return std::size_t{1} << split_count_; }
  //! Gives `counter` this count's layout again, after a load under another's.
  void fix_layout(DisjointCounter& counter) const;
  //! The cost model's time of slot `slot` (match_cost.hpp): 0 where it counts nothing.
  double slot_ns(std::size_t slot, BlockLanes lanes) const;
  //! The weighted pairs of slot `slot`'s stored keys with range `range` of `ranges` of each group
  //! of queries it meets (ranges of equal size), under this count's layout.
  std::uint64_t count_slot(DisjointCounter& counter, std::size_t slot, std::size_t range = 0,
                           std::size_t ranges = 1) const;

 private:
  bool counts_nothing(std::size_t slot) const;

  PartSlots stored_, queries_;
  PartWeights weights_;
  int split_count_;
  int key_bits_;
  std::size_t stored_count_;
  std::size_t query_count_;
  std::uint64_t live_bits_ = 0;
  std::vector<double> meeting_;  // per slot, the queries of the groups it meets (whole numbers)
  std::array<DisjointCounter::PreparedQueries, 2> prepared_;
};

//! The weighted pairs of `stored` and `queries` (weights[stored part][query part]) counted slot
//! by slot on `split`'s bits.
std::uint64_t count_in_slots(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries,
                             const PartWeights& weights, int key_bits, const SlotBits& split);

}  // namespace nqueens::join::detail
