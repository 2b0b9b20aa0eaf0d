#include "breadth.hpp"

#include <array>

#if defined(__x86_64__)
#include <immintrin.h>
#define NQUEENS_HAVE_AVX2_PATH 1
// Compiled for AVX2 whatever the build's -march, and chosen at run time when the CPU has it.
#define NQUEENS_AVX2 __attribute__((target("avx2,bmi,popcnt")))
#endif

namespace nqueens::detail {

namespace {

constexpr std::size_t kLanes = 8;
// A board has at most 32 children; one block of 8 parents can add 8 * 32 before the next check.
constexpr std::size_t kBlockSlack = kLanes * 32 + kLanes;

void ensure_room(Level& level, std::size_t needed, bool with_parents) {
  if (level.cols.size() < needed || (with_parents && level.parent.size() < needed))
    level.reserve(needed * 2, with_parents);
}

}  // namespace

void Level::reserve(std::size_t count, bool with_parents) {
  const std::size_t room = count + kBlockSlack;
  auto grow = [room](auto& values) {
    if (values.size() < room) values.resize(room);
  };
  grow(cols);
  grow(left);
  grow(right);
  if (with_parents) grow(parent);
}

Mask free_columns(Mask cols, Mask left, Mask right, const RowRule& rule) {
  Mask free = rule.allowed & ~(cols | left | right);
  if (rule.force_sides) {
    const Mask empty_sides = rule.sides & ~cols;
    if (empty_sides == rule.sides) return 0;
    if (empty_sides != 0) free &= empty_sides;
  }
  return free;
}

void expand_scalar(const Level& in, Level& out, const RowRule& rule, bool with_parents) {
  std::size_t size = 0;
  for (std::size_t i = 0; i < in.size; ++i) {
    ensure_room(out, size + 32, with_parents);
    for (Mask free = free_columns(in, i, rule); free != 0; free &= free - 1) {
      const Mask bit = free & (0 - free);
      out.cols[size] = in.cols[i] | bit;
      out.left[size] = (in.left[i] | bit) << 1;
      out.right[size] = (in.right[i] | bit) >> 1;
      if (with_parents) out.parent[size] = static_cast<std::uint32_t>(i);
      ++size;
    }
  }
  out.size = size;
}

#if defined(NQUEENS_HAVE_AVX2_PATH)

namespace {

// For each 8-bit lane mask, the lane indices of its set bits packed to the front: with
// _mm256_permutevar8x32_epi32 this stands in for the compress-store AVX2 lacks.
struct PackTable {
  alignas(32) std::array<std::array<std::uint32_t, kLanes>, 256> lanes{};
  PackTable() {
    for (unsigned mask = 0; mask < 256; ++mask) {
      std::size_t k = 0;
      for (unsigned lane = 0; lane < kLanes; ++lane)
        if (mask >> lane & 1) lanes[mask][k++] = lane;
    }
  }
};
const PackTable kPack;

NQUEENS_AVX2 __m256i load(const std::vector<Mask>& v, std::size_t i) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v.data() + i));
}

NQUEENS_AVX2 void store_packed(std::vector<Mask>& v, std::size_t at, __m256i values, __m256i order) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(v.data() + at), _mm256_permutevar8x32_epi32(values, order));
}

// Free columns of 8 boards, lanes past `count` cleared, the side-row rule applied per lane.
NQUEENS_AVX2 __m256i free_lanes(const Level& in, std::size_t i, const RowRule& rule, __m256i cols) {
  const __m256i attacked = _mm256_or_si256(cols, _mm256_or_si256(load(in.left, i), load(in.right, i)));
  __m256i free = _mm256_andnot_si256(attacked, _mm256_set1_epi32(static_cast<int>(rule.allowed)));
  const std::size_t count = in.size - i;
  if (count < kLanes) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    free = _mm256_and_si256(free, _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lane));
  }
  if (rule.force_sides) {
    const __m256i sides = _mm256_set1_epi32(static_cast<int>(rule.sides));
    const __m256i empty = _mm256_andnot_si256(cols, sides);
    const __m256i both_empty = _mm256_cmpeq_epi32(empty, sides);
    const __m256i one_empty = _mm256_andnot_si256(_mm256_cmpeq_epi32(empty, _mm256_setzero_si256()),
                                                  _mm256_xor_si256(both_empty, _mm256_set1_epi32(-1)));
    free = _mm256_andnot_si256(both_empty, free);
    free = _mm256_blendv_epi8(free, _mm256_and_si256(free, empty), one_empty);
  }
  return free;
}

NQUEENS_AVX2 void expand_avx2(const Level& in, Level& out, const RowRule& rule, bool with_parents) {
  const __m256i zero = _mm256_setzero_si256();
  std::size_t size = 0;
  for (std::size_t i = 0; i < in.size; i += kLanes) {
    ensure_room(out, size + kBlockSlack, with_parents);
    const __m256i cols = load(in.cols, i);
    const __m256i left = load(in.left, i);
    const __m256i right = load(in.right, i);
    const __m256i parents =
        _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i free = free_lanes(in, i, rule, cols);
    // Each pass takes the lowest free column of every board that still has one.
    while (!_mm256_testz_si256(free, free)) {
      const __m256i bit = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));
      free = _mm256_xor_si256(free, bit);
      const unsigned live =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bit, zero)))) ^ 0xffu;
      const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPack.lanes[live].data()));
      store_packed(out.cols, size, _mm256_or_si256(cols, bit), order);
      store_packed(out.left, size, _mm256_slli_epi32(_mm256_or_si256(left, bit), 1), order);
      store_packed(out.right, size, _mm256_srli_epi32(_mm256_or_si256(right, bit), 1), order);
      if (with_parents)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.parent.data() + size),
                            _mm256_permutevar8x32_epi32(parents, order));
      size += static_cast<std::size_t>(__builtin_popcount(live));
    }
  }
  out.size = size;
}

const bool kCpuHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");

}  // namespace

void expand(const Level& in, Level& out, const RowRule& rule, bool with_parents) {
  if (kCpuHasAvx2)
    expand_avx2(in, out, rule, with_parents);
  else
    expand_scalar(in, out, rule, with_parents);
}

#else

void expand(const Level& in, Level& out, const RowRule& rule, bool with_parents) {
  expand_scalar(in, out, rule, with_parents);
}

#endif

}  // namespace nqueens::detail
