#pragma once
// A row set's halves built from its quarter-table slices: plain C++ that nvcc compiles for the
// device and the host compiler for this machine, so that the ordinary test suite checks, against
// the join's own enumeration (join/half_boards.hpp), the very code a device runs.
//
// What a side's halves need is small: the entries of two slices (8 bytes a placement, shared by
// every row set that reads the slice), how each quadrant's entries map to key bits, and the pairs
// of column sets that make a half. A side's keys are its pairs' north keys times their south
// keys, hundreds to thousands of times more than those entries at N >= 21: building them where
// they are matched saves the copy of every key.
//
// The order is the join's: column-set pair after pair, north entry after north entry, south
// entry after south entry, keeping each disjoint (north key | south key); a side folded by the
// diagonal reflection has its pairs that rank equal to the unit first (the "tied" part).
#include <cstdint>

#include "gpu/tile_match.hpp"
#include "join/quarter_table.hpp"

namespace nqueens::gpu {

//! How one quadrant's entries become key bits of a half, and which of them attack a fixed queen.
//! A square (r, c) of the quadrant lies on board sum r + c + row0 + col0 and board difference
//! r - c + row0 - col0 + n - 1; a half's key keeps the 2k - 1 crossing diagonals of each family,
//! sums low and differences above them.
struct QuadrantMap {
  std::int32_t sum_shift = 0, difference_shift = 0;
  std::uint32_t forbidden_sums = 0, forbidden_differences = 0;  //!< in the quadrant's own numbering
  std::int32_t crossing_low = 0, crossing_bits = 0;

  NQUEENS_HOST_DEVICE bool attacks_fixed_queen(const join::QuarterEntry& entry) const {
    return ((entry.sums & forbidden_sums) | (entry.differences & forbidden_differences)) != 0;
  }
  NQUEENS_HOST_DEVICE std::uint64_t key(const join::QuarterEntry& entry) const {
    const std::uint64_t mask = (std::uint64_t{1} << crossing_bits) - 1;
    const std::uint64_t sums = ((std::uint64_t{entry.sums} << sum_shift) >> crossing_low) & mask;
    const std::uint64_t differences = ((std::uint64_t{entry.differences} << difference_shift) >> crossing_low) & mask;
    return sums | (differences << crossing_bits);
  }
};

//! A north column set of a side and the south one that completes it: their groups of entries, as
//! ranges of the side's north and south slices.
struct SetPairing {
  std::uint32_t north_first = 0, north_count = 0;
  std::uint32_t south_first = 0, south_count = 0;
};

//! One side of one row set, as a device is sent it: its slices are entry arrays of the batch
//! (from north_entries and south_entries), its pairings a run of the batch's.
struct SideRecipe {
  QuadrantMap north, south;
  std::uint64_t north_entries = 0, south_entries = 0;  //!< where the slices start among the batch's entries
  std::uint32_t pairing_first = 0, pairing_count = 0;  //!< into the batch's pairings
  std::uint32_t tied_pairings = 0;                     //!< the first ones rank equal to the unit's fold
};

//! The keys of `count` entries that attack no fixed queen, written from `out` on; returns how many.
NQUEENS_HOST_DEVICE std::uint32_t keep_quadrant_keys(const QuadrantMap& map, const join::QuarterEntry* entries,
                                                     std::uint32_t count, std::uint64_t* out) {
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < count; ++i)
    if (!map.attacks_fixed_queen(entries[i])) out[kept++] = map.key(entries[i]);
  return kept;
}

//! The halves one north key makes with `south` keys: each disjoint north | south, written from
//! `out` on (out may be null: then only counted); returns how many.
NQUEENS_HOST_DEVICE std::uint32_t halves_of_north_key(std::uint64_t north, const std::uint64_t* south,
                                                      std::uint32_t south_count, std::uint64_t* out) {
  std::uint32_t written = 0;
  for (std::uint32_t i = 0; i < south_count; ++i)
    if ((north & south[i]) == 0) {
      if (out) out[written] = north | south[i];
      ++written;
    }
  return written;
}

//! Keys of every half of a side, in the join's order, written from `out` on (out may be null:
//! then only counted); returns how many, and through `ties` how many of them come from its tied
//! pairings. `north_keys` and `south_keys` are scratch room for the largest group of each slice.
NQUEENS_HOST_DEVICE std::uint64_t build_side(const SideRecipe& side, const SetPairing* pairings,
                                             const join::QuarterEntry* entries, std::uint64_t* north_keys,
                                             std::uint64_t* south_keys, std::uint64_t* out, std::uint64_t* ties) {
  std::uint64_t written = 0;
  *ties = 0;
  for (std::uint32_t p = 0; p < side.pairing_count; ++p) {
    const SetPairing& pairing = pairings[side.pairing_first + p];
    const std::uint32_t norths = keep_quadrant_keys(side.north, entries + side.north_entries + pairing.north_first,
                                                    pairing.north_count, north_keys);
    const std::uint32_t souths = keep_quadrant_keys(side.south, entries + side.south_entries + pairing.south_first,
                                                    pairing.south_count, south_keys);
    for (std::uint32_t i = 0; i < norths; ++i)
      written += halves_of_north_key(north_keys[i], south_keys, souths, out ? out + written : nullptr);
    if (p + 1 == side.tied_pairings) *ties = written;
  }
  return written;
}

