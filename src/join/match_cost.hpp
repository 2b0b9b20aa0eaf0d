#pragma once
// What the bit-sliced matcher costs, for choosing how to count a pair of sides (one by one,
// which side to load, a slot split): rough times measured on a Zen 4 core.
#include <algorithm>
#include <array>
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
//! A pair tested one by one on the AVX-512 path, eight at a time (the unit cost model, which
//! orders the units, keeps the scalar figure).
inline constexpr double kPairOneByOneAvx512Ns = 0.05;
//! A pair tested one by one sixteen at a time (DisjointCounter::tests_sixteen_at_once()).
inline constexpr double kPairSixteenAtOnceNs = 0.03;
//! What those two AVX-512 pair prices are multiplied by on an Intel CPU, where the blocks are the
//! cheaper way relatively: on a Xeon with AVX-512 a pair tested one by one took about two thirds
//! of the figures above, a block built and queried about a third of the blocks' (the 32- and
//! 34-bit keys of odd n, 128 to 1024 keys loaded against 256 to 4096 queries). Priced the Zen 4
//! way there, N = 19 tested too many pairs one by one: with twice the price, its quarters took
//! 0.97 and 0.99 of the CPU time (same run), N = 16 to 18 the same within the noise.
inline constexpr double kIntelPairScale = 2.0;
// A slot's call on one compatible group of queries (a slot split: slot_split.hpp), whatever it
// holds: 3^c of them for a split of c bits, which matters from about 12 bits. Fitted with the
// others to join_bench --widths on N = 24's sides (a visit took 6.4 block-queries' time there).
inline constexpr double kSlotVisitNs = 20;
// Building one table entry of a block, and one query's lookup in one chunk (its offset prepared,
// the entry read and ANDed): what chooses a load's chunk width (DisjointCounter::chunk_bits_for).
inline constexpr double kTableEntryNs = 1.5;
inline constexpr double kChunkLookupNs = 0.5;

inline std::size_t blocks_of(std::size_t keys, std::size_t lanes) { return (keys + lanes - 1) / lanes; }
inline std::size_t size_of(const KeyParts& parts) { return parts[0].size() + parts[1].size(); }

//! A narrow block (AVX-512's 256 keys) is built and answers a query in about this share of a
//! wide one's time: 1.4 ns a query against 2.4 for loads of 100 to 256 keys (Zen 4), where both
//! take one block.
inline constexpr double kNarrowBlockShare = 0.6;

//! Keys in each part of a load.
using PartSizes = std::array<std::size_t, 2>;
inline PartSizes sizes_of(const KeyParts& parts) { return {parts[0].size(), parts[1].size()}; }
inline std::size_t blocks_of(const PartSizes& keys, std::size_t lanes) {
  return blocks_of(keys[0], lanes) + blocks_of(keys[1], lanes);
}

//! What loading `keys` costs, in wide blocks (each built once and meeting every query): narrow
//! blocks where they cost less.
inline double load_blocks(const PartSizes& keys, BlockLanes lanes) {
  const auto wide = static_cast<double>(blocks_of(keys, lanes.wide));
  if (lanes.narrow == 0) return wide;
  return std::min(wide, kNarrowBlockShare * static_cast<double>(blocks_of(keys, lanes.narrow)));
}

//! Whether a load of `keys` takes narrow blocks.
inline bool narrow_pays(const PartSizes& keys, BlockLanes lanes) {
  return load_blocks(keys, lanes) < static_cast<double>(blocks_of(keys, lanes.wide));
}

//! The least any load costs (bit_sliced_ns() of its blocks): one block, narrow where there are.
inline double least_load_ns(BlockLanes lanes) {
  return (lanes.narrow == 0 ? 1.0 : std::min(1.0, kNarrowBlockShare)) * kBuildBlockNs;
}

inline double bit_sliced_ns(double blocks, std::size_t queries) {
  return blocks * (kBuildBlockNs + static_cast<double>(queries) * kQueryBlockNs) +
         static_cast<double>(queries) * kQueryNs;
}

}  // namespace nqueens::join::detail
