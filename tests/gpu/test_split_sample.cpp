// The choice of a row set's widest split where its halves are built (gpu/split_sample.hpp, the
// code nvcc compiles for kernel nq_choose_splits, run here by the host compiler): each side's
// sample against the join's own enumeration (join::HalfEnumerator) for every side of every unit of
// N = 4..16 and a sample of N = 17..20, the bits chosen against the host's SlotSplit choice
// (most_shared_bits), and the room the host leaves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpu/batch_plan.hpp"
#include "gpu/side_recipe.hpp"
#include "gpu/slot_split.hpp"
#include "gpu/split_sample.hpp"
#include "join/diagonal_fold.hpp"
#include "join/half_boards.hpp"
#include "join/join_layout.hpp"
#include "join/join_plan.hpp"
#include "join/slice_cache.hpp"

namespace nqueens::gpu {
namespace {

// A side as a device holds it: its north slice's entries, then its south one's.
struct HeldSide {
  std::vector<SetPairing> pairings;
  std::vector<join::QuarterEntry> entries;
  SideRecipe recipe;
};

HeldSide held_side(const join::QuarterSlice& north, const join::QuarterSlice& south, const join::UnitLayout& layout,
                   const join::SideLayout& side, const join::SideFold* fold) {
  HeldSide held;
  held.recipe = side_recipe(north, south, layout, side, fold, held.pairings);
  held.entries.assign(north.entries().begin(), north.entries().end());
  held.recipe.south_entries = held.entries.size();
  held.entries.insert(held.entries.end(), south.entries().begin(), south.entries().end());
  return held;
}

struct Sampled {
  std::size_t whole = 0, partial = 0;  // sides sampled whole, and in part
  double halves = 0, estimated = 0;    // the partly sampled sides' halves, and as estimated
};

// A side of no more candidates than a sample takes is sampled whole: its halves are the join's,
// bit for bit; a larger one tests about kSampleCandidates of them, and estimates its halves.
void expect_the_joins_sample(int n, std::size_t stride, Sampled& sampled) {
  SCOPED_TRACE("N=" + std::to_string(n));
  join::SliceCache cache(n, UINT64_MAX);
  join::HalfEnumerator enumerator;
  join::KeyBuffer keys;
  const join::JoinPlan plan = join::split(n);
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
        if (side_fold)
          enumerator.enumerate_folded({north->slice}, {south->slice}, layout, side, *side_fold, keys);
        else
          enumerator.enumerate({north->slice}, {south->slice}, layout, side, keys);
        const HeldSide held = held_side(north->slice, south->slice, layout, side, side_fold);
        const int key_bits = layout.key_bits();
        const SideSample sample = sample_side(held.recipe, held.pairings.data(), held.entries.data(), key_bits);
        const std::string where = "unit " + std::to_string(id) + " row set " + std::to_string(rows);
        if (sample.candidates <= kSampleCandidates) {
          ASSERT_EQ(sample.tested, sample.candidates) << where;
          ASSERT_EQ(sample.kept, keys.size()) << where;
          const BitCounts want = count_bits(keys.keys(), key_bits);
          for (std::size_t bit = 0; bit < 64; ++bit) ASSERT_EQ(sample.bits[bit], want[bit]) << where << " bit " << bit;
          ++sampled.whole;
        } else {
          ASSERT_GE(sample.tested, kSampleCandidates) << where;
          ASSERT_LT(sample.tested, 2 * kSampleCandidates) << where;
          sampled.halves += static_cast<double>(keys.size());
          sampled.estimated += sample.estimated_halves();
          ++sampled.partial;
        }
      }
    }
  }
}

TEST(SplitSample, EachSideIsSampledFromTheJoinsHalvesForEveryUnitOfN4To16) {
  Sampled sampled;
  for (int n = 4; n <= 16; ++n) expect_the_joins_sample(n, 1, sampled);
  EXPECT_GT(sampled.whole, 1000u);
  EXPECT_GT(sampled.partial, 100u);
  // Over many sides, the estimates sum to the halves within a few percent.
  EXPECT_NEAR(sampled.estimated / sampled.halves, 1.0, 0.03);
}

