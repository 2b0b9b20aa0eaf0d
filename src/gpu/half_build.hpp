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

}  // namespace nqueens::gpu
