#pragma once
// Counting disjoint key pairs: the join engine's inner loop.
//
// The join engine pairs east half-boards with west half-boards; two halves fit together when
// their diagonal keys share no bit, and a work unit's count is the number of such pairs. Tested
// one pair at a time that is one AND and one compare per pair (about 5e10 pairs at N = 18).
//
// Bit-slicing ("four Russians") answers one query against hundreds of stored keys at once: the
// stored keys are taken in blocks of L lanes and transposed into bit planes (plane j has lane i
// set when stored key i has bit j clear, so the lane cannot clash with a query's bit j). The key
// bits are cut into chunks of c bits, and for every chunk the 2^c ANDs of its planes are
// precomputed. A query is then answered for the whole block by ANDing one precomputed L-bit
// vector per chunk (picked by the query's bits in that chunk) and a popcount: about
// key_bits / c vector loads per L pair tests instead of L compares.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::join {

//! One side of a weighted count: its keys in two parts (either may be empty).
using KeyParts = std::array<std::span<const std::uint64_t>, 2>;
//! weights[i][j]: what a disjoint pair of part i of one side and part j of the other counts for.
using PartWeights = std::array<std::array<std::uint64_t, 2>, 2>;

namespace detail {

//! A chunk of compressed key bits and where its 2^width table entries start in a block.
struct Chunk {
  int first_bit;
  int width;
  std::size_t first_entry;
};

//! A matcher's block widths in keys: wide, and narrow (0: none).
struct BlockLanes {
  std::size_t wide = 0;
  std::size_t narrow = 0;
};

}  // namespace detail

enum class MatchPath { scalar, avx2, avx512 };

//! The fastest path this CPU runs (checked at run time, whatever the build's -march).
MatchPath best_match_path();
//! "scalar", "avx2", "avx512".
const char* to_string(MatchPath path);
//! Whether this CPU can run `path`.
bool supported(MatchPath path);

//! Counts the pairs (s, q), s from a loaded list of keys and q from a list of queries, with
//! (s & q) == 0. Meant to be owned by one worker thread and reused for every unit: its buffers
//! grow to the largest load seen and are never given back. Not safe to use from two threads at
//! once, count() included (it keeps its scratch space in the object).
class DisjointCounter {
 public:
  //! Throws std::invalid_argument when this CPU cannot run `path`.
  explicit DisjointCounter(MatchPath path = best_match_path());
  //! As above, with the chunk width (4..6 bits) chosen by the caller and kept for every load: for
  //! measurements. Without it, a load told how many queries it will meet picks the width
  //! (chunk_bits_for()), and any other takes kDefaultChunkBits.
  DisjointCounter(MatchPath path, int chunk_bits);

  //! 6 bits: fewest lookups per query, fastest on the big units where the time goes (AVX-512,
  //! 20000 x 20000 keys of 38 bits: 2.1e11 pairs/s against 1.9e11 with 5 and 1.5e11 with 4).
  //! 4 bits builds tables faster and wins only on units with few queries per block.
  static constexpr int kDefaultChunkBits = 6;

  MatchPath path() const { return path_; }
  //! The chunk width of the last load (kDefaultChunkBits before any).
  int chunk_bits() const { return chunk_bits_; }
  //! The chunk width that makes a block of `live_bits` key bits cheapest to build and query
  //! `queries` times: narrow chunks build a quarter of the table entries of 6-bit ones and cost
  //! a few more lookups per query. A unit of odd n meets a block a few hundred times, where the
  //! 6-bit tables cost far more than their queries.
  static int chunk_bits_for(int live_bits, std::size_t queries);
  //! A load's query count when it is not known: the default width.
  static constexpr std::size_t kUnknownQueries = SIZE_MAX;
  //! Whether keys are compressed with PEXT (join/bit_gather.hpp): on the vector paths of a CPU
  //! that runs it fast. The scalar path, the portable reference, keeps the byte tables.
  bool gathers_bits() const { return gathers_bits_; }
  //! Keys per block: the granularity of the work (a partial last block costs a whole one).
  std::size_t lanes() const { return lane_words_ * 64; }
  //! Keys per narrow block (0: none), which a load of a few hundred keys takes where that is
  //! cheaper (join/match_cost.hpp): the AVX-512 path's 256-key blocks.
  std::size_t narrow_lanes() const { return narrow_words_ * 64; }
  detail::BlockLanes block_lanes() const { return {lanes(), narrow_lanes()}; }