TEST(SplitSample, ASampleOfN17To20IsSampledFromTheJoinsHalves) {
  Sampled sampled;
  for (int n = 17; n <= 20; ++n) expect_the_joins_sample(n, n <= 18 ? 41 : 997, sampled);
  EXPECT_GT(sampled.partial, 100u);
  EXPECT_NEAR(sampled.estimated / sampled.halves, 1.0, 0.03);
}

// The bits chosen from two sides' counts rule out as many pairs, bit after bit, as those of
// the host's choice (SlotSplit's most_shared_bits, a partial sort); among equals the lower bit.
TEST(SplitSample, TheSplitsBitsAreThoseThatRuleOutTheMostPairs) {
  std::mt19937_64 random(44);
  for (int round = 0; round < 2000; ++round) {
    BitCounts one{}, other{};
    const int key_bits = 1 + static_cast<int>(random() % 60);
    const std::uint64_t spread = round % 3 == 0 ? 4 : 5000;  // few values: many equal products
    for (std::size_t bit = 0; bit < 64; ++bit) {
      one[bit] = random() % spread;
      other[bit] = random() % spread;
    }
    const int max_bits = static_cast<int>(random() % (kMaxSplitBits + 2));
    std::uint8_t bits[kMaxSplitBits] = {};
    const int count = choose_shared_bits(one.data(), other.data(), key_bits, max_bits, bits);
    const SlotSplit want = most_shared_bits(one, other, key_bits, max_bits);
    ASSERT_EQ(count, want.count()) << "round " << round;
    for (int i = 0; i < count; ++i) {
      const auto shared = [&](int bit) {
        return one[static_cast<std::size_t>(bit)] * other[static_cast<std::size_t>(bit)];
      };
      ASSERT_EQ(shared(bits[i]), shared(want.bit(i))) << "round " << round << " bit " << i;
      ASSERT_LT(bits[i], key_bits);
      if (i > 0 && shared(bits[i]) == shared(bits[i - 1])) {
        ASSERT_LT(bits[i - 1], bits[i]) << "the lower bit first";
      }
    }
  }
}

// A row set's two sides as a batch holds them, its pairings and its slices' entries.
struct HeldRowSet {
  std::vector<SetPairing> pairings;
  std::vector<join::QuarterEntry> entries;
  std::vector<SideSort> sides = std::vector<SideSort>(2);
};

HeldRowSet held_row_set(join::SliceCache& cache, const join::UnitLayout& layout) {
  HeldRowSet held;
  for (std::size_t s = 0; s < 2; ++s) {
    const join::SideLayout& side = s == 0 ? layout.east : layout.west;
    const auto north = cache.get(side.north_rows), south = cache.get(side.south_rows);
    SideRecipe& recipe = held.sides[s].recipe;
    recipe = side_recipe(north->slice, south->slice, layout, side, nullptr, held.pairings);
    recipe.north_entries = held.entries.size();
    held.entries.insert(held.entries.end(), north->slice.entries().begin(), north->slice.entries().end());
    recipe.south_entries = held.entries.size();
    held.entries.insert(held.entries.end(), south->slice.entries().begin(), south->slice.entries().end());
  }
  return held;
}

