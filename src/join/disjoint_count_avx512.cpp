// The AVX-512 path: 512 stored keys a block, one vector a table entry, VPOPCNTQ for the count.
#include "join/disjoint_count.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <array>
#include <utility>

// Compiled for AVX-512 whatever the build's -march, and chosen at run time when the CPU has it.
#define NQUEENS_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,popcnt")))

namespace nqueens::join::detail {

namespace {

NQUEENS_AVX512 inline __m512i entry(const char* table, std::uint16_t offset) {
  return _mm512_load_si512(reinterpret_cast<const void*>(table + offset));
}

// Four queries at a time keep four independent AND chains in flight while the block's tables
// stay in L1.
template <std::size_t Active>
NQUEENS_AVX512 std::uint64_t count_matches_avx512_fixed(const MatchJob& job) {
  constexpr std::size_t kQueriesAtOnce = 4;
  __m512i total = _mm512_setzero_si512();
  for (std::size_t block = 0; block < job.blocks; ++block) {
    const char* table = reinterpret_cast<const char*>(job.tables) + block * job.block_bytes;
    const std::uint16_t* offsets = job.offsets;
    std::size_t query = 0;
    for (; query + kQueriesAtOnce <= job.queries; query += kQueriesAtOnce, offsets += kQueriesAtOnce * Active) {
      __m512i first = entry(table, offsets[0]);
      __m512i second = entry(table, offsets[Active]);
      __m512i third = entry(table, offsets[2 * Active]);
      __m512i fourth = entry(table, offsets[3 * Active]);
      for (std::size_t chunk = 1; chunk < Active; ++chunk) {
        first = _mm512_and_si512(first, entry(table, offsets[chunk]));
        second = _mm512_and_si512(second, entry(table, offsets[Active + chunk]));
        third = _mm512_and_si512(third, entry(table, offsets[2 * Active + chunk]));
        fourth = _mm512_and_si512(fourth, entry(table, offsets[3 * Active + chunk]));
      }
      const __m512i pair_sum = _mm512_add_epi64(_mm512_popcnt_epi64(first), _mm512_popcnt_epi64(second));
      const __m512i other_sum = _mm512_add_epi64(_mm512_popcnt_epi64(third), _mm512_popcnt_epi64(fourth));
      total = _mm512_add_epi64(total, _mm512_add_epi64(pair_sum, other_sum));
    }
    for (; query < job.queries; ++query, offsets += Active) {
      __m512i lanes = entry(table, offsets[0]);
      for (std::size_t chunk = 1; chunk < Active; ++chunk)
        lanes = _mm512_and_si512(lanes, entry(table, offsets[chunk]));
      total = _mm512_add_epi64(total, _mm512_popcnt_epi64(lanes));
    }
  }
  // Stored and summed by hand: GCC 12's _mm512_reduce_add_epi64 trips -Wuninitialized.
  alignas(64) std::array<std::uint64_t, 8> sums{};
  _mm512_store_si512(sums.data(), total);
  std::uint64_t sum = 0;
  for (const std::uint64_t lane_sum : sums) sum += lane_sum;
  return sum;
}

template <std::size_t... Active>
constexpr auto avx512_kernels(std::index_sequence<Active...>) {
  return std::array{&count_matches_avx512_fixed<Active + 1>...};
}

}  // namespace

std::uint64_t count_matches_avx512(const MatchJob& job) {
  static constexpr auto kKernels = avx512_kernels(std::make_index_sequence<kMaxActiveChunks>{});
  return kKernels[job.active - 1](job);
}

}  // namespace nqueens::join::detail

#endif