  //! Takes `stored` (copied: the span may die afterwards). key_bits in 1..64; keys use bits
  //! 0..key_bits-1 (higher bits are ignored). Throws std::invalid_argument on a bad key_bits.
  void load(std::span<const std::uint64_t> stored, int key_bits);
  //! As load(), each part in blocks of its own, so that count_by_part() can tell them apart.
  //! `queries`: how many queries will meet the load, if known (chunk_bits_for()).
  void load_parts(KeyParts stored, int key_bits, std::size_t queries = kUnknownQueries);
  //! Number of pairs (s, q), s from the last load, with (s & q) == 0 (bits of q at or above
  //! key_bits are ignored).
  std::uint64_t count(std::span<const std::uint64_t> queries) const;
  //! As count(), for the loaded parts one by one: each query is prepared once for both.
  std::array<std::uint64_t, 2> count_by_part(std::span<const std::uint64_t> queries) const;

  //! Queries turned into table offsets once, to be counted against several loads that share one
  //! layout (a slot split's slots: see fix_layout()).
  struct PreparedQueries {
    std::vector<std::uint16_t> offsets;  // `active` per query
    std::size_t active = 0;
    std::size_t count = 0;
  };
  //! Fixes how keys within `live_bits` are compressed and chunked, for `stored_count` keys to be
  //! loaded in all: load_in_layout() then keeps it, so that queries prepared once serve every load.
  void fix_layout(std::uint64_t live_bits, std::size_t stored_count, int key_bits,
                  std::size_t queries = kUnknownQueries);
  //! Loads `stored` (keys within the fixed live bits) under the fixed layout.
  void load_in_layout(KeyParts stored);
  void prepare(std::span<const std::uint64_t> queries, PreparedQueries& prepared) const;
  //! count_by_part() for the prepared queries first .. first + count - 1.
  std::array<std::uint64_t, 2> count_prepared(const PreparedQueries& prepared, std::size_t first,
                                              std::size_t count) const;

  //! The pairs (x, y) of a and b with (x & y & shared) == 0, tested one by one, for sides too
  //! small to load. `shared`: every bit set in some key of each side, the only ones that can
  //! clash (more bits may be set). Uses the counter's scratch space for packed keys.
  std::uint64_t count_one_by_one(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                 std::uint64_t shared);
  //! Whether count_one_by_one() tests sixteen pairs an instruction (AVX-512, 32-bit lanes) for
  //! sides of these sizes: when the shared bits are at most 32 (keys of more bits are packed to
  //! them with PEXT, where that is fast: at N = 19 the off-centre units' keys have 34 bits, of
  //! which about 30 are ever set) and the smaller side fills more than one 8-key register.
  bool tests_sixteen_at_once(std::size_t a_size, std::size_t b_size, std::uint64_t shared) const;

 private:
  using Chunk = detail::Chunk;

  std::uint64_t compress(std::uint64_t key) const;
  void compress_all(std::span<const std::uint64_t> keys, std::uint64_t* out) const;
  void choose_compression(std::size_t stored_count);
  void build_compress_tables();
  void plan_chunks();
  void build_block(std::span<const std::uint64_t> keys, std::uint64_t* block);
  std::uint64_t* tables() { return tables_storage_.data() + tables_skew_; }
  const std::uint64_t* tables() const { return tables_storage_.data() + tables_skew_; }
  std::size_t block_words() const { return entries_per_block_ * load_words_; }

  MatchPath path_;
  int chunk_bits_;
  bool adapts_chunk_bits_;
  std::size_t lane_words_;
  std::size_t narrow_words_;  // 0: no narrow blocks
  std::size_t load_words_;    // words a table entry in the current load: lane_words_ or narrow_words_
  bool gathers_bits_;

  std::array<std::size_t, 2> part_keys_{};    // stored keys per part
  std::array<std::size_t, 2> part_blocks_{};  // blocks per part, the first part's first
  std::uint64_t key_mask_ = 0;
  // Bits set in some stored key: only these can clash. When packing them from bit 0 saves a
  // chunk, "compressed" keys are packed (packed_); otherwise they are the keys' live bits.
  std::uint64_t live_bits_ = 0;
  int live_count_ = 0;  // bits of a compressed key
  bool packed_ = false;
  std::vector<std::uint64_t> compress_tables_;  // [byte position][byte value] -> compressed bits
  int compress_bytes_ = 0;
  std::vector<Chunk> chunks_;
  std::size_t entries_per_block_ = 0;
  std::size_t blocks_ = 0;
  std::vector<std::uint64_t> tables_storage_;  // blocks_ * block_words(), from tables_skew_
  std::size_t tables_skew_ = 0;                // words skipped to align the tables to 64 bytes

