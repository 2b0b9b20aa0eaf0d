#pragma once
// A side's pairings (half_build.hpp's SetPairing) worked out where they are used, from a few
// words that describe the side and the group index of the quarter table a device holds: the
// host sends a row set's sides as their column masks, row sets and fold, never their pairings,
// which were most of the bytes a batch sent. Plain C++ for both compilers, so that the tests
// hold the device's pairings to the join's (side_recipe.hpp) unit by unit.
//
// The group index holds, for every row set `rows` of the table's k and every k-bit column set
// `c`, where group c of slice `rows` starts within the slice: index[rows * (2^k + 1) + c], as
// QuarterSlice::group_starts() gives it (2^k + 1 starts, the last one the slice's end).
#include <cstdint>

#include "gpu/half_build.hpp"

namespace nqueens::gpu {

//! One side of a row set, as the host sends it for its pairings.
struct PairingSpec {
  std::uint32_t north_rows = 0, south_rows = 0;  //!< its slices' row sets
  std::uint32_t columns = 0;                     //!< the side's local columns
  std::uint32_t pairing_first = 0;               //!< where its pairings go among the batch's
  std::int32_t k = 0;
  std::uint32_t rank = 0;  //!< the unit's fold rank (folded sides only)
  std::int32_t fold = 0;   //!< 0: no fold; 1: folded, columns as they are (east); 2: reversed (west)
};

//! The words of a group index of k: a row set's 2^k + 1 group starts, for each of its 2^k row sets.
NQUEENS_HOST_DEVICE std::uint64_t group_index_words(int k) {
  return (std::uint64_t{1} << k) * ((std::uint64_t{1} << k) + 1);
}

NQUEENS_HOST_DEVICE int bit_count(std::uint32_t x) {
  int count = 0;
  for (; x != 0; x &= x - 1) ++count;
  return count;
}

//! join::SideFold::value on both sides: the rank of a north column set under the diagonal fold.
NQUEENS_HOST_DEVICE std::uint32_t fold_value(std::uint32_t columns, int k, bool reversed) {
  std::uint32_t x = columns;
  if (reversed) {
    x = 0;
    for (int bit = 0; bit < k; ++bit) x |= ((columns >> bit) & 1u) << (k - 1 - bit);
  }
  const std::uint32_t all = (std::uint32_t{1} << k) - 1;
  const std::uint32_t complement = ~x & all;
  return x < complement ? x : complement;
}

//! Writes `spec`'s pairings from `out` on, in the join's order (side_recipe.hpp): its north
//! column sets (subsets of its columns with as many bits as its north rows), ascending; with a
//! fold, those ranking equal to the unit's first, then those above it. Returns how many; through
//! `tied`, how many of them rank equal (all of them without a fold).
NQUEENS_HOST_DEVICE std::uint32_t make_side_pairings(const PairingSpec& spec, const std::uint32_t* index,
                                                     SetPairing* out, std::uint32_t* tied) {
  *tied = 0;
  const int rows = bit_count(spec.north_rows);
  if (rows + bit_count(spec.south_rows) != bit_count(spec.columns)) return 0;
  const std::uint64_t stride = (std::uint64_t{1} << spec.k) + 1;
  const std::uint32_t* north = index + spec.north_rows * stride;
  const std::uint32_t* south = index + spec.south_rows * stride;
  std::uint32_t made = 0;
  for (int pass = 0; pass < (spec.fold ? 2 : 1); ++pass) {
    // Every subset of the columns, ascending: the empty one, then (s - columns) & columns.
    std::uint32_t set = 0;
    do {
      const bool taken = bit_count(set) == rows &&
                         (spec.fold == 0 || (pass == 0 ? fold_value(set, spec.k, spec.fold == 2) == spec.rank
                                                       : fold_value(set, spec.k, spec.fold == 2) > spec.rank));
      if (taken) {
        const std::uint32_t south_set = spec.columns & ~set;
        out[made++] = {north[set], north[set + 1] - north[set], south[south_set],
                       south[south_set + 1] - south[south_set]};
      }
      set = (set - spec.columns) & spec.columns;
    } while (set != 0);
    if (pass == 0) *tied = made;
  }
  return made;
}

//! nq_make_pairings on this CPU: every spec's pairings at its pairing_first, for the tests'
//! matcher and the stand-in driver's launches.
inline void make_pairings_on_host(const PairingSpec* specs, std::uint32_t spec_count, const std::uint32_t* index,
                                  SetPairing* pairings) {
  std::uint32_t tied = 0;
  for (std::uint32_t s = 0; s < spec_count; ++s)
    make_side_pairings(specs[s], index, pairings + specs[s].pairing_first, &tied);
}

}  // namespace nqueens::gpu