//! A key's bits on a slot split (slot_split.hpp): bit i of the pattern is key bit bits[i].
NQUEENS_HOST_DEVICE std::uint32_t split_pattern(std::uint64_t key, const std::uint8_t* bits, int count) {
  std::uint32_t pattern = 0;
  for (int i = 0; i < count; ++i) pattern |= static_cast<std::uint32_t>((key >> bits[i]) & 1u) << i;
  return pattern;
}

//! The bucket a side's key is sorted into: by part, then pattern (`part_major`, the query side's
//! groups) or by pattern, then part (the stored side's slots, each slot's two parts together).
NQUEENS_HOST_DEVICE std::uint32_t bucket_of(std::uint32_t pattern, std::uint32_t part, std::uint32_t groups,
                                            bool part_major) {
  return part_major ? part * groups + pattern : pattern * 2 + part;
}

//! How a side's halves are sorted into buckets on the device (what TileBatch does on the host
//! with keys it was sent): by the pattern of their key on a slot split's `bits`, and their part
//! (0: from the side's tied pairings), bucket_of(pattern, part, 1 << count, part_major).
struct BucketRule {
  std::uint8_t bits[kMaxSplitBits] = {};
  std::int32_t count = 0;
  bool part_major = true;
};

//! Takes the next place of `bucket`: a device's threads share the counters, the host runs alone.
NQUEENS_HOST_DEVICE std::uint32_t take_place(std::uint32_t* next, std::uint32_t bucket) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(next + bucket, 1u);
#else
  return next[bucket]++;
#endif
}

//! The halves north entry `north` of `pairing` makes (a pairing of `side`, of part `part`),
//! sorted into buckets by `rule`: each takes the next place of its bucket in `next`, and is
//! written there in `out` (out may be null: then only counted, next[bucket] growing by its
//! halves). The south entries' keys are worked out again for each north entry, so that a device
//! thread needs no scratch; the order, south entry after south entry, is the join's. Returns how
//! many halves it made.
NQUEENS_HOST_DEVICE std::uint32_t sort_north_entry(const SideRecipe& side, const SetPairing& pairing,
                                                   std::uint32_t part, std::uint32_t north,
                                                   const join::QuarterEntry* entries, const BucketRule& rule,
                                                   std::uint32_t* next, std::uint64_t* out) {
  const join::QuarterEntry& north_entry = entries[side.north_entries + pairing.north_first + north];
  if (side.north.attacks_fixed_queen(north_entry)) return 0;
  const std::uint64_t north_key = side.north.key(north_entry);
  const join::QuarterEntry* south = entries + side.south_entries + pairing.south_first;
  const std::uint32_t groups = 1u << rule.count;
  std::uint32_t made = 0;
  for (std::uint32_t i = 0; i < pairing.south_count; ++i) {
    if (side.south.attacks_fixed_queen(south[i])) continue;
    const std::uint64_t south_key = side.south.key(south[i]);
    if ((north_key & south_key) != 0) continue;
    const std::uint64_t key = north_key | south_key;
    const std::uint32_t bucket = bucket_of(split_pattern(key, rule.bits, rule.count), part, groups, rule.part_major);
    const std::uint32_t place = take_place(next, bucket);
    if (out) out[place] = key;
    ++made;
  }
  return made;
}

//! Every half of `side` sorted into buckets, as sort_north_entry() sorts one north entry's:
//! with `out` null, next[b] ends up holding how many fall in bucket b (next zeroed first); with
//! `out`, next[b] holding where bucket b begins, each half is written in its bucket, in the
//! join's order within it. Returns how many halves the side has.
NQUEENS_HOST_DEVICE std::uint64_t sort_side(const SideRecipe& side, const SetPairing* pairings,
                                            const join::QuarterEntry* entries, const BucketRule& rule,
                                            std::uint32_t* next, std::uint64_t* out) {
  std::uint64_t made = 0;
  for (std::uint32_t p = 0; p < side.pairing_count; ++p) {
    const SetPairing& pairing = pairings[side.pairing_first + p];
    const std::uint32_t part = p < side.tied_pairings ? 0 : 1;
    for (std::uint32_t north = 0; north < pairing.north_count; ++north)
      made += sort_north_entry(side, pairing, part, north, entries, rule, next, out);
  }
  return made;
}

//! One side of a batch's row sets, as the sorting kernel (nq_sort_sides) takes it: its recipe,
//! its buckets' counters from `next_first` among the batch's, and its keys from `keys_first`.
struct SideSort {
  SideRecipe recipe;
  BucketRule rule;
  std::uint32_t next_first = 0;
  std::uint64_t keys_first = 0;
};

//! South keys a block holds in shared memory at once (24 KiB with their patterns): a pairing's
//! south group is taken that many entries at a time.
inline constexpr std::uint32_t kSouthKeysAtOnce = 2048;
//! Marks a south entry that attacks a fixed queen, and every north key: no key has bit 63
//! (kMaxKeyBits), so a marked south key is never disjoint from a north key, and a candidate
//! costs one test.
inline constexpr std::uint64_t kKeyMark = std::uint64_t{1} << 63;

