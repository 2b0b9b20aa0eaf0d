#pragma once
// The gpu engine's matching, block by block: plain C++ that nvcc compiles for the device (the
// kernels of match_kernel.cu) and the host compiler for this machine (host_tiles.cpp), so that
// the ordinary test suite checks on every machine the very code a device runs.
//
// The method is the join's bit-sliced "four Russians" matcher (join/disjoint_count.hpp), shaped
// for a thread block: a tile of up to kTileLanes stored keys becomes, in shared memory, one
// 32-bit word per warp lane for every value of every chunk of the key bits: word l of entry
// (c, v) has bit i set when stored key 32 l + i has none of the bits of v in chunk c. A query is
// then answered for the whole tile by lane l ANDing one entry word per chunk and a popcount: no
// branches, and the 32 lanes of a warp read 32 consecutive words, which no two banks share.
//
// Each function below is one step of a block's work, written for thread `thread` of `threads`;
// a block runs them in order with a barrier between steps, and the host runs each step for
// every thread in turn.
#include <cstdint>

#if defined(__CUDACC__)
#define NQUEENS_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define NQUEENS_HOST_DEVICE inline
#endif

namespace nqueens::gpu {

//! Stored keys per tile: one bit of a 32-bit word per lane of a warp.
inline constexpr std::uint32_t kTileWords = 32;
inline constexpr std::uint32_t kTileLanes = 32 * kTileWords;
//! The most queries one tile answers: a job with more queries is cut into tiles that share
//! their stored keys, so that a batch of few large jobs still spreads over every multiprocessor.
inline constexpr std::uint32_t kQueriesPerTile = 16384;
//! A tile's table costs about as much as this many queries answered against it: building the bit
//! planes reads each stored key once per key bit, and each entry waits on the one it extends. A
//! split must spare more passes than the tables it adds (on an H100, 512 split the sides of
//! N = 20 and 21 where it did not pay).
inline constexpr std::uint32_t kBuildPasses = 1024;
//! Widest key: 2 (2k - 1) crossing diagonals for n = 2k up to 32 (join_plan.hpp).
inline constexpr int kMaxKeyBits = 62;

//! How a key's bits are cut into chunks: `chunks` chunks of `width` bits from bit 0.
struct Chunking {
  int width = 6;
  int chunks = 1;

