#include "join/disjoint_count.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "join/bit_gather.hpp"
#include "join/match_cost.hpp"
#include "join/match_shares.hpp"
#include "join/slot_split.hpp"

namespace nqueens::join {

namespace {

constexpr int kMinChunkBits = 4;
constexpr int kMaxChunkBits = 6;
constexpr std::size_t kTableAlignWords = 8;
// Fewest stored blocks for which packing the keys' live bits pays (see choose_compression()).
constexpr std::size_t kMinBlocksToPack = 16;  // 64 bytes: one AVX-512 vector, one cache line

bool cpu_has_avx2() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

bool cpu_has_avx512() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq");
#else
  return false;
#endif
}

std::size_t lane_words_of(MatchPath path) {
  switch (path) {
    case MatchPath::avx512: return detail::kAvx512LaneWords;
    case MatchPath::avx2: return detail::kAvx2LaneWords;
    case MatchPath::scalar: break;
  }
  return detail::kScalarLaneWords;
}

MatchPath checked(MatchPath path) {
  if (!supported(path))
    throw std::invalid_argument(std::string("DisjointCounter: this CPU cannot run the ") + to_string(path) +
                                " path (see best_match_path())");
  return path;
}

int checked_chunk_bits(int chunk_bits) {
  if (chunk_bits < kMinChunkBits || chunk_bits > kMaxChunkBits)
    throw std::invalid_argument("DisjointCounter: chunk_bits must be in 4..6, got " + std::to_string(chunk_bits));
  return chunk_bits;
}

// Prepared offsets count kEntryUnitBytes: the entry of the scalar and AVX2 paths and of AVX-512's
// narrow blocks (its wide kernel scales them).
static_assert(detail::kScalarLaneWords * sizeof(std::uint64_t) == detail::kEntryUnitBytes &&
              detail::kAvx2LaneWords * sizeof(std::uint64_t) == detail::kEntryUnitBytes);

std::uint64_t low_bits(int count) { return count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1; }

// Builds one block's tables with the lanes as a vector of Words words (GCC vector extension):
// compiled into the path wrappers below, so that the same code runs on AVX-512, AVX2 or plain
// registers.
template <std::size_t Words>
struct BlockBuilder {
  typedef std::uint64_t Vector __attribute__((vector_size(Words * sizeof(std::uint64_t))));

  // Through references: passing these vectors by value would depend on the target's ABI.
  static void load(Vector& vector, const std::uint64_t* words) { __builtin_memcpy(&vector, words, sizeof vector); }
  static void store(std::uint64_t* words, const Vector& vector) { __builtin_memcpy(words, &vector, sizeof vector); }

  // In place: afterwards bit i of rows[j] is what bit j of rows[i] was, in every word. Six rounds
  // of swapping ever smaller off-diagonal blocks cost about 20 operations a key, where moving
  // the bits one at a time would cost a few per key bit.
  static void transpose(Vector (&rows)[64]) {
    constexpr std::array<std::uint64_t, 6> kLowHalves = {0x00000000ffffffffULL, 0x0000ffff0000ffffULL,
                                                         0x00ff00ff00ff00ffULL, 0x0f0f0f0f0f0f0f0fULL,
                                                         0x3333333333333333ULL, 0x5555555555555555ULL};
    std::size_t width = 32;
    for (const std::uint64_t low : kLowHalves) {
      for (std::size_t top = 0; top < 64; top += 2 * width) {
        for (std::size_t row = top; row < top + width; ++row) {
          const Vector swapped = ((rows[row] >> width) ^ rows[row + width]) & low;
          rows[row] ^= swapped << width;
          rows[row + width] ^= swapped;
        }
      }
      width /= 2;
    }
  }

