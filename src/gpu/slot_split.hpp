#pragma once
// The gpu engine's slot split: a row set's stored side cut into slots, and its query side into
// groups, on a few key bits often set in both sides. Two keys that share one of those bits are
// never disjoint, so a slot only meets the groups that share none of its bits: with bits set in
// half the keys of each side, every bit spares a quarter of the pair tests. The CPU join does the
// same (join/disjoint_count.cpp); here the choice weighs what a split costs a device, a 1024-key
// tile's table built per slot, against the query passes it spares.
#include <array>
#include <cstddef>
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

//! Which row sets are split.
struct SplitRule {
  int max_bits = kMaxSplitBits;  //!< 0: none
  //! Stored sides smaller than this are never split. Measured on an H100 against no split, same
  //! build, same run (docs/data/long-runs.md, "The gpu engine"): the split lost at N = 20 (0.94x)
  //! and on a shard of N = 21 (0.68x), where stored sides hold a few dozen tiles, and won 3.5x on
  //! a shard of N = 22, where they hold about two hundred.
  std::size_t least_stored = std::size_t{64} * kTileLanes;
  //! A split must leave at most this share of the tile passes: sorting the keys into slots costs
  //! the host a few nanoseconds a key, as much as enumerating them, so a split that only trims
  //! the device's work would make the host the bottleneck.
  double most_passes_kept = 0.5;
  //! The stored side is the one whose passes, its tables and split counted, cost less
  //! (TileBatch::add); false weighs the passes alone, for measuring against the same build.
  bool store_by_price = true;
};

//! A split and the tile passes it leaves, each tile's table counted as kBuildPasses passes.
struct PricedSplit {
  SlotSplit split;
  double passes = 0;
};

//! How often each key bit is set in a sample of a side's keys.
using BitCounts = std::array<std::uint64_t, 64>;
//! Keys per pattern of a split (pattern i: its key bits on the split's bits).
using PatternCounts = std::array<double, kMaxGroups>;

//! How often each of the low `key_bits` bits is set in `keys`.
BitCounts count_bits(std::span<const std::uint64_t> keys, int key_bits);

//! The bits of the widest split of two sides, from their samples' bit counts: those that rule
//! out the most pairs (a bit set in a share p of one side and q of the other rules out p q of
//! them), whichever side is stored.
SlotSplit most_shared_bits(const BitCounts& one, const BitCounts& other, int key_bits, int max_bits);

//! A side counted on a split, as a device counts the halves it builds: its keys per pattern and
//! in all.
struct CountedSide {
  PatternCounts patterns{};
  std::size_t keys = 0;
};

//! The prefix of `widest` (both sides counted on it) that price_split() would choose for
//! `stored` against `queries`, with its price, from their counts rather than their keys.
PricedSplit price_counted_split(const CountedSide& stored, const CountedSide& queries, const SlotSplit& widest,
                                const SplitRule& rule = {});

//! The split choose_split() makes of `stored` against `queries`, with its price; a side it never
//! splits is priced unsplit_passes().
PricedSplit price_split(join::KeyParts stored, join::KeyParts queries, int key_bits, const SplitRule& rule = {});

//! `stored` keys against `queries` unsplit: each tile answers every query, and builds its table
//! once per cut of kQueriesPerTile queries.
double unsplit_passes(std::size_t stored, std::size_t queries);

//! The split of `stored` against `queries` under `rule` that makes the fewest tile passes, if it
//! spares enough of them; otherwise none.
SlotSplit choose_split(join::KeyParts stored, join::KeyParts queries, int key_bits, const SplitRule& rule = {});

}  // namespace nqueens::gpu
