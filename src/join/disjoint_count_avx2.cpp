// The AVX2 path: 256 stored keys a block, one vector a table entry. AVX2 has no vector
// popcount, so bytes are counted with a nibble lookup (VPSHUFB) and summed with VPSADBW.
#include "join/disjoint_count.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <array>
#include <utility>

// Compiled for AVX2 whatever the build's -march, and chosen at run time when the CPU has it.
#define NQUEENS_AVX2 __attribute__((target("avx2,bmi,popcnt")))

namespace nqueens::join::detail {

namespace {

NQUEENS_AVX2 inline __m256i entry(const char* table, std::uint16_t offset) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(table + offset));
}

// Set bits per byte (0..8).
NQUEENS_AVX2 inline __m256i byte_popcount(__m256i bits) {
  const __m256i nibble_counts = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,  //
                                                 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i low_nibbles = _mm256_set1_epi8(0x0f);
  const __m256i low = _mm256_shuffle_epi8(nibble_counts, _mm256_and_si256(bits, low_nibbles));
  const __m256i high = _mm256_shuffle_epi8(nibble_counts, _mm256_and_si256(_mm256_srli_epi16(bits, 4), low_nibbles));
  return _mm256_add_epi8(low, high);
}

// Four queries at a time keep four independent AND chains in flight; their byte counts (at
// most 4 * 8 = 32 a byte) are summed before one VPSADBW widens them.
template <std::size_t Active>
NQUEENS_AVX2 std::uint64_t count_matches_avx2_fixed(const MatchJob& job) {
  constexpr std::size_t kQueriesAtOnce = 4;
  const __m256i zero = _mm256_setzero_si256();
  __m256i total = zero;
  for (std::size_t block = 0; block < job.blocks; ++block) {
    const char* table = reinterpret_cast<const char*>(job.tables) + block * job.block_bytes;
    const std::uint16_t* offsets = job.offsets;
    std::size_t query = 0;
    for (; query + kQueriesAtOnce <= job.queries; query += kQueriesAtOnce, offsets += kQueriesAtOnce * Active) {
      __m256i first = entry(table, offsets[0]);
      __m256i second = entry(table, offsets[Active]);
      __m256i third = entry(table, offsets[2 * Active]);
      __m256i fourth = entry(table, offsets[3 * Active]);
      for (std::size_t chunk = 1; chunk < Active; ++chunk) {
        first = _mm256_and_si256(first, entry(table, offsets[chunk]));
        second = _mm256_and_si256(second, entry(table, offsets[Active + chunk]));
        third = _mm256_and_si256(third, entry(table, offsets[2 * Active + chunk]));
        fourth = _mm256_and_si256(fourth, entry(table, offsets[3 * Active + chunk]));
      }
      const __m256i bytes = _mm256_add_epi8(_mm256_add_epi8(byte_popcount(first), byte_popcount(second)),
                                            _mm256_add_epi8(byte_popcount(third), byte_popcount(fourth)));
      total = _mm256_add_epi64(total, _mm256_sad_epu8(bytes, zero));
    }
    for (; query < job.queries; ++query, offsets += Active) {
      __m256i lanes = entry(table, offsets[0]);
      for (std::size_t chunk = 1; chunk < Active; ++chunk)
        lanes = _mm256_and_si256(lanes, entry(table, offsets[chunk]));
      total = _mm256_add_epi64(total, _mm256_sad_epu8(byte_popcount(lanes), zero));
    }
  }
  alignas(32) std::array<std::uint64_t, 4> sums{};
  _mm256_store_si256(reinterpret_cast<__m256i*>(sums.data()), total);
  return sums[0] + sums[1] + sums[2] + sums[3];
}

template <std::size_t... Active>
constexpr auto avx2_kernels(std::index_sequence<Active...>) {
  return std::array{&count_matches_avx2_fixed<Active + 1>...};
}

}  // namespace

std::uint64_t count_matches_avx2(const MatchJob& job) {
  static constexpr auto kKernels = avx2_kernels(std::make_index_sequence<kMaxActiveChunks>{});
  return kKernels[job.active - 1](job);
}

}  // namespace nqueens::join::detail

#endif
