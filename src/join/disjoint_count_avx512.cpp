// The AVX-512 path: 512 stored keys a block, one 64-byte vector a table entry, VPOPCNTQ for the
// count; and its narrow blocks of 256 keys, one 32-byte vector an entry (AVX-512VL), for loads
// of a few hundred keys, where a wide block would answer each query for mostly empty lanes.
#include "join/disjoint_count.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <span>
#include <utility>

// Compiled for AVX-512 whatever the build's -march, and chosen at run time when the CPU has it.
#define NQUEENS_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,popcnt")))

namespace nqueens::join::detail {

namespace {

// Prepared offsets count 32-byte entry units (see kEntryUnitBytes): a wide entry spans two.
struct WideLanes {
  using Vector = __m512i;
  static constexpr std::size_t kUnitsPerEntry = kAvx512LaneWords * sizeof(std::uint64_t) / kEntryUnitBytes;
  NQUEENS_AVX512 static Vector entry(const char* table, std::uint16_t offset) {
    return _mm512_load_si512(reinterpret_cast<const void*>(table + kUnitsPerEntry * offset));
  }
  NQUEENS_AVX512 static Vector zero() { return _mm512_setzero_si512(); }
  NQUEENS_AVX512 static Vector both(Vector a, Vector b) { return _mm512_and_si512(a, b); }
  NQUEENS_AVX512 static Vector add(Vector a, Vector b) { return _mm512_add_epi64(a, b); }
  NQUEENS_AVX512 static Vector popcount(Vector a) { return _mm512_popcnt_epi64(a); }
  // Stored and summed by hand: GCC 12's _mm512_reduce_add_epi64 trips -Wuninitialized.
  NQUEENS_AVX512 static std::uint64_t sum(Vector a) {
    alignas(64) std::array<std::uint64_t, 8> sums{};
    _mm512_store_si512(sums.data(), a);
    std::uint64_t total = 0;
    for (const std::uint64_t lane_sum : sums) total += lane_sum;
    return total;
  }
};

struct NarrowLanes {
  using Vector = __m256i;
  NQUEENS_AVX512 static Vector entry(const char* table, std::uint16_t offset) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(table + offset));
  }
  NQUEENS_AVX512 static Vector zero() { return _mm256_setzero_si256(); }
  NQUEENS_AVX512 static Vector both(Vector a, Vector b) { return _mm256_and_si256(a, b); }
  NQUEENS_AVX512 static Vector add(Vector a, Vector b) { return _mm256_add_epi64(a, b); }
  NQUEENS_AVX512 static Vector popcount(Vector a) { return _mm256_popcnt_epi64(a); }
  NQUEENS_AVX512 static std::uint64_t sum(Vector a) {
    alignas(32) std::array<std::uint64_t, 4> sums{};
    _mm256_store_si256(reinterpret_cast<__m256i*>(sums.data()), a);
    return sums[0] + sums[1] + sums[2] + sums[3];
  }
};

// Four queries at a time keep four independent AND chains in flight while the block's tables
// stay in L1.
template <typename Lanes, std::size_t Active>
NQUEENS_AVX512 std::uint64_t count_matches_fixed(const MatchJob& job) {
  using V = typename Lanes::Vector;
  constexpr std::size_t kQueriesAtOnce = 4;
  V total = Lanes::zero();
  for (std::size_t block = 0; block < job.blocks; ++block) {
    const char* table = reinterpret_cast<const char*>(job.tables) + block * job.block_bytes;
    const std::uint16_t* offsets = job.offsets;
    std::size_t query = 0;
    for (; query + kQueriesAtOnce <= job.queries; query += kQueriesAtOnce, offsets += kQueriesAtOnce * Active) {
      V first = Lanes::entry(table, offsets[0]);
      V second = Lanes::entry(table, offsets[Active]);
      V third = Lanes::entry(table, offsets[2 * Active]);
      V fourth = Lanes::entry(table, offsets[3 * Active]);
      for (std::size_t chunk = 1; chunk < Active; ++chunk) {
        first = Lanes::both(first, Lanes::entry(table, offsets[chunk]));
        second = Lanes::both(second, Lanes::entry(table, offsets[Active + chunk]));
        third = Lanes::both(third, Lanes::entry(table, offsets[2 * Active + chunk]));
        fourth = Lanes::both(fourth, Lanes::entry(table, offsets[3 * Active + chunk]));
      }
      const V pair_sum = Lanes::add(Lanes::popcount(first), Lanes::popcount(second));
      const V other_sum = Lanes::add(Lanes::popcount(third), Lanes::popcount(fourth));
      total = Lanes::add(total, Lanes::add(pair_sum, other_sum));
    }
    for (; query < job.queries; ++query, offsets += Active) {
      V lanes = Lanes::entry(table, offsets[0]);
      for (std::size_t chunk = 1; chunk < Active; ++chunk)
        lanes = Lanes::both(lanes, Lanes::entry(table, offsets[chunk]));
      total = Lanes::add(total, Lanes::popcount(lanes));
    }
  }
  return Lanes::sum(total);
}