  // `rows`: word w of row i holds the inverted compressed key of lane 64 w + i (0 for padding).
  static void build(const std::uint64_t* rows, const std::uint64_t* valid, std::span<const detail::Chunk> chunks,
                    std::uint64_t* block) {
    Vector planes[64];  // a plain array: std::array<Vector, 64> would drop the vector attribute
    for (std::size_t row = 0; row < 64; ++row) load(planes[row], rows + row * Words);
    transpose(planes);
    for (const detail::Chunk& chunk : chunks) {
      std::uint64_t* entries = block + chunk.first_entry * Words;
      Vector lanes;
      load(lanes, valid);
      store(entries, lanes);
      for (std::size_t value = 1; value < (std::size_t{1} << chunk.width); ++value) {
        Vector smaller;
        load(smaller, entries + (value & (value - 1)) * Words);
        const Vector& plane = planes[static_cast<std::size_t>(chunk.first_bit + std::countr_zero(value))];
        store(entries + value * Words, smaller & plane);
      }
    }
  }
};

using BuildBlock = void (*)(const std::uint64_t*, const std::uint64_t*, std::span<const detail::Chunk>, std::uint64_t*);

void build_block_scalar(const std::uint64_t* rows, const std::uint64_t* valid, std::span<const detail::Chunk> chunks,
                        std::uint64_t* block) {
  BlockBuilder<detail::kScalarLaneWords>::build(rows, valid, chunks, block);
}

#if defined(__x86_64__)
__attribute__((target("avx2"), flatten)) void build_block_avx2(const std::uint64_t* rows, const std::uint64_t* valid,
                                                               std::span<const detail::Chunk> chunks,
                                                               std::uint64_t* block) {
  BlockBuilder<detail::kAvx2LaneWords>::build(rows, valid, chunks, block);
}

__attribute__((target("avx512f"), flatten)) void build_block_avx512(const std::uint64_t* rows,
                                                                    const std::uint64_t* valid,
                                                                    std::span<const detail::Chunk> chunks,
                                                                    std::uint64_t* block) {
  BlockBuilder<detail::kAvx512LaneWords>::build(rows, valid, chunks, block);
}
#endif

BuildBlock block_builder(MatchPath path) {
  switch (path) {
#if defined(__x86_64__)
    case MatchPath::avx512: return &build_block_avx512;
    case MatchPath::avx2: return &build_block_avx2;
#endif
    default: return &build_block_scalar;
  }
}

std::uint64_t count_pairs_one_by_one(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                     std::uint64_t key_mask) {
  std::uint64_t pairs = 0;
  for (const std::uint64_t left : a) {
    const std::uint64_t masked = left & key_mask;
    for (const std::uint64_t right : b) pairs += (masked & right) == 0 ? 1 : 0;
  }
  return pairs;
}

template <std::size_t Active>
std::uint64_t count_matches_scalar_fixed(const detail::MatchJob& job) {
  constexpr std::size_t kWords = detail::kScalarLaneWords;
  std::uint64_t total = 0;
  for (std::size_t block = 0; block < job.blocks; ++block) {
    const char* table = reinterpret_cast<const char*>(job.tables) + block * job.block_bytes;
    const std::uint16_t* offsets = job.offsets;
    for (std::size_t query = 0; query < job.queries; ++query, offsets += Active) {
      std::array<std::uint64_t, kWords> lanes{};
      const auto* first = reinterpret_cast<const std::uint64_t*>(table + offsets[0]);
      for (std::size_t word = 0; word < kWords; ++word) lanes[word] = first[word];
      for (std::size_t chunk = 1; chunk < Active; ++chunk) {
        const auto* entry = reinterpret_cast<const std::uint64_t*>(table + offsets[chunk]);
        for (std::size_t word = 0; word < kWords; ++word) lanes[word] &= entry[word];
      }
      for (const std::uint64_t word : lanes) total += static_cast<std::uint64_t>(std::popcount(word));
    }
  }
  return total;
}

template <std::size_t... Active>
constexpr auto scalar_kernels(std::index_sequence<Active...>) {
  return std::array{&count_matches_scalar_fixed<Active + 1>...};
}

}  // namespace