// The row set of N = 18's first units with the most candidates on its smaller side: with room,
// split on the bits the whole sample of its sides (sample_side, one part) chooses, whatever the
// block's threads or the order of its steps; without room, left unsplit and untested; and a rule
// that asks more keys than its sides hold splits none.
TEST(SplitSample, ARowSetIsSplitWhereTheHostLeftRoomAndItsSidesAreLarge) {
  const int n = 18;
  join::SliceCache cache(n, UINT64_MAX);
  const join::JoinPlan plan = join::split(n);
  join::UnitLayout layout;
  std::uint64_t most = 0;
  for (std::size_t id = 0; id < 40; ++id)
    for (const std::uint32_t rows : join::row_sets(n, plan.units[id])) {
      const join::UnitLayout candidate = join::layout_of(n, join::with_rows(plan.units[id], rows));
      const HeldRowSet held = held_row_set(cache, candidate);
      const std::uint64_t smaller = std::min(candidates_of(held.sides[0].recipe, held.pairings.data()),
                                             candidates_of(held.sides[1].recipe, held.pairings.data()));
      if (smaller > most) {
        most = smaller;
        layout = candidate;
      }
    }
  ASSERT_GT(most, kSampleCandidates) << "a side sampled in part";
  HeldRowSet held = held_row_set(cache, layout);
  const std::vector<SetPairing>& pairings = held.pairings;
  const std::vector<join::QuarterEntry>& entries = held.entries;
  const std::vector<SideSort>& sides = held.sides;
  PlanRowSet row_set;
  row_set.key_bits = static_cast<std::uint32_t>(layout.key_bits());
  PlanRule rule;
  rule.least_stored = std::uint64_t{2} * kTileLanes;
  const auto room = std::make_unique<ChooseRoom>();
  std::vector<SideSort> chosen = sides;
  EXPECT_EQ(choose_row_set_split(HostBlock{kChooseThreads}, chosen.data(), &row_set, 0, pairings.data(), entries.data(),
                                 rule, *room),
            0u);
  EXPECT_EQ(chosen[0].rule.count, 0) << "no room, no split";

  chosen = sides;
  chosen[0].rule.count = chosen[1].rule.count = 3;
  EXPECT_GT(choose_row_set_split(HostBlock{kChooseThreads}, chosen.data(), &row_set, 0, pairings.data(), entries.data(),
                                 rule, *room),
            0u);
  ASSERT_EQ(chosen[0].rule.count, 3) << "as wide as the room";
  const SideSample east = sample_side(sides[0].recipe, pairings.data(), entries.data(), layout.key_bits());
  const SideSample west = sample_side(sides[1].recipe, pairings.data(), entries.data(), layout.key_bits());
  ASSERT_GT(east.kept + west.kept, 0u);
  // The block's sums are the whole sample's, part by part.
  const auto expect_the_whole_samples = [&](const ChooseRoom& summed) {
    for (std::size_t s = 0; s < 2; ++s) {
      const SideSample& whole = s == 0 ? east : west;
      EXPECT_TRUE(std::equal(whole.bits, whole.bits + 64, summed.sums[s])) << "side " << s;
      EXPECT_EQ(summed.sums[s][64], whole.kept) << "side " << s;
      EXPECT_EQ(summed.sums[s][65], whole.tested) << "side " << s;
    }
  };
  expect_the_whole_samples(*room);
  std::uint8_t want[kMaxSplitBits] = {};
  ASSERT_EQ(choose_shared_bits(east.bits, west.bits, layout.key_bits(), 3, want), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(chosen[0].rule.bits[i], want[i]);
    EXPECT_EQ(chosen[1].rule.bits[i], want[i]);
  }

  // The block's steps in reverse order, on a block of one warp: the same choice.
  std::vector<SideSort> reversed = sides;
  reversed[0].rule.count = reversed[1].rule.count = 3;
  choose_row_set_split(HostBlock{32, true}, reversed.data(), &row_set, 0, pairings.data(), entries.data(), rule, *room);
  expect_the_whole_samples(*room);
  for (std::size_t s = 0; s < 2; ++s) {
    EXPECT_EQ(reversed[s].rule.count, chosen[s].rule.count);
    EXPECT_TRUE(std::equal(reversed[s].rule.bits, reversed[s].rule.bits + kMaxSplitBits, chosen[s].rule.bits));
  }

  chosen = sides;
  chosen[0].rule.count = chosen[1].rule.count = 3;
  rule.least_stored = static_cast<std::uint64_t>(4 * std::max(east.estimated_halves(), west.estimated_halves()));
  choose_row_set_split(HostBlock{kChooseThreads}, chosen.data(), &row_set, 0, pairings.data(), entries.data(), rule,
                       *room);
  EXPECT_EQ(chosen[0].rule.count, 0) << "sides well short of the least stored";
  EXPECT_EQ(chosen[1].rule.count, 0);
}

}  // namespace
}  // namespace nqueens::gpu
