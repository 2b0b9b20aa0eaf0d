#include "dfs/breadth.hpp"

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

TwoRows finish_two_rows_scalar(const Level& in, const RowRule& second_last, const RowRule& last,
                               std::vector<Leaf>* leaves) {
  TwoRows found;
  for (std::size_t i = 0; i < in.size; ++i) {
    for (Mask free = free_columns(in, i, second_last); free != 0; free &= free - 1) {
      const Mask bit = free & (0 - free);
      const Mask end = free_columns(in.cols[i] | bit, (in.left[i] | bit) << 1, (in.right[i] | bit) >> 1, last);
      ++found.second_last;
      if (end == 0) continue;
      ++found.leaves;
      if (leaves) leaves->push_back({static_cast<std::uint32_t>(i), bit, end});
    }
  }
  return found;
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

// Free columns of 8 boards with these attacks, the side-row rule applied per lane.
NQUEENS_AVX2 __m256i free_lanes(__m256i cols, __m256i left, __m256i right, const RowRule& rule) {
  const __m256i attacked = _mm256_or_si256(cols, _mm256_or_si256(left, right));
  __m256i free = _mm256_andnot_si256(attacked, _mm256_set1_epi32(static_cast<int>(rule.allowed)));
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

// `values` with the lanes of boards past a level's end cleared: `count` boards are left from the
// group's first (the last group of a level may be partial).
NQUEENS_AVX2 __m256i within_level(__m256i values, std::size_t count) {
  if (count >= kLanes) return values;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_and_si256(values, _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lane));
}

// The lanes (bit k: lane k) whose value is not zero.
NQUEENS_AVX2 unsigned nonzero_lanes(__m256i values) {
  const __m256i zero = _mm256_cmpeq_epi32(values, _mm256_setzero_si256());
  return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(zero))) ^ 0xffu;
}

// Finished boards are rare (one in five boards with one row left, 1 % of all nodes at N = 15),
// so spilling their lanes to memory costs little.
NQUEENS_AVX2 void record_leaves(std::size_t first, unsigned lanes, __m256i second_last, __m256i last,
                                std::vector<Leaf>& leaves) {
  alignas(32) std::array<Mask, kLanes> seconds{}, ends{};
  _mm256_store_si256(reinterpret_cast<__m256i*>(seconds.data()), second_last);
  _mm256_store_si256(reinterpret_cast<__m256i*>(ends.data()), last);
  for (; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctz(lanes);
    leaves.push_back({static_cast<std::uint32_t>(first + static_cast<std::size_t>(lane)), seconds[lane], ends[lane]});
  }
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
    __m256i free = within_level(free_lanes(cols, left, right, rule), in.size - i);
    // Each pass takes the lowest free column of every board that still has one.
    while (!_mm256_testz_si256(free, free)) {
      const __m256i bit = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));
      free = _mm256_xor_si256(free, bit);
      const unsigned live = nonzero_lanes(bit);
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

// Each pass takes the lowest free column of every board on the second-last row, and checks in
// the same registers whether the last row then has its one column free.
NQUEENS_AVX2 TwoRows finish_two_rows_avx2(const Level& in, const RowRule& second_last, const RowRule& last,
                                          std::vector<Leaf>* leaves) {
  const __m256i zero = _mm256_setzero_si256();
  TwoRows found;
  for (std::size_t i = 0; i < in.size; i += kLanes) {
    const __m256i cols = load(in.cols, i);
    const __m256i left = load(in.left, i);
    const __m256i right = load(in.right, i);
    __m256i free = within_level(free_lanes(cols, left, right, second_last), in.size - i);
    while (!_mm256_testz_si256(free, free)) {
      const __m256i bit = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));
      free = _mm256_xor_si256(free, bit);
      const __m256i end = free_lanes(_mm256_or_si256(cols, bit), _mm256_slli_epi32(_mm256_or_si256(left, bit), 1),
                                     _mm256_srli_epi32(_mm256_or_si256(right, bit), 1), last);
      const unsigned live = nonzero_lanes(bit);
      const unsigned done = nonzero_lanes(end) & live;
      found.second_last += static_cast<unsigned>(__builtin_popcount(live));
      found.leaves += static_cast<unsigned>(__builtin_popcount(done));
      if (leaves && done) record_leaves(i, done, bit, end, *leaves);
    }
  }
  return found;
}

const bool kCpuHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");

}  // namespace

void expand(const Level& in, Level& out, const RowRule& rule, bool with_parents) {
  if (kCpuHasAvx2)
    expand_avx2(in, out, rule, with_parents);
  else
    expand_scalar(in, out, rule, with_parents);
}

TwoRows finish_two_rows(const Level& in, const RowRule& second_last, const RowRule& last, std::vector<Leaf>* leaves) {
  if (kCpuHasAvx2) return finish_two_rows_avx2(in, second_last, last, leaves);
  return finish_two_rows_scalar(in, second_last, last, leaves);
}

const char* breadth_path() { return kCpuHasAvx2 ? "avx2" : "scalar"; }

#else

void expand(const Level& in, Level& out, const RowRule& rule, bool with_parents) {
  expand_scalar(in, out, rule, with_parents);
}

TwoRows finish_two_rows(const Level& in, const RowRule& second_last, const RowRule& last, std::vector<Leaf>* leaves) {
  return finish_two_rows_scalar(in, second_last, last, leaves);
}

const char* breadth_path() { return "scalar"; }

#endif

}  // namespace nqueens::detail