MatchPath best_match_path() {
  if (cpu_has_avx512()) return MatchPath::avx512;
  if (cpu_has_avx2()) return MatchPath::avx2;
  return MatchPath::scalar;
}

const char* to_string(MatchPath path) {
  switch (path) {
    case MatchPath::scalar: return "scalar";
    case MatchPath::avx2: return "avx2";
    case MatchPath::avx512: return "avx512";
  }
  return "unknown";
}

bool supported(MatchPath path) {
  switch (path) {
    case MatchPath::scalar: return true;
    case MatchPath::avx2: return cpu_has_avx2();
    case MatchPath::avx512: return cpu_has_avx512();
  }
  return false;
}

namespace detail {

std::uint64_t count_matches_scalar(const MatchJob& job) {
  static constexpr auto kKernels = scalar_kernels(std::make_index_sequence<kMaxActiveChunks>{});
  return kKernels[job.active - 1](job);
}

}  // namespace detail

namespace {

std::uint64_t count_matches(MatchPath path, const detail::MatchJob& job) {
  switch (path) {
#if defined(__x86_64__)
    case MatchPath::avx512: return detail::count_matches_avx512(job);
    case MatchPath::avx2: return detail::count_matches_avx2(job);
#endif
    default: return detail::count_matches_scalar(job);
  }
}

std::uint64_t count_narrow(const detail::MatchJob& job) {
#if defined(__x86_64__)
  return detail::count_matches_avx512_narrow(job);
#else
  return detail::count_matches_scalar(job);  // never reached: narrow blocks are AVX-512's
#endif
}

}  // namespace

DisjointCounter::DisjointCounter(MatchPath path) : DisjointCounter(path, kDefaultChunkBits) {
  adapts_chunk_bits_ = true;
}

DisjointCounter::DisjointCounter(MatchPath path, int chunk_bits)
    : path_(checked(path)),
      chunk_bits_(checked_chunk_bits(chunk_bits)),
      adapts_chunk_bits_(false),
      lane_words_(lane_words_of(path)),
      // Narrow blocks have AVX2's layout (256 lanes), built by its builder and counted by AVX-512VL.
      narrow_words_(path == MatchPath::avx512 ? detail::kAvx2LaneWords : 0),
      load_words_(lane_words_),
      gathers_bits_(path != MatchPath::scalar && detail::fast_bit_gather()) {}

void DisjointCounter::load(std::span<const std::uint64_t> stored, int key_bits) { load_parts({stored, {}}, key_bits); }

void DisjointCounter::load_parts(KeyParts stored, int key_bits, std::size_t queries) {
  std::uint64_t live_bits = 0;
  for (const auto part : stored)
    for (const std::uint64_t key : part) live_bits |= key;
  fix_layout(live_bits, stored[0].size() + stored[1].size(), key_bits, queries);
  load_in_layout(stored);
}

// Per block: building 2^w entries of each chunk of width w, against one lookup per chunk and
// query (the lookup's offset prepared, the entry read and ANDed). Ties go to the wider chunks.
int DisjointCounter::chunk_bits_for(int live_bits, std::size_t queries) {
  if (queries == kUnknownQueries || live_bits <= 0) return kDefaultChunkBits;
  int best = kDefaultChunkBits;
  double best_ns = 0;
  for (int bits = kMaxChunkBits; bits >= kMinChunkBits; --bits) {
    const int chunks = (live_bits + bits - 1) / bits;
    double entries = 0;
    for (int chunk = 0; chunk < chunks; ++chunk)
      entries += static_cast<double>(std::uint64_t{1} << (live_bits / chunks + (chunk < live_bits % chunks ? 1 : 0)));
    const double ns = entries * detail::kTableEntryNs +
                      static_cast<double>(queries * static_cast<std::size_t>(chunks)) * detail::kChunkLookupNs;
    if (bits == kMaxChunkBits || ns < best_ns) {
      best = bits;
      best_ns = ns;
    }
  }
  return best;
}