  std::vector<std::uint64_t> block_rows_;  // a block's compressed keys, inverted, in transpose order
  std::vector<std::uint64_t> block_keys_;  // a block's compressed keys, in lane order
  mutable std::vector<std::uint64_t> compressed_queries_;
  mutable PreparedQueries prepared_;                        // count()'s
  std::array<std::vector<std::uint64_t>, 2> packed_sides_;  // count_one_by_one()'s
};

//! Number of pairs (a_i, b_j) with (a_i & b_j) == 0: loads whichever side makes the cheaper
//! work (or, for tiny inputs, tests the pairs one by one). When both sides are large, the
//! loaded side is split into slots first (see count_disjoint_pairs_in_slots()).
std::uint64_t count_disjoint_pairs(DisjointCounter& counter, std::span<const std::uint64_t> a,
                                   std::span<const std::uint64_t> b, int key_bits);

//! The sum over i, j of weights[i][j] times the number of disjoint pairs of a[i] and b[j], found
//! as count_disjoint_pairs() finds one count, with each side loaded or queried once.
std::uint64_t count_weighted_disjoint_pairs(DisjointCounter& counter, KeyParts a, KeyParts b,
                                            const PartWeights& weights, int key_bits);

//! Most key bits a slot split may use (2^16 slots: a slot's number fits 16 bits). The cost model
//! picks the width per pair of sides: 3.3 bits on average on N = 21's, 5.9 on N = 20's, 9.3 on
//! N = 22's (join_bench --warm); the sides of even N from 24 grow to millions of keys, which
//! splits of 10 bits leave in blocks of thousands a slot.
constexpr int kMaxSlotBits = 16;

//! As count_disjoint_pairs() with `stored` loaded, but split first into 2^slot_bits slots on
//! the key bits most often set in both sides (slot_bits in 0..kMaxSlotBits, 0: no split), so
//! that each query only meets the slots it shares none of those bits with. For tests and
//! measurements: count_disjoint_pairs() picks the split itself. Throws std::invalid_argument on
//! a bad key_bits or slot_bits.
std::uint64_t count_disjoint_pairs_in_slots(DisjointCounter& counter, std::span<const std::uint64_t> stored,
                                            std::span<const std::uint64_t> queries, int key_bits, int slot_bits);

namespace detail {

//! One count's work for a path's kernel: every query against every block.
struct MatchJob {
  const std::uint64_t* tables = nullptr;  // 64-byte aligned; block b starts at b * block_bytes
  std::size_t blocks = 0;
  std::size_t block_bytes = 0;
  const std::uint16_t* offsets = nullptr;  // per query, `active` offsets into a block's tables (kEntryUnitBytes)
  std::size_t queries = 0;
  std::size_t active = 0;  // 1..kMaxActiveChunks
};

constexpr std::size_t kMaxActiveChunks = 16;
//! Prepared queries' offsets count 32-byte units, the entry of a 256-key block: so one prepared
//! query serves both of the AVX-512 path's block widths (a 512-key block's kernel doubles them).
constexpr std::size_t kEntryUnitBytes = 32;
constexpr std::size_t kScalarLaneWords = 4;
constexpr std::size_t kAvx2LaneWords = 4;
constexpr std::size_t kAvx512LaneWords = 8;

//! Sum over queries and blocks of the popcount of the AND of the query's entries.
std::uint64_t count_matches_scalar(const MatchJob& job);
#if defined(__x86_64__)
std::uint64_t count_matches_avx2(const MatchJob& job);
std::uint64_t count_matches_avx512(const MatchJob& job);
//! AVX-512 on 256-key blocks (32-byte entries).
std::uint64_t count_matches_avx512_narrow(const MatchJob& job);
//! The most active chunks prepare_offsets_avx512() takes (two registers of 32 offsets each).
constexpr std::size_t kMostChunksPreparedInVectors = 8;
//! For each key, the offset (in kEntryUnitBytes) of its entry in each chunk's table, chunk
//! after chunk, key after key: eight keys at a time. 1 to kMostChunksPreparedInVectors chunks.
void prepare_offsets_avx512(std::span<const std::uint64_t> keys, std::span<const Chunk* const> chunks,
                            std::uint16_t* offsets);
//! The pairs (x, y) of a and b with (x & y & key_mask) == 0, tested one by one eight at a time.
std::uint64_t count_pairs_one_by_one_avx512(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                            std::uint64_t key_mask);
#endif

}  // namespace detail

}  // namespace nqueens::join