template <typename Lanes, std::size_t... Active>
constexpr auto kernels(std::index_sequence<Active...>) {
  return std::array{&count_matches_fixed<Lanes, Active + 1>...};
}

}  // namespace

std::uint64_t count_matches_avx512(const MatchJob& job) {
  static constexpr auto kKernels = kernels<WideLanes>(std::make_index_sequence<kMaxActiveChunks>{});
  return kKernels[job.active - 1](job);
}

std::uint64_t count_matches_avx512_narrow(const MatchJob& job) {
  static constexpr auto kKernels = kernels<NarrowLanes>(std::make_index_sequence<kMaxActiveChunks>{});
  return kKernels[job.active - 1](job);
}

// Up to 8 * kRegisters keys of `a` held in registers against each key of `b` in turn: a
// broadcast, then per register one test and one masked add of 1 to the lanes that fit. The
// counts stay in vectors until the end. Only as many registers as the keys fill are tested: at
// odd n most sides have a few dozen keys, and a fixed four tested mostly empty lanes.
template <std::size_t kRegisters>
NQUEENS_AVX512 __m512i count_held(const std::uint64_t* a, std::size_t size, std::span<const std::uint64_t> b,
                                  __m512i mask) {
  const __m512i one = _mm512_set1_epi64(1);
  // Plain arrays: std::array would drop the vector type's attributes.
  __m512i held[kRegisters];    // NOLINT(cppcoreguidelines-avoid-c-arrays)
  __m512i counts[kRegisters];  // NOLINT(cppcoreguidelines-avoid-c-arrays)
  std::array<__mmask8, kRegisters> lanes{};
  for (std::size_t r = 0; r < kRegisters; ++r) {
    const std::size_t begin = 8 * r;
    const std::size_t left = begin < size ? size - begin : 0;
    lanes[r] = static_cast<__mmask8>(left >= 8 ? 0xff : (1u << left) - 1);
    held[r] = _mm512_and_si512(_mm512_maskz_loadu_epi64(lanes[r], a + (left > 0 ? begin : 0)), mask);
    counts[r] = _mm512_setzero_si512();
  }
  for (const std::uint64_t key : b) {
    const __m512i query = _mm512_set1_epi64(static_cast<long long>(key));
    for (std::size_t r = 0; r < kRegisters; ++r)
      counts[r] =
          _mm512_mask_add_epi64(counts[r], _mm512_mask_testn_epi64_mask(lanes[r], held[r], query), counts[r], one);
  }
  __m512i total = counts[0];
  for (std::size_t r = 1; r < kRegisters; ++r) total = _mm512_add_epi64(total, counts[r]);
  return total;
}