void DisjointCounter::fix_layout(std::uint64_t live_bits, std::size_t stored_count, int key_bits, std::size_t queries) {
  if (key_bits < 1 || key_bits > 64)
    throw std::invalid_argument("DisjointCounter::load: key_bits must be in 1..64, got " + std::to_string(key_bits));
  key_mask_ = low_bits(key_bits);
  live_bits_ = live_bits & key_mask_;
  if (adapts_chunk_bits_) chunk_bits_ = chunk_bits_for(std::popcount(live_bits_), queries);
  choose_compression(stored_count);
  plan_chunks();
}

void DisjointCounter::load_in_layout(KeyParts stored) {
  load_words_ = detail::narrow_pays(detail::sizes_of(stored), block_lanes()) ? narrow_words_ : lane_words_;
  const std::size_t load_lanes = load_words_ * 64;
  for (std::size_t part = 0; part < 2; ++part) {
    part_keys_[part] = stored[part].size();
    part_blocks_[part] = live_count_ == 0 ? 0 : detail::blocks_of(stored[part].size(), load_lanes);
  }
  blocks_ = part_blocks_[0] + part_blocks_[1];
  const std::size_t needed = blocks_ * block_words() + kTableAlignWords;
  if (tables_storage_.size() < needed) tables_storage_.resize(needed);
  const auto address = reinterpret_cast<std::uintptr_t>(tables_storage_.data());
  tables_skew_ = (kTableAlignWords - (address / sizeof(std::uint64_t)) % kTableAlignWords) % kTableAlignWords;
  std::uint64_t* block = tables();
  for (std::size_t part = 0; part < 2; ++part) {
    for (std::size_t first = 0; first < stored[part].size() && live_count_ != 0; first += load_lanes) {
      build_block(stored[part].subspan(first, std::min(load_lanes, stored[part].size() - first)), block);
      block += block_words();
    }
  }
}

// Per byte of a key, where its live bits land in the compressed key: eight lookups compress a
// key, which is cheaper than a loop over its bits, and than PEXT on CPUs that microcode it.
void DisjointCounter::build_compress_tables() {
  std::array<std::uint64_t, 64> landing{};  // where each key bit goes in the compressed key (0: dropped)
  int next = 0;
  for (int bit = 0; bit < 64; ++bit)
    if ((live_bits_ >> bit) & 1) landing[static_cast<std::size_t>(bit)] = std::uint64_t{1} << next++;
  compress_bytes_ = (64 - std::countl_zero(live_bits_) + 7) / 8;
  const std::size_t entries = static_cast<std::size_t>(compress_bytes_) * 256;
  if (compress_tables_.size() < entries) compress_tables_.resize(entries);
  for (std::size_t byte = 0; byte < static_cast<std::size_t>(compress_bytes_); ++byte) {
    std::uint64_t* table = compress_tables_.data() + byte * 256;
    table[0] = 0;
    for (unsigned value = 1; value < 256; ++value)
      table[value] = table[value & (value - 1)] | landing[byte * 8 + static_cast<std::size_t>(std::countr_zero(value))];
  }
}

// Packing the live bits pays only when it saves a chunk (a lookup per query and block). With
// PEXT it then always pays. With byte tables it pays only on enough blocks: building the tables
// costs about a microsecond and packing a key a few nanoseconds (for every stored key and every
// query), which outweighs the saved lookups on the small units odd n is made of. Otherwise keys
// keep their bits where they are (below the highest live bit) and the dead ones cost nothing but
// table space.
void DisjointCounter::choose_compression(std::size_t stored_count) {
  const int span = 64 - std::countl_zero(live_bits_);
  const int packed = std::popcount(live_bits_);
  const auto chunks_for = [this](int bits) { return (bits + chunk_bits_ - 1) / chunk_bits_; };
  packed_ = chunks_for(packed) < chunks_for(span) && (gathers_bits_ || stored_count >= kMinBlocksToPack * lanes());
  live_count_ = packed_ ? packed : span;
  if (packed_ && !gathers_bits_) build_compress_tables();
}