//! A chunk of a pairing's south keys in a block's shared memory, with their patterns on the
//! side's split: a half's pattern is its north key's OR its south key's, as a pattern only
//! gathers key bits, so a half costs an OR rather than a pass over the split's bits.
struct SouthChunk {
  std::uint64_t* keys;
  std::uint32_t* patterns;
};

//! Block step 1: south entries [first, first + count) of `pairing` into `chunk`: their keys,
//! those attacking a fixed queen marked, and their patterns.
NQUEENS_HOST_DEVICE void load_south_keys(const SideSort& side, const SetPairing& pairing,
                                         const join::QuarterEntry* entries, std::uint32_t first, std::uint32_t count,
                                         SouthChunk chunk, std::uint32_t thread, std::uint32_t threads) {
  const join::QuarterEntry* south = entries + side.recipe.south_entries + pairing.south_first + first;
  for (std::uint32_t i = thread; i < count; i += threads) {
    const std::uint64_t key = side.recipe.south.key(south[i]);
    chunk.keys[i] = side.recipe.south.attacks_fixed_queen(south[i]) ? kKeyMark : key;
    chunk.patterns[i] = split_pattern(key, side.rule.bits, side.rule.count);
  }
}

//! Block step 2: thread `thread` of `threads` takes every threads-th north entry of `pairing`
//! against the `count` south keys of `chunk`, and sorts the halves they make into buckets
//! (sort_north_entry's rule: counted with `keys` null, else written at their places).
NQUEENS_HOST_DEVICE void sort_against_south_keys(const SideSort& side, const SetPairing& pairing, std::uint32_t part,
                                                 const join::QuarterEntry* entries, SouthChunk chunk,
                                                 std::uint32_t count, std::uint32_t* next, std::uint64_t* keys,
                                                 std::uint32_t thread, std::uint32_t threads) {
  const join::QuarterEntry* north = entries + side.recipe.north_entries + pairing.north_first;
  const std::uint32_t groups = 1u << side.rule.count;
  std::uint32_t* side_next = next + side.next_first;
  for (std::uint32_t n = thread; n < pairing.north_count; n += threads) {
    if (side.recipe.north.attacks_fixed_queen(north[n])) continue;
    const std::uint64_t north_key = side.recipe.north.key(north[n]);
    const std::uint64_t marked = north_key | kKeyMark;
    const std::uint32_t north_pattern = split_pattern(north_key, side.rule.bits, side.rule.count);
    for (std::uint32_t i = 0; i < count; ++i) {
      if ((marked & chunk.keys[i]) != 0) continue;
      const std::uint32_t bucket = bucket_of(north_pattern | chunk.patterns[i], part, groups, side.rule.part_major);
      const std::uint32_t place = take_place(side_next, bucket);
      if (keys) keys[side.keys_first + place] = north_key | chunk.keys[i];
    }
  }
}

//! A side's halves sorted into buckets as a block of `threads` sorts them (the kernel
//! nq_sort_sides), each step run for every thread in turn: on this CPU, for the tests, which
//! may take fewer south keys at once (`at_once`, at most kSouthKeysAtOnce).
inline void sort_side_on_host(const SideSort& side, const SetPairing* pairings, const join::QuarterEntry* entries,
                              std::uint32_t* next, std::uint64_t* keys, std::uint32_t threads,
                              std::uint32_t at_once = kSouthKeysAtOnce) {
  static thread_local std::uint64_t south_keys[kSouthKeysAtOnce];
  static thread_local std::uint32_t south_patterns[kSouthKeysAtOnce];
  const SouthChunk chunk{south_keys, south_patterns};
  for (std::uint32_t p = 0; p < side.recipe.pairing_count; ++p) {
    const SetPairing pairing = pairings[side.recipe.pairing_first + p];
    const std::uint32_t part = p < side.recipe.tied_pairings ? 0 : 1;
    for (std::uint32_t first = 0; first < pairing.south_count; first += at_once) {
      const std::uint32_t count = pairing.south_count - first < at_once ? pairing.south_count - first : at_once;
      for (std::uint32_t thread = 0; thread < threads; ++thread)
        load_south_keys(side, pairing, entries, first, count, chunk, thread, threads);
      for (std::uint32_t thread = 0; thread < threads; ++thread)
        sort_against_south_keys(side, pairing, part, entries, chunk, count, next, keys, thread, threads);
    }
  }
}

//! nq_sort_sides on this CPU: every side of `sides` as sort_side_on_host() sorts it, for the
//! tests' matcher and the stand-in driver's launches.
inline void sort_sides_on_host(const SideSort* sides, std::uint32_t side_count, const SetPairing* pairings,
                               const join::QuarterEntry* entries, std::uint32_t* next, std::uint64_t* keys,
                               std::uint32_t threads) {
  for (std::uint32_t s = 0; s < side_count; ++s) sort_side_on_host(sides[s], pairings, entries, next, keys, threads);
}

}  // namespace nqueens::gpu