// As count_held(), for keys of at most 32 bits (n <= 17): sixteen keys a register, sixteen pairs
// an instruction. A lane counts at most 2^31 queries (the caller passes b in runs of that).
template <std::size_t kRegisters>
NQUEENS_AVX512 __m512i count_held_narrow(const std::uint64_t* a, std::size_t size, std::span<const std::uint64_t> b,
                                         __m512i mask) {
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i even_dwords = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  __m512i held[kRegisters];    // NOLINT(cppcoreguidelines-avoid-c-arrays)
  __m512i counts[kRegisters];  // NOLINT(cppcoreguidelines-avoid-c-arrays)
  std::array<__mmask16, kRegisters> lanes{};
  for (std::size_t r = 0; r < kRegisters; ++r) {
    const std::size_t begin = 16 * r;
    const std::size_t left = begin < size ? size - begin : 0;
    const std::size_t low_left = std::min<std::size_t>(left, 8), high_left = left > 8 ? left - 8 : 0;
    const __m512i low =
        _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << low_left) - 1), a + (low_left > 0 ? begin : 0));
    const __m512i high = _mm512_maskz_loadu_epi64(
        static_cast<__mmask8>((1u << std::min<std::size_t>(high_left, 8)) - 1), a + (high_left > 0 ? begin + 8 : 0));
    lanes[r] = static_cast<__mmask16>(left >= 16 ? 0xffff : (1u << left) - 1);
    // The low 32 bits of each of the sixteen keys: the even dwords of the two registers.
    held[r] = _mm512_and_si512(_mm512_permutex2var_epi32(low, even_dwords, high), mask);
    counts[r] = _mm512_setzero_si512();
  }
  for (const std::uint64_t key : b) {
    const __m512i query = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(key)));
    for (std::size_t r = 0; r < kRegisters; ++r)
      counts[r] =
          _mm512_mask_add_epi32(counts[r], _mm512_mask_testn_epi32_mask(lanes[r], held[r], query), counts[r], one);
  }
  // Each 64-bit lane's two counts added as 64-bit numbers before the registers are summed.
  const __m512i low_counts = _mm512_set1_epi64(0xffffffff);
  constexpr auto all = static_cast<__mmask8>(0xff);
  __m512i total = _mm512_setzero_si512();
  for (std::size_t r = 0; r < kRegisters; ++r)
    total = _mm512_add_epi64(
        total, _mm512_add_epi64(_mm512_and_si512(counts[r], low_counts), _mm512_maskz_srli_epi64(all, counts[r], 32)));
  return total;
}

// The pairs with a's keys held in registers, 32 at a time (64 narrow ones), against b's.
NQUEENS_AVX512 __m512i count_held_blocks(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                         std::uint64_t key_mask) {
  __m512i total = _mm512_setzero_si512();
  if (key_mask <= 0xffffffff) {
    constexpr std::size_t kHeld = 64;
    const __m512i mask = _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(key_mask)));
    for (std::size_t first = 0; first < a.size(); first += kHeld) {
      const std::size_t size = std::min(kHeld, a.size() - first);
      const std::uint64_t* held = a.data() + first;
      switch ((size + 15) / 16) {
        case 1: total = _mm512_add_epi64(total, count_held_narrow<1>(held, size, b, mask)); break;
        case 2: total = _mm512_add_epi64(total, count_held_narrow<2>(held, size, b, mask)); break;
        case 3: total = _mm512_add_epi64(total, count_held_narrow<3>(held, size, b, mask)); break;
        default: total = _mm512_add_epi64(total, count_held_narrow<4>(held, size, b, mask)); break;
      }
    }
    return total;
  }
  constexpr std::size_t kHeld = 32;
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(key_mask));
  for (std::size_t first = 0; first < a.size(); first += kHeld) {
    const std::size_t size = std::min(kHeld, a.size() - first);
    const std::uint64_t* held = a.data() + first;
    switch ((size + 7) / 8) {
      case 1: total = _mm512_add_epi64(total, count_held<1>(held, size, b, mask)); break;
      case 2: total = _mm512_add_epi64(total, count_held<2>(held, size, b, mask)); break;
      case 3: total = _mm512_add_epi64(total, count_held<3>(held, size, b, mask)); break;
      default: total = _mm512_add_epi64(total, count_held<4>(held, size, b, mask)); break;
    }
  }
  return total;
}

namespace {

// Where lane p of prepare_offsets_avx512()'s two output registers (64 offsets) comes from, for
// each count of chunks a: offset p % a of key p / a. Its two input registers hold the chunks'
// offsets chunk after chunk, eight keys each: chunk c's of key q in lane c * 8 + q.
struct OffsetOrder {
  alignas(64) std::array<std::array<std::uint16_t, 64>, kMostChunksPreparedInVectors + 1> source;
};

constexpr OffsetOrder make_offset_order() {
  OffsetOrder order{};
  for (std::size_t active = 1; active <= kMostChunksPreparedInVectors; ++active)
    for (std::size_t lane = 0; lane < 64; ++lane)
      order.source[active][lane] =
          static_cast<std::uint16_t>(lane < 8 * active ? lane % active * 8 + lane / active : 0);
  return order;
}

constexpr OffsetOrder kOffsetOrder = make_offset_order();

__mmask32 first_words(std::size_t count) {
  return count >= 32 ? ~__mmask32{0} : static_cast<__mmask32>((std::uint32_t{1} << count) - 1);
}

}  // namespace