std::uint64_t DisjointCounter::compress(std::uint64_t key) const {
  if (!packed_) return key & live_bits_;
  std::uint64_t compressed = 0;
  for (int byte = 0; byte < compress_bytes_; ++byte)
    compressed |= compress_tables_[static_cast<std::size_t>(byte) * 256 + ((key >> (byte * 8)) & 0xff)];
  return compressed;
}

void DisjointCounter::compress_all(std::span<const std::uint64_t> keys, std::uint64_t* out) const {
  if (packed_ && gathers_bits_) return detail::gather_bits(keys, live_bits_, out);
  for (const std::uint64_t key : keys) *out++ = compress(key);
}

// Chunks of nearly equal width: a 38-bit key with c = 5 gets six chunks of 5 bits and two of 4
// rather than seven of 5 and one of 3 (same number of lookups, fewer table entries to build).
void DisjointCounter::plan_chunks() {
  chunks_.clear();
  entries_per_block_ = 0;
  if (live_count_ == 0) return;
  const int count = (live_count_ + chunk_bits_ - 1) / chunk_bits_;
  int first_bit = 0;
  for (int chunk = 0; chunk < count; ++chunk) {
    const int width = live_count_ / count + (chunk < live_count_ % count ? 1 : 0);
    chunks_.push_back({first_bit, width, entries_per_block_});
    first_bit += width;
    entries_per_block_ += std::size_t{1} << width;
  }
}

void DisjointCounter::build_block(std::span<const std::uint64_t> keys, std::uint64_t* block) {
  const std::size_t words = load_words_;
  std::array<std::uint64_t, detail::kAvx512LaneWords> valid{};
  block_rows_.assign(64 * words, 0);
  block_keys_.resize(keys.size());
  compress_all(keys, block_keys_.data());
  // Padding lanes get no plane bit; entry 0 of every chunk also leaves them out, so they never match.
  for (std::size_t lane = 0; lane < keys.size(); ++lane)
    block_rows_[(lane % 64) * words + lane / 64] = ~block_keys_[lane];
  for (std::size_t word = 0; word < words; ++word) {
    const std::size_t first = word * 64;
    valid[word] = keys.size() > first ? low_bits(static_cast<int>(std::min<std::size_t>(64, keys.size() - first))) : 0;
  }
  block_builder(load_words_ == lane_words_ ? path_ : MatchPath::avx2)(block_rows_.data(), valid.data(), chunks_, block);
}

std::uint64_t DisjointCounter::count(std::span<const std::uint64_t> queries) const {
  const std::array<std::uint64_t, 2> counts = count_by_part(queries);
  return counts[0] + counts[1];
}

std::array<std::uint64_t, 2> DisjointCounter::count_by_part(std::span<const std::uint64_t> queries) const {
  prepare(queries, prepared_);
  return count_prepared(prepared_, 0, queries.size());
}

