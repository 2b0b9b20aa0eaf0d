// The halves a device builds from a row set's slices (gpu/half_build.hpp, the code nvcc compiles
// for the device, run here by the host compiler) against the join's own enumeration
// (join::HalfEnumerator), side by side, in the same order and with the same ties: every unit of
// N = 4..16 and a strided sample of N = 17..20; and each side sorted into buckets, as the
// device sorts it, against the join's halves sorted by bucket. And the slot patterns the device
// sorts keys by against the host's SlotSplit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpu/half_build.hpp"
#include "gpu/side_recipe.hpp"
#include "gpu/slot_split.hpp"
#include "join/diagonal_fold.hpp"
#include "join/half_boards.hpp"
#include "join/join_layout.hpp"
#include "join/join_plan.hpp"
#include "join/slice_cache.hpp"

namespace nqueens::gpu {
namespace {

struct Built {
  std::vector<std::uint64_t> keys;
  std::uint64_t ties = 0;
};

// The side as a device is sent it: the two slices' entries one after the other, its pairings,
// and scratch for one group's keys of each quadrant.
Built build_from_slices(const join::QuarterSlice& north, const join::QuarterSlice& south,
                        const join::UnitLayout& layout, const join::SideLayout& side, const join::SideFold* fold) {
  std::vector<SetPairing> pairings;
  SideRecipe recipe = side_recipe(north, south, layout, side, fold, pairings);
  std::vector<join::QuarterEntry> entries(north.entries().begin(), north.entries().end());
  recipe.north_entries = 0;
  recipe.south_entries = entries.size();
  entries.insert(entries.end(), south.entries().begin(), south.entries().end());
  std::vector<std::uint64_t> north_keys(largest_group(north) + 1), south_keys(largest_group(south) + 1);
  Built built;
  const std::uint64_t count =
      build_side(recipe, pairings.data(), entries.data(), north_keys.data(), south_keys.data(), nullptr, &built.ties);
  built.keys.resize(count);
  const std::uint64_t written = build_side(recipe, pairings.data(), entries.data(), north_keys.data(),
                                           south_keys.data(), built.keys.data(), &built.ties);
  EXPECT_EQ(written, count) << "counting and writing make as many halves";
  return built;
}

// A split on `count` distinct key bits, spread over the key and shifted by `seed`.
BucketRule bucket_rule(int key_bits, int count, int seed, bool part_major) {
  BucketRule rule;
  rule.part_major = part_major;
  rule.count = std::min(count, key_bits);
  for (int i = 0; i < rule.count; ++i)
    rule.bits[i] = static_cast<std::uint8_t>((seed + i * std::max(1, key_bits / rule.count)) % key_bits);
  std::sort(rule.bits, rule.bits + rule.count);
  rule.count = static_cast<std::int32_t>(std::unique(rule.bits, rule.bits + rule.count) - rule.bits);
  return rule;
}

// The side's halves sorted into buckets on the device (sort_side: a counting pass, the buckets'
// starts, a writing pass) against the obviously right way: the join's halves, stably sorted by
// bucket.
void expect_sorted_like_the_joins(const join::QuarterSlice& north, const join::QuarterSlice& south,
                                  const join::UnitLayout& layout, const join::SideLayout& side,
                                  const join::SideFold* fold, std::span<const std::uint64_t> halves, std::size_t ties,
                                  const BucketRule& rule) {
  std::vector<SetPairing> pairings;
  SideRecipe recipe = side_recipe(north, south, layout, side, fold, pairings);
  std::vector<join::QuarterEntry> entries(north.entries().begin(), north.entries().end());
  recipe.south_entries = entries.size();
  entries.insert(entries.end(), south.entries().begin(), south.entries().end());
  const std::uint32_t buckets = 2u << rule.count;
  std::vector<std::uint32_t> next(buckets, 0);
  const std::uint64_t counted = sort_side(recipe, pairings.data(), entries.data(), rule, next.data(), nullptr);
  ASSERT_EQ(counted, halves.size());
  std::vector<std::uint32_t> starts(buckets + 1, 0);
  for (std::uint32_t b = 0; b < buckets; ++b) starts[b + 1] = starts[b] + next[b];
  std::copy(starts.begin(), starts.end() - 1, next.begin());
  std::vector<std::uint64_t> sorted(counted);
  ASSERT_EQ(sort_side(recipe, pairings.data(), entries.data(), rule, next.data(), sorted.data()), counted);
  EXPECT_TRUE(std::equal(next.begin(), next.end(), starts.begin() + 1)) << "each bucket filled to the next's start";

  std::vector<std::pair<std::uint32_t, std::uint64_t>> by_bucket(halves.size());
  for (std::size_t i = 0; i < halves.size(); ++i) {
    const std::uint32_t part = i < ties ? 0 : 1;
    by_bucket[i] = {bucket_of(split_pattern(halves[i], rule.bits, rule.count), part, 1u << rule.count, rule.part_major),
                    halves[i]};
  }
  std::stable_sort(by_bucket.begin(), by_bucket.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < halves.size(); ++i) ASSERT_EQ(sorted[i], by_bucket[i].second) << i;

  // A block's threads (sort_side_on_host, the kernel's steps) count the same buckets and fill
  // them with the same halves, each bucket in the threads' order.
  const SideSort sort{recipe, rule, 0, 0};
  std::fill(next.begin(), next.end(), 0);
  sort_side_on_host(sort, pairings.data(), entries.data(), next.data(), nullptr, 3, 5);  // 5 south keys at once
  for (std::uint32_t b = 0; b < buckets; ++b) ASSERT_EQ(next[b], starts[b + 1] - starts[b]) << "bucket " << b;
  std::copy(starts.begin(), starts.end() - 1, next.begin());
  std::vector<std::uint64_t> by_threads(counted);
  sort_side_on_host(sort, pairings.data(), entries.data(), next.data(), by_threads.data(), 3);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    const auto first = static_cast<std::ptrdiff_t>(starts[b]), last = static_cast<std::ptrdiff_t>(starts[b + 1]);
    std::sort(by_threads.begin() + first, by_threads.begin() + last);
    std::sort(sorted.begin() + first, sorted.begin() + last);
  }
  ASSERT_EQ(by_threads, sorted);
}

// Every row set of every `stride`-th unit of n: both sides, folded as the join folds them.
void expect_the_joins_halves(int n, std::size_t stride) {
  SCOPED_TRACE("N=" + std::to_string(n));
  join::SliceCache cache(n, UINT64_MAX);
  join::HalfEnumerator enumerator;
  join::KeyBuffer keys;
  const join::JoinPlan plan = join::split(n);
  std::uint64_t halves = 0;
  for (std::size_t id = 0; id < plan.units.size(); id += stride) {
    const join::JoinUnit& unit = plan.units[id];
    for (const std::uint32_t rows : join::row_sets(n, unit)) {
      const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
      const join::DiagonalFold fold = join::diagonal_fold(layout);
      const bool folded = unit.kind != join::JoinCase::off_centre;
      for (const bool east : {true, false}) {
        const join::SideLayout& side = east ? layout.east : layout.west;
        const join::SideFold* side_fold = folded ? (east ? &fold.east : &fold.west) : nullptr;
        const auto north = cache.get(side.north_rows), south = cache.get(side.south_rows);
        std::size_t ties = 0;
        if (side_fold) {
          ties = enumerator.enumerate_folded({north->slice}, {south->slice}, layout, side, *side_fold, keys);
        } else {
          enumerator.enumerate({north->slice}, {south->slice}, layout, side, keys);
          ties = keys.size();
        }
        const Built built = build_from_slices(north->slice, south->slice, layout, side, side_fold);
        const std::vector<std::uint64_t> want(keys.keys().begin(), keys.keys().end());
        ASSERT_EQ(built.keys, want) << "unit " << id << " row set " << rows << (east ? " east" : " west");
        ASSERT_EQ(built.ties, ties) << "unit " << id << " row set " << rows << (east ? " east" : " west");
        const BucketRule rule = bucket_rule(layout.key_bits(), static_cast<int>((id + rows) / 3 % (kMaxSplitBits + 1)),
                                            static_cast<int>(id), (id + rows) % 2 == 0);
        if ((id + rows) % 3 == 0) {  // a third of the sides: seconds, not tens of them
          expect_sorted_like_the_joins(north->slice, south->slice, layout, side, side_fold, want, ties, rule);
          if (testing::Test::HasFatalFailure()) return;
        }
        halves += want.size();
      }
    }
  }
  EXPECT_GT(halves, 0u);
}

TEST(GpuHalves, EveryUnitOfN4To16IsTheJoinsHalvesInOrder) {
  for (int n = 4; n <= 16; ++n) expect_the_joins_halves(n, 1);
}

TEST(GpuHalves, ASampleOfN17To20IsTheJoinsHalvesInOrder) {
  for (int n = 17; n <= 20; ++n) expect_the_joins_halves(n, n <= 18 ? 41 : 997);
}

// A side whose rows and columns differ in number holds no half: no pairing, nothing built.
TEST(GpuHalves, AnUnbalancedSideHasNoPairings) {
  const int n = 8;
  const join::UnitLayout layout = join::layout_of(n, join::JoinUnit{join::JoinCase::even, 0, 0, 0b1, 1});
  join::SideLayout side = layout.east;
  side.columns = 0b11;  // two columns for one row
  join::SliceCache cache(n, UINT64_MAX);
  std::vector<SetPairing> pairings;
  const SideRecipe recipe = side_recipe(cache.get(side.north_rows)->slice, cache.get(side.south_rows)->slice, layout,
                                        side, nullptr, pairings);
  EXPECT_EQ(recipe.pairing_count, 0u);
  EXPECT_TRUE(pairings.empty());
}

// The pattern a device computes bit by bit is the one the host's byte tables give.
TEST(GpuHalves, ASplitPatternIsTheHostsSlotSplitPattern) {
  std::mt19937_64 random(44);
  for (int count = 0; count <= kMaxSplitBits; ++count) {
    std::vector<int> bits;
    std::vector<std::uint8_t> narrow;
    std::uniform_int_distribution<int> bit(0, kMaxKeyBits - 1);
    while (static_cast<int>(bits.size()) < count) {
      const int b = bit(random);
      if (std::find(bits.begin(), bits.end(), b) != bits.end()) continue;
      bits.push_back(b);
      narrow.push_back(static_cast<std::uint8_t>(b));
    }
    const SlotSplit split(bits);
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t key = random();
      ASSERT_EQ(split_pattern(key, narrow.data(), count), split.pattern_of(key)) << count;
    }
  }
  EXPECT_EQ(bucket_of(3, 1, 8, true), 11u) << "part major: part 1's groups after part 0's";
  EXPECT_EQ(bucket_of(3, 1, 8, false), 7u) << "slot major: a slot's two parts together";
}

}  // namespace
}  // namespace nqueens::gpu