// Eight keys at a time: each chunk's eight offsets computed in one register and narrowed to
// 16 bits, then the chunks' offsets interleaved key by key with two permutes. The scalar loop
// took a tenth of N = 18's time, a shift, mask and store per key and chunk.
NQUEENS_AVX512 void prepare_offsets_avx512(std::span<const std::uint64_t> keys, std::span<const Chunk* const> chunks,
                                           std::uint16_t* offsets) {
  static_assert(kEntryUnitBytes == 32, "offsets are entries shifted left by 5");
  const std::size_t active = chunks.size();
  // Plain arrays: std::array would drop the vector type's attributes.
  __m512i shifts[kMostChunksPreparedInVectors];  // NOLINT(cppcoreguidelines-avoid-c-arrays)
  __m512i masks[kMostChunksPreparedInVectors];   // NOLINT(cppcoreguidelines-avoid-c-arrays)
  __m512i bases[kMostChunksPreparedInVectors];   // NOLINT(cppcoreguidelines-avoid-c-arrays)
  for (std::size_t c = 0; c < active; ++c) {
    shifts[c] = _mm512_set1_epi64(chunks[c]->first_bit);
    masks[c] = _mm512_set1_epi64(static_cast<long long>((std::uint64_t{1} << chunks[c]->width) - 1));
    bases[c] = _mm512_set1_epi64(static_cast<long long>(chunks[c]->first_entry));
  }
  const __m512i first_order = _mm512_load_si512(kOffsetOrder.source[active].data());
  const __m512i second_order = _mm512_load_si512(kOffsetOrder.source[active].data() + 32);
  // The zero-masking forms of the shifts and the narrowing: GCC 12 warns that the plain ones read an
  // undefined value.
  constexpr auto all = static_cast<__mmask8>(0xff);
  for (std::size_t first = 0; first < keys.size(); first += 8) {
    const std::size_t taken = std::min<std::size_t>(8, keys.size() - first);
    const __m512i key = _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << taken) - 1), keys.data() + first);
    __m512i low = _mm512_setzero_si512(), high = _mm512_setzero_si512();
    for (std::size_t c = 0; c < active; ++c) {
      const __m512i entry =
          _mm512_add_epi64(_mm512_and_si512(_mm512_maskz_srlv_epi64(all, key, shifts[c]), masks[c]), bases[c]);
      const __m128i words = _mm512_maskz_cvtepi64_epi16(all, _mm512_maskz_slli_epi64(all, entry, 5));
      const auto lane = static_cast<__mmask16>(0xfu << (4 * (c % 4)));
      if (c < 4) {
        low = _mm512_mask_broadcast_i32x4(low, lane, words);
      } else {
        high = _mm512_mask_broadcast_i32x4(high, lane, words);
      }
    }
    const std::size_t written = taken * active;
    _mm512_mask_storeu_epi16(offsets, first_words(written), _mm512_permutex2var_epi16(low, first_order, high));
    if (written > 32)
      _mm512_mask_storeu_epi16(offsets + 32, first_words(written - 32),
                               _mm512_permutex2var_epi16(low, second_order, high));
    offsets += written;
  }
}

// The smaller side's keys are held (fewer registers a query), b taken in runs short enough for
// the narrow kernel's 32-bit counts.
NQUEENS_AVX512 std::uint64_t count_pairs_one_by_one_avx512(std::span<const std::uint64_t> a,
                                                           std::span<const std::uint64_t> b, std::uint64_t key_mask) {
  const std::size_t lane_keys = key_mask <= 0xffffffff ? 16 : 8;
  if ((b.size() + lane_keys - 1) / lane_keys * a.size() < (a.size() + lane_keys - 1) / lane_keys * b.size())
    std::swap(a, b);
  constexpr std::size_t kMostQueriesARun = std::size_t{1} << 31;
  __m512i total = _mm512_setzero_si512();
  for (std::size_t first = 0; first < b.size(); first += kMostQueriesARun)
    total = _mm512_add_epi64(
        total, count_held_blocks(a, b.subspan(first, std::min(kMostQueriesARun, b.size() - first)), key_mask));
  return WideLanes::sum(total);
}

}  // namespace nqueens::join::detail

#endif