// Each query as the byte offsets of its entries in a block's tables, one per active chunk. A
// chunk no query has a bit in would always pick entry 0 (only the lane mask): left out, as long
// as one chunk remains to apply that mask.
void DisjointCounter::prepare(std::span<const std::uint64_t> queries, PreparedQueries& prepared) const {
  prepared.count = queries.size();
  prepared.active = 0;
  if (live_count_ == 0) {
    prepared.offsets.clear();
    return;
  }
  compressed_queries_.resize(queries.size());
  compress_all(queries, compressed_queries_.data());
  std::uint64_t query_bits = 0;
  for (const std::uint64_t query : compressed_queries_) query_bits |= query;
  std::array<const Chunk*, detail::kMaxActiveChunks> active{};
  for (const Chunk& chunk : chunks_)
    if (((query_bits >> chunk.first_bit) & low_bits(chunk.width)) != 0) active[prepared.active++] = &chunk;
  if (prepared.active == 0) active[prepared.active++] = &chunks_.front();

  // Not cleared first: what it held is overwritten, and only its growth is zero-filled.
  prepared.offsets.resize(queries.size() * prepared.active);
  std::uint16_t* offsets = prepared.offsets.data();
#if defined(__x86_64__)
  if (path_ == MatchPath::avx512 && prepared.active <= detail::kMostChunksPreparedInVectors)
    return detail::prepare_offsets_avx512(compressed_queries_, {active.data(), prepared.active}, offsets);
#endif
  for (const std::uint64_t query : compressed_queries_) {
    for (std::size_t chunk = 0; chunk < prepared.active; ++chunk) {
      const Chunk& c = *active[chunk];
      const std::size_t entry = c.first_entry + ((query >> c.first_bit) & low_bits(c.width));
      *offsets++ = static_cast<std::uint16_t>(entry * detail::kEntryUnitBytes);
    }
  }
}

std::array<std::uint64_t, 2> DisjointCounter::count_prepared(const PreparedQueries& prepared, std::size_t first,
                                                             std::size_t count) const {
  if (count == 0) return {};
  if (live_count_ == 0) return {part_keys_[0] * count, part_keys_[1] * count};
  detail::MatchJob job;
  job.block_bytes = block_words() * sizeof(std::uint64_t);
  job.offsets = prepared.offsets.data() + first * prepared.active;
  job.queries = count;
  job.active = prepared.active;
  std::array<std::uint64_t, 2> counts{};
  const std::uint64_t* part_tables = tables();
  for (std::size_t part = 0; part < 2; ++part) {
    job.tables = part_tables;
    job.blocks = part_blocks_[part];
    if (job.blocks != 0) counts[part] = load_words_ == lane_words_ ? count_matches(path_, job) : count_narrow(job);
    part_tables += part_blocks_[part] * block_words();
  }
  return counts;
}

bool DisjointCounter::tests_sixteen_at_once(std::size_t a_size, std::size_t b_size, std::uint64_t shared) const {
  if (path_ != MatchPath::avx512 || std::min(a_size, b_size) <= detail::kAvx512LaneWords) return false;
  return shared <= 0xffffffff || (gathers_bits_ && std::popcount(shared) <= 32);
}

std::uint64_t DisjointCounter::count_one_by_one(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                                std::uint64_t shared) {
#if defined(__x86_64__)
  if (path_ == MatchPath::avx512) {
    if (shared <= 0xffffffff || !tests_sixteen_at_once(a.size(), b.size(), shared))
      return detail::count_pairs_one_by_one_avx512(a, b, shared);
    packed_sides_[0].resize(a.size());
    packed_sides_[1].resize(b.size());
    detail::gather_bits(a, shared, packed_sides_[0].data());
    detail::gather_bits(b, shared, packed_sides_[1].data());
    return detail::count_pairs_one_by_one_avx512(packed_sides_[0], packed_sides_[1], 0xffffffff);
  }
#endif
  return count_pairs_one_by_one(a, b, shared);
}