  //! 32-bit words a tile's entries take in shared memory, the part-1 lane words first.
  NQUEENS_HOST_DEVICE std::uint32_t shared_words() const {
    return kTileWords + static_cast<std::uint32_t>(chunks << width) * kTileWords;
  }
};

//! Fewest chunks for `key_bits`, 6 or 7 bits each, whose table fits `shared_bytes`: a query
//! reads one shared word per chunk, and 7-bit chunks double the table (16 KiB a chunk) to save a
//! read only where they cut a chunk.
NQUEENS_HOST_DEVICE Chunking chunking_for(int key_bits, std::uint32_t shared_bytes = 0xffffffffu) {
  if (key_bits < 1) key_bits = 1;
  const Chunking six{6, (key_bits + 5) / 6}, seven{7, (key_bits + 6) / 7};
  return seven.chunks < six.chunks && seven.shared_words() * 4 <= shared_bytes ? seven : six;
}

//! The most bits a slot split (slot_split.hpp) cuts a row set's sides on: 256 slots.
inline constexpr int kMaxSplitBits = 8;
inline constexpr std::uint32_t kMaxGroups = 1u << kMaxSplitBits;

//! One slot of a row set's stored side against the query side: its pairs are weighted
//! weights[stored part][query part], part 0 the first `*_tied` keys of a side, part 1 the rest.
//! The query side is cut into `groups` groups on the split's bits, part 0's groups first, then
//! part 1's: range r of the queries is [starts[r], starts[r + 1]) of the batch's group starts
//! from `starts_first`, for group r % groups of part r / groups. The stored keys all have the
//! pattern `stored_pattern` on those bits, so only the groups that share none of its bits can
//! hold a query disjoint from them. Unsplit, groups is 1 and the pattern 0.
struct TileJob {
  std::uint64_t stored_first = 0;  //!< into the batch's keys
  std::uint64_t query_first = 0;
  std::uint32_t stored_count = 0, stored_tied = 0;
  std::uint32_t weights[2][2] = {{1, 0}, {0, 0}};
  std::uint32_t stored_pattern = 0;
  std::uint32_t groups = 1;
  std::uint32_t starts_first = 0;
};

//! A block's piece of work: a job's stored keys from `stored_offset` (a multiple of
//! kTileLanes), against the queries of compatible groups among [query_offset,
//! query_offset + query_count).
struct MatchTile {
  std::uint32_t job = 0;
  std::uint32_t stored_offset = 0;
  std::uint32_t query_offset = 0;
  std::uint32_t query_count = 0;
};

//! Step 1: the one-bit entries (the bit planes) and each word's part-1 lanes. Work item
//! (word l, key bit j): bit i of the plane is set when stored key 32 l + i exists and has bit j
//! clear. Neighbouring items are bits of one word, so that a warp's threads read the same keys.
NQUEENS_HOST_DEVICE void build_planes(const TileJob& job, const MatchTile& tile, const std::uint64_t* keys,
                                      Chunking chunking, std::uint32_t* shared, std::uint32_t thread,
                                      std::uint32_t threads) {
  const std::uint32_t bits = static_cast<std::uint32_t>(chunking.chunks * chunking.width);
  const std::uint32_t first = tile.stored_offset;
  for (std::uint32_t item = thread; item < kTileWords * (bits + 1); item += threads) {
    const std::uint32_t word = item / (bits + 1), bit = item % (bits + 1);
    const std::uint32_t lane0 = first + word * 32;
    std::uint32_t plane = 0;
    if (bit == bits) {  // the part-1 lanes: stored keys from stored_tied on
      for (std::uint32_t i = 0; i < 32; ++i)
        if (lane0 + i >= job.stored_tied && lane0 + i < job.stored_count) plane |= 1u << i;
      shared[word] = plane;
      continue;
    }
    // Chunks may reach past bit 63 (eleven of 6 bits for 62-bit keys): no key has such bits.
    for (std::uint32_t i = 0; i < 32 && lane0 + i < job.stored_count; ++i)
      if (bit >= 64 || ((keys[job.stored_first + lane0 + i] >> bit) & 1u) == 0) plane |= 1u << i;
    const std::uint32_t chunk = bit / static_cast<std::uint32_t>(chunking.width);
    const std::uint32_t value = 1u << (bit % static_cast<std::uint32_t>(chunking.width));
    shared[kTileWords + ((chunk << chunking.width) + value) * kTileWords + word] = plane;
  }
}

//! Step 2: every other entry. Work item (chunk c, word l): entry 0 is the lanes that hold a key,
//! and entry v the AND of entry v without its lowest bit and that bit's plane.
NQUEENS_HOST_DEVICE void build_entries(const TileJob& job, const MatchTile& tile, Chunking chunking,
                                       std::uint32_t* shared, std::uint32_t thread, std::uint32_t threads) {
  const std::uint32_t values = 1u << chunking.width;
  for (std::uint32_t item = thread; item < kTileWords * static_cast<std::uint32_t>(chunking.chunks); item += threads) {
    const std::uint32_t word = item % kTileWords, chunk = item / kTileWords;
    const std::uint32_t first_entry = kTileWords + chunk * values * kTileWords + word;
    std::uint32_t* entries = shared + first_entry;
    const std::uint32_t lane0 = tile.stored_offset + word * 32;
    const std::uint32_t held = lane0 >= job.stored_count ? 0 : job.stored_count - lane0;
    entries[0] = held >= 32 ? ~0u : (1u << held) - 1u;
    for (std::uint32_t value = 3; value < values; ++value) {
      const std::uint32_t rest = value & (value - 1);
      if (rest == 0) continue;  // a plane, from step 1
      const std::uint32_t entry = value * kTileWords, smaller = rest * kTileWords, plane = (value ^ rest) * kTileWords;
      entries[entry] = entries[smaller] & entries[plane];
    }
  }
}

//! What lane l of a warp has found for the queries of one part: the disjoint pairs with its 32
//! stored keys, and those of them with stored keys of part 1. Within a tile neither passes
//! 32 * kQueriesPerTile.
struct LaneSums {
  std::uint32_t all = 0, part1 = 0;
};

//! A query's chunk `chunk` as the byte offset of its entry within the chunk's table (its value
//! times an entry's kTileWords words). A warp works it out once per query, in the lane that loaded
//! the query, and hands it round: each lane's read is then its own word's address, this offset
//! and a constant per chunk (entry_word), with nothing of the key left to unpack per lane.
NQUEENS_HOST_DEVICE std::uint32_t chunk_offset(std::uint64_t query, int chunk, Chunking chunking) {
  const std::uint64_t mask = (std::uint64_t{1} << chunking.width) - 1;
  return static_cast<std::uint32_t>((query >> (chunk * chunking.width)) & mask) * (kTileWords * 4);
}

//! Lane l's word of the entry of chunk `chunk` that `offset` (chunk_offset) names;
//! `lane_entries` is the address of the lane's word of entry (0, 0): shared + kTileWords + l.
NQUEENS_HOST_DEVICE std::uint32_t entry_word(const std::uint32_t* lane_entries, std::uint32_t offset, int chunk,
                                             Chunking chunking) {
  const std::uint32_t chunk_bytes = (static_cast<std::uint32_t>(chunk) << chunking.width) * kTileWords * 4;
  return *reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const unsigned char*>(lane_entries) + chunk_bytes +
                                                 offset);
}