namespace {

using detail::count_in_slots;
using detail::kPairOneByOneNs;
using detail::size_of;
using detail::SlotBits;
// A plain count: each pair of the first parts once.
constexpr PartWeights kSingleWeight = {{{1, 0}, {0, 0}}};

// Pairs of every query part with the loaded parts, weighted.
std::uint64_t weighted_count(const DisjointCounter& counter, const KeyParts& queries, const PartWeights& weights) {
  std::uint64_t pairs = 0;
  for (std::size_t query_part = 0; query_part < 2; ++query_part) {
    if (queries[query_part].empty()) continue;
    const std::array<std::uint64_t, 2> counts = counter.count_by_part(queries[query_part]);
    for (std::size_t stored_part = 0; stored_part < 2; ++stored_part)
      pairs += weights[stored_part][query_part] * counts[stored_part];
  }
  return pairs;
}

PartWeights transposed(const PartWeights& weights) {
  return {{{weights[0][0], weights[1][0]}, {weights[0][1], weights[1][1]}}};
}

double avx512_pair_scale() {
#if defined(__x86_64__)
  if (__builtin_cpu_is("intel")) return detail::kIntelPairScale;
#endif
  return 1;
}

const double kAvx512PairScale = avx512_pair_scale();

// The AVX-512 path tests eight pairs an instruction (sixteen on 32-bit keys): a tenth to a
// twentieth of a pair's scalar time.
double pair_one_by_one_ns(const DisjointCounter& counter, std::size_t a_size, std::size_t b_size,
                          std::uint64_t shared) {
  if (counter.path() != MatchPath::avx512) return kPairOneByOneNs;
  return kAvx512PairScale * (counter.tests_sixteen_at_once(a_size, b_size, shared) ? detail::kPairSixteenAtOnceNs
                                                                                   : detail::kPairOneByOneAvx512Ns);
}

std::uint64_t count_one_by_one(DisjointCounter& counter, const KeyParts& a, const KeyParts& b,
                               const PartWeights& weights, std::uint64_t shared) {
  std::uint64_t pairs = 0;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      if (weights[i][j] != 0) pairs += weights[i][j] * counter.count_one_by_one(a[i], b[j], shared);
  return pairs;
}

// The bits within the key set in some key of each side: the only ones that can clash. Looked for
// only where they may let 16 pairs be tested at once (a pass over small sides costs a few percent
// of N = 17's time); otherwise every bit of the key.
std::uint64_t shared_bits(const DisjointCounter& counter, const KeyParts& a, const KeyParts& b, int key_bits) {
  if (counter.path() != MatchPath::avx512 || key_bits <= 32 || !counter.gathers_bits()) return low_bits(key_bits);
  std::uint64_t in_a = 0, in_b = 0;
  for (const auto& part : a)
    for (const std::uint64_t key : part) in_a |= key;
  for (const auto& part : b)
    for (const std::uint64_t key : part) in_b |= key;
  return in_a & in_b & low_bits(key_bits);
}

// `stored` loaded (in slots on `split`'s bits, if any) and every query counted against it.
std::uint64_t count_stored(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries,
                           const PartWeights& weights, int key_bits, const SlotBits& split) {
  if (split.count > 0) return count_in_slots(counter, stored, queries, weights, key_bits, split);
  counter.load_parts(stored, key_bits, size_of(queries));
  return weighted_count(counter, queries, weights);
}

void check_key_bits(const char* caller, int key_bits) {
  if (key_bits < 1 || key_bits > 64)
    throw std::invalid_argument(std::string(caller) + ": key_bits must be in 1..64, got " + std::to_string(key_bits));
}

}  // namespace

std::uint64_t count_disjoint_pairs_in_slots(DisjointCounter& counter, std::span<const std::uint64_t> stored,
                                            std::span<const std::uint64_t> queries, int key_bits, int slot_bits) {
  check_key_bits("count_disjoint_pairs_in_slots", key_bits);
  if (slot_bits < 0 || slot_bits > kMaxSlotBits)
    throw std::invalid_argument("count_disjoint_pairs_in_slots: slot_bits must be in 0.." +
                                std::to_string(kMaxSlotBits) + ", got " + std::to_string(slot_bits));
  if (stored.empty() || queries.empty()) return 0;
  const KeyParts stored_parts = {stored, {}}, query_parts = {queries, {}};
  return count_in_slots(counter, stored_parts, query_parts, kSingleWeight, key_bits,
                        detail::most_shared_bits(stored_parts, query_parts, key_bits, slot_bits));
}

namespace detail {

MatchChoice choose_match(const DisjointCounter& counter, const KeyParts& a, const KeyParts& b, int key_bits) {
  MatchChoice choice;
  const std::size_t a_size = size_of(a), b_size = size_of(b);
  const detail::BlockLanes lanes = counter.block_lanes();
  choice.shared = shared_bits(counter, a, b, key_bits);
  const double one_by_one = static_cast<double>(a_size) * static_cast<double>(b_size) *
                            pair_one_by_one_ns(counter, a_size, b_size, choice.shared);
  // A load builds at least one block: sides whose pairs cost less are tested one by one without
  // pricing the loads (most joins of odd N, a few dozen keys a side).
  choice.one_by_one = one_by_one < detail::least_load_ns(lanes);
  if (choice.one_by_one) return choice;
  const double store_a = bit_sliced_ns(load_blocks(detail::sizes_of(a), lanes), b_size);
  const double store_b = bit_sliced_ns(load_blocks(detail::sizes_of(b), lanes), a_size);
  choice.one_by_one = one_by_one < std::min(store_a, store_b);
  choice.a_stored = store_a <= store_b;
  if (choice.one_by_one || std::min(a_size, b_size) < kMinKeysToSplit) return choice;
  const SplitChoice split = choose_split(choice.a_stored ? a : b, choice.a_stored ? b : a, key_bits, lanes);
  choice.apart = split.apart_ns < split.together_ns;
  choice.splits = choice.apart ? split.apart : std::array<SlotBits, 2>{split.together, {}};
  return choice;
}

StoredLoads stored_loads(const MatchChoice& choice, const KeyParts& a, const KeyParts& b, const PartWeights& weights) {
  const KeyParts& stored = choice.a_stored ? a : b;
  const KeyParts& queries = choice.a_stored ? b : a;
  const PartWeights stored_weights = choice.a_stored ? weights : transposed(weights);
  if (!choice.apart) return {{StoredLoad{stored, queries, stored_weights, choice.splits[0]}}, 1};
  // Each stored part against every query part, with its own row of the weights.
  StoredLoads loads{{}, 2};
  for (std::size_t part = 0; part < 2; ++part)
    loads.loads[part] = {{stored[part], {}}, queries, {{stored_weights[part], {0, 0}}}, choice.splits[part]};
  return loads;
}

std::uint64_t count_weighted_one_by_one(DisjointCounter& counter, const KeyParts& a, const KeyParts& b,
                                        const PartWeights& weights, std::uint64_t shared) {
  return count_one_by_one(counter, a, b, weights, shared);
}

}  // namespace detail

std::uint64_t count_weighted_disjoint_pairs(DisjointCounter& counter, KeyParts a, KeyParts b,
                                            const PartWeights& weights, int key_bits) {
  check_key_bits("count_disjoint_pairs", key_bits);
  if (size_of(a) == 0 || size_of(b) == 0) return 0;
  const detail::MatchChoice choice = detail::choose_match(counter, a, b, key_bits);
  if (choice.one_by_one) return count_one_by_one(counter, a, b, weights, choice.shared);
  const detail::StoredLoads loads = detail::stored_loads(choice, a, b, weights);
  std::uint64_t pairs = 0;
  for (std::size_t i = 0; i < loads.count; ++i) {
    const detail::StoredLoad& load = loads.loads[i];
    pairs += count_stored(counter, load.stored, load.queries, load.weights, key_bits, load.split);
  }
  return pairs;
}

std::uint64_t count_disjoint_pairs(DisjointCounter& counter, std::span<const std::uint64_t> a,
                                   std::span<const std::uint64_t> b, int key_bits) {
  return count_weighted_disjoint_pairs(counter, {a, {}}, {b, {}}, kSingleWeight, key_bits);
}

}  // namespace nqueens::join