//! Adds a query's pairs with lane l's 32 stored keys to `sums`: `fit` has bit i set when stored
//! key 32 l + i is disjoint from it, `part1_word` the lane's stored keys of part 1.
NQUEENS_HOST_DEVICE void add_fit(std::uint32_t fit, std::uint32_t part1_word, LaneSums& sums) {
#if defined(__CUDA_ARCH__)
  sums.all += static_cast<std::uint32_t>(__popc(fit));
  sums.part1 += static_cast<std::uint32_t>(__popc(fit & part1_word));
#else
  sums.all += static_cast<std::uint32_t>(__builtin_popcount(fit));
  sums.part1 += static_cast<std::uint32_t>(__builtin_popcount(fit & part1_word));
#endif
}

//! Step 3, for one query and lane l: its pairs with the tile's stored keys 32 l .. 32 l + 31,
//! added to `sums`. `part1_word` is shared[l], the lane's stored keys of part 1.
NQUEENS_HOST_DEVICE void match_query(const std::uint32_t* shared, std::uint32_t part1_word, std::uint64_t query,
                                     Chunking chunking, std::uint32_t lane, LaneSums& sums) {
  const std::uint32_t* lane_entries = shared + kTileWords + lane;
  std::uint32_t fit = ~0u;
  for (int chunk = 0; chunk < chunking.chunks; ++chunk)
    fit &= entry_word(lane_entries, chunk_offset(query, chunk, chunking), chunk, chunking);
  add_fit(fit, part1_word, sums);
}

//! Calls visit(begin, end, part) for each range of a tile's queries that its stored keys can be
//! disjoint from (a group compatible with their pattern), clipped to the tile, in query order.
template <typename Visit>
NQUEENS_HOST_DEVICE void for_each_query_range(const TileJob& job, const MatchTile& tile, const std::uint32_t* starts,
                                              Visit&& visit) {
  const std::uint32_t tile_end = tile.query_offset + tile.query_count;
  const std::uint32_t free_bits = ~job.stored_pattern & (job.groups - 1);
  for (std::uint32_t part = 0; part < 2; ++part) {
    std::uint32_t group = 0;
    do {  // the subsets of free_bits, in increasing order
      const std::uint32_t range = part * job.groups + group;
      const std::uint32_t begin = starts[range] > tile.query_offset ? starts[range] : tile.query_offset;
      const std::uint32_t end = starts[range + 1] < tile_end ? starts[range + 1] : tile_end;
      if (begin < end) visit(begin, end, static_cast<int>(part));
      group = (group - free_bits) & free_bits;
    } while (group != 0);
  }
}

//! A lane's weighted pairs from its sums over the queries of part 0 and of part 1: a pair of a
//! stored key of part i and a query of part j counts weights[i][j].
NQUEENS_HOST_DEVICE std::uint64_t weighted_pairs(const TileJob& job, LaneSums queries0, LaneSums queries1) {
  return std::uint64_t{job.weights[0][0]} * (queries0.all - queries0.part1) +
         std::uint64_t{job.weights[1][0]} * queries0.part1 +
         std::uint64_t{job.weights[0][1]} * (queries1.all - queries1.part1) +
         std::uint64_t{job.weights[1][1]} * queries1.part1;
}

}  // namespace nqueens::gpu
