// The join in bounded memory: slices against the whole quarter table, every unit's counts under
// a budget that forces the slice cache to evict (or a side into parts) against an unbounded cache, the memory plan's
// refusal, the execution order, a stopped setup, and the --memory sizes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/memory_budget.hpp"
#include "engine/parallel_each.hpp"
#include "engine/setup_stop.hpp"
#include "join/diagonal_fold.hpp"
#include "join/half_boards.hpp"
#include "join/join_engine.hpp"
#include "join/join_kernel.hpp"
#include "join/join_memory.hpp"
#include "join/join_plan.hpp"
#include "join/quarter_slice.hpp"
#include "join/quarter_table.hpp"
#include "join/slice_cache.hpp"
#include "join/south_key_cache.hpp"
#include "nqueens/nqueens.hpp"
#include "run/schedule.hpp"
#include "system/memory_limit.hpp"

namespace nqueens {
namespace {

TEST(QuarterSlice, EqualsTheTablesGroupsOfItsRowSet) {
  for (int k = 1; k <= 8; ++k) {
    const join::QuarterTable table(k);
    std::size_t entries = 0;
    for (std::uint32_t rows = 0; rows < (std::uint32_t{1} << k); ++rows) {
      const join::QuarterSlice slice(k, rows);
      entries += slice.entries().size();
      EXPECT_EQ(slice.entries().size(), join::placements_per_row_set(k)[rows]);
      const auto sets = table.column_sets(std::popcount(rows));
      ASSERT_TRUE(std::equal(sets.begin(), sets.end(), slice.column_sets().begin(), slice.column_sets().end()));
      std::uint64_t in_table = 0;
      for (std::uint32_t columns = 0; columns < (std::uint32_t{1} << k); ++columns) {
        const auto want = table.group(rows, columns);
        const auto got = slice.group(columns);
        in_table += want.size();
        ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin(), got.end(),
                               [](const join::QuarterEntry& a, const join::QuarterEntry& b) {
                                 return a.sums == b.sums && a.differences == b.differences;
                               }))
            << "k = " << k << " rows " << rows << " columns " << columns;
      }
      EXPECT_EQ(join::count_placements(k, rows), in_table) << "k = " << k << " rows " << rows;
      EXPECT_EQ(slice.memory_bytes(), join::slice_bytes(k, std::popcount(rows), slice.entries().size()));
    }
    EXPECT_EQ(entries, table.entry_count());
  }
}

TEST(SliceCache, KeepsPinnedSlicesAndEvictsBeyondItsBudget) {
  join::SliceCache cache(16, 0);  // holds nothing it need not
  const join::SliceCache::Pin pinned = cache.get(0b10110101);
  const join::SliceCache::Pin again = cache.get(0b10110101);
  EXPECT_EQ(pinned.get(), again.get()) << "a pinned slice is never built twice";
  EXPECT_EQ(cache.builds(), 1u);
  cache.get(0b1111);  // built, and dropped by the next get: nothing pins it any more
  cache.get(0b0011);
  cache.get(0b1111);
  EXPECT_EQ(cache.builds(), 4u);
  EXPECT_EQ(cache.get(0b10110101).get(), pinned.get()) << "never evicted while pinned";
  join::SliceCache unbounded(16, UINT64_MAX);
  unbounded.get(0b1111);
  unbounded.get(0b1111);
  EXPECT_EQ(unbounded.builds(), 1u);
}

// The run of N = 17 after N = 16 in one command takes the slices N = 16 left (engine/kept_tables.hpp):
// both read the quarter table of k = 8, so a slice taken is not built again; a slice the later
// cache built itself is kept over the earlier copy; what the later cache's budget does not hold
// is dropped at once, the least recently used first. Budgets that hold the whole table without
// quadrant keys, so that neither cache carries them (they depend on n).
TEST(SliceCache, TakesTheSlicesOfTheSameKWithinItsOwnBudget) {
  join::SliceCache earlier(16, join::whole_table_bytes(16, false));
  for (const std::uint32_t rows : {0b1111u, 0b0011u, 0b10110101u}) earlier.get(rows);
  const std::uint64_t held = earlier.held_bytes();
  join::SliceCache later(17, join::whole_table_bytes(17, false));
  ASSERT_TRUE(later.same_slices(earlier));
  join::SliceCache::Pin own = later.get(0b0011u);
  later.take_slices(earlier);
  EXPECT_EQ(earlier.held_bytes(), 0u);
  EXPECT_EQ(later.held_bytes(), held);
  EXPECT_EQ(later.get(0b0011u).get(), own.get());
  later.get(0b1111u);
  later.get(0b10110101u);
  EXPECT_EQ(later.builds(), 1u) << "a slice taken was built again";
  own.reset();  // a pinned slice is never dropped
  join::SliceCache small(17, later.slice_bytes(0b10110101u));
  small.take_slices(later);
  EXPECT_EQ(small.held_bytes(), small.budget_bytes()) << "the most recently used slice is the one kept";
  EXPECT_EQ(small.builds(), 0u);
  join::SliceCache other_k(18, join::whole_table_bytes(18, false));
  EXPECT_FALSE(other_k.same_slices(small));
  EXPECT_THROW(other_k.take_slices(small), std::logic_error);
}

// What plan times a unit after: its four slices made, so that counting it builds none.
TEST(JoinCounter, PrepareMakesTheUnitsSlicesAndLeavesItsCountAlone) {
  const join::JoinPlan plan = join::split(14);
  for (const std::size_t id : {std::size_t{0}, plan.units.size() / 2, plan.units.size() - 1}) {
    join::SliceCache cache(14, UINT64_MAX);
    join::JoinCounter prepared(cache);
    prepared.prepare(plan.units[id]);
    const std::uint64_t built = cache.builds();
    EXPECT_GE(built, 1u);
    EXPECT_LE(built, 4u);
    const join::JoinCount counted = prepared.count(plan.units[id]);
    EXPECT_EQ(cache.builds(), built) << "unit " << id << ": the count built a slice prepare left out";
    join::SliceCache cold_cache(14, UINT64_MAX);
    join::JoinCounter cold(cold_cache);
    const join::JoinCount want = cold.count(plan.units[id]);
    EXPECT_EQ(counted.pairs, want.pairs) << "unit " << id;
    EXPECT_EQ(counted.halves, want.halves) << "unit " << id;
  }
}

// Units counted together, in blocks of any size and through a cache that evicts or one that
// does not, count what each counts alone. The batches mix kinds, and off-centre units of
// several north row sets, so that every way a batch's row sets interleave is taken.
TEST(JoinCounter, UnitsCountedTogetherCountWhatEachCountsAlone) {
  for (const int n : {12, 13, 15}) {
    const join::JoinPlan plan = join::split(n);
    join::SliceCache reference_cache(n, UINT64_MAX);
    join::JoinCounter alone(reference_cache);
    std::vector<join::JoinCount> want;
    for (const join::JoinUnit& unit : plan.units) want.push_back(alone.count(unit));
    for (const std::uint64_t cache_bytes : {std::uint64_t{0}, UINT64_MAX}) {
      for (const std::uint64_t block_bytes : {std::uint64_t{0}, std::uint64_t{1} << 14, UINT64_MAX}) {
        join::SliceCache cache(n, cache_bytes);
        join::JoinCounter together(cache, join::best_match_path(), block_bytes);
        for (std::size_t first = 0, size = 1; first < plan.units.size(); first += size, size = size % 37 + 1) {
          const std::size_t last = std::min(first + size, plan.units.size());
          const std::span<const join::JoinUnit> units(plan.units.data() + first, last - first);
          std::vector<join::JoinCount> got(units.size(), join::JoinCount{1, 1});  // overwritten
          together.count_together(units, got);
          for (std::size_t i = 0; i < units.size(); ++i) {
            ASSERT_EQ(got[i].pairs, want[first + i].pairs) << "n = " << n << " unit " << first + i;
            ASSERT_EQ(got[i].halves, want[first + i].halves) << "n = " << n << " unit " << first + i;
          }
        }
      }
    }
  }
}

// A side too large to hold whole is enumerated a part at a time, each part's east halves
// matched against each part of the west: a unit counts the same pairs and halves whatever the
// parts, from one column set's halves a part to the whole side, and the totals are the OEIS's.
TEST(JoinCounter, SidesInPartsCountWhatTheyCountWhole) {
  for (const int n : {10, 11, 12, 13, 14, 15}) {
    const join::JoinPlan plan = join::split(n);
    join::SliceCache cache(n, UINT64_MAX);
    join::JoinCounter whole(cache);
    std::vector<join::JoinCount> want;
    for (const join::JoinUnit& unit : plan.units) want.push_back(whole.count(unit));
    for (const std::uint64_t halves_at_once : {std::uint64_t{1}, std::uint64_t{40}, std::uint64_t{900}}) {
      join::JoinCounter in_parts(cache, join::best_match_path(), UINT64_MAX, halves_at_once);
      std::uint64_t total = 0;
      for (std::size_t i = 0; i < plan.units.size(); ++i) {
        const join::JoinCount got = in_parts.count(plan.units[i]);
        ASSERT_EQ(got.pairs, want[i].pairs) << "n = " << n << " unit " << i << " parts of " << halves_at_once;
        ASSERT_EQ(got.halves, want[i].halves) << "n = " << n << " unit " << i << " parts of " << halves_at_once;
        total += got.pairs * plan.units[i].weight;
      }
      EXPECT_EQ(total, oeis_total(n).value()) << "n = " << n;  // the rotation unit adds no total
    }
  }
}

// The parts of a side are its halves in order, with the ranks' ties first: together they are
// the whole side's halves, none holds more than it was given, and a rewind starts them again.
TEST(HalfEnumerator, ASidesPartsAreItsHalvesInOrder) {
  const int n = 14;
  const std::uint64_t most = 50;
  join::SliceCache cache(n, UINT64_MAX);
  join::HalfEnumerator enumerator;
  join::KeyBuffer whole, part;
  std::size_t sides_in_parts = 0;
  for (const join::JoinUnit& unit : join::split(n).units) {
    for (const std::uint32_t rows : join::row_sets(n, unit)) {
      const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
      const join::DiagonalFold fold = join::diagonal_fold(layout);
      const auto north = cache.get(layout.east.north_rows), south = cache.get(layout.east.south_rows);
      const join::SliceView north_view{north->slice}, south_view{south->slice};
      const std::size_t ties =
          enumerator.enumerate_folded(north_view, south_view, layout, layout.east, fold.east, whole);
      const std::vector<std::uint64_t> want(whole.keys().begin(), whole.keys().end());
      enumerator.load(north_view, south_view, layout, layout.east, &fold.east, most);
      for (int pass = 0; pass < 2; ++pass) {
        std::vector<std::uint64_t> got;
        std::size_t got_ties = 0, parts = 0;
        bool past_ties = false;
        do {
          const std::size_t part_ties = enumerator.next_part(part);
          ++parts;
          ASSERT_LE(part.size(), most);
          ASSERT_LE(part_ties, part.size());
          ASSERT_TRUE(!past_ties || part_ties == 0) << "ties come first";
          past_ties = past_ties || part_ties < part.size();
          got_ties += part_ties;
          got.insert(got.end(), part.keys().begin(), part.keys().end());
        } while (!enumerator.exhausted());
        ASSERT_EQ(got, want) << "unit rows " << unit.rows << " row set " << rows;
        ASSERT_EQ(got_ties, ties) << "unit rows " << unit.rows << " row set " << rows;
        sides_in_parts += parts > 1 ? 1 : 0;
        enumerator.rewind();
      }
    }
  }
  EXPECT_GT(sides_in_parts, 0u) << "some side of n = 14 has more than 50 halves";
}

// Pairing north and south keys packs several north keys into one register when the south group
// is small: every north size around a register's eight lanes against every south group size up
// to past eight, against the nested loop, halves in the same order.
TEST(HalfEnumerator, PairingsMakeTheHalvesOfTheNestedLoopInItsOrder) {
  std::mt19937_64 rng(45);
  std::vector<std::vector<std::uint64_t>> north_groups, south_groups;
  for (std::uint32_t north_size = 0; north_size <= 17; ++north_size) {
    for (std::uint32_t south_size = 1; south_size <= 11; ++south_size) {
      const auto keys = [&](std::uint32_t count) {
        std::vector<std::uint64_t> group(count);
        // Sparse keys of 34 bits: some pairs fit, some do not.
        for (std::uint64_t& key : group) key = rng() & rng() & rng() & ((std::uint64_t{1} << 34) - 1);
        return group;
      };
      north_groups.push_back(keys(north_size));
      south_groups.push_back(keys(south_size));
    }
  }
  std::vector<join::Pairing> pairings;
  std::vector<std::uint64_t> want;
  for (std::size_t i = 0; i < north_groups.size(); ++i) {
    pairings.push_back({north_groups[i].data(), south_groups[i].data(), std::uint32_t(north_groups[i].size()),
                        std::uint32_t(south_groups[i].size())});
    for (const std::uint64_t north : north_groups[i])
      for (const std::uint64_t south : south_groups[i])
        if ((north & south) == 0) want.push_back(north | south);
  }
  std::vector<std::uint64_t> out(want.size() + 8 + 64 * 17 * 11);  // room for every pair, and the slack
  const std::size_t written = join::detail::append_pairings(pairings, out.data());
  out.resize(written);
  EXPECT_EQ(out, want);
  EXPECT_GT(want.size(), 1000u);
}

// Off centre, the fixed queens are filtered from a whole slice in one pass and a side that fits
// one part is paired in one call: its halves must be those the part-at-a-time loop makes from
// the same quadrants, in the same order, on every side of n = 13's off-centre units.
TEST(HalfEnumerator, AnOffCentreSideWholeIsItsHalvesMadePartByPart) {
  const int n = 13;
  join::SliceCache cache(n, UINT64_MAX);
  join::HalfEnumerator enumerator;
  join::KeyBuffer whole, part;
  std::size_t halves = 0;
  for (const join::JoinUnit& unit : join::split(n).units) {
    if (unit.kind != join::JoinCase::off_centre) continue;
    for (const std::uint32_t rows : join::row_sets(n, unit)) {
      const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
      for (const join::SideLayout* side : {&layout.east, &layout.west}) {
        const auto north = cache.get(side->north_rows), south = cache.get(side->south_rows);
        const join::SliceView north_view{north->slice}, south_view{south->slice};
        enumerator.enumerate(north_view, south_view, layout, *side, whole);
        std::vector<std::uint64_t> got;
        enumerator.load(north_view, south_view, layout, *side, nullptr, 7);
        do {
          enumerator.next_part(part);
          got.insert(got.end(), part.keys().begin(), part.keys().end());
        } while (!enumerator.exhausted());
        ASSERT_EQ(std::vector<std::uint64_t>(whole.keys().begin(), whole.keys().end()), got)
            << "a " << int(unit.a) << " b " << int(unit.b) << " row set " << rows;
        halves += got.size();
      }
    }
  }
  EXPECT_GT(halves, 0u);
}

// A thread's south keys, filtered once per pair of fixed queens and kept: every side of every
// unit of n = 11 and 13 (even-kind, centre and off-centre), its units in the plan's order and
// then backward, must have the halves and ties of the keys loaded for its row set alone, with and
// without the slices' precomputed quadrant keys.
TEST(HalfEnumerator, CachedSouthKeysGiveTheHalvesOfKeysLoadedForTheRowSet) {
  for (const int n : {11, 13}) {
    join::SliceCache cache(n, UINT64_MAX);
    std::map<std::uint32_t, join::QuadrantKeyTables> tables;
    const auto tables_of = [&](const join::QuarterSlice& slice) -> const join::QuadrantKeyTables& {
      return tables.try_emplace(slice.rows(), slice.entries(), n).first->second;
    };
    join::HalfEnumerator alone, cached;
    join::SouthKeyCache east_keys, west_keys;
    join::KeyBuffer want, got;
    std::vector<join::JoinUnit> units = join::split(n).units;
    const std::size_t forward = units.size();
    units.insert(units.end(), units.rbegin(), units.rend());
    std::size_t halves = 0;
    for (const bool precomputed : {false, true}) {
      for (std::size_t i = 0; i < units.size(); ++i) {
        const join::JoinUnit& unit = units[i];
        for (const std::uint32_t rows : join::row_sets(n, unit)) {
          const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
          const std::optional<join::DiagonalFold> fold =
              unit.kind == join::JoinCase::off_centre ? std::nullopt : std::optional{join::diagonal_fold(layout)};
          for (const bool east : {true, false}) {
            const join::SideLayout& side = east ? layout.east : layout.west;
            cached.keep_south_keys(east ? &east_keys : &west_keys);
            const auto north = cache.get(side.north_rows), south = cache.get(side.south_rows);
            const join::SliceView north_view{north->slice, precomputed ? &tables_of(north->slice) : nullptr};
            const join::SliceView south_view{south->slice, precomputed ? &tables_of(south->slice) : nullptr};
            const join::SideFold* side_fold = fold ? (east ? &fold->east : &fold->west) : nullptr;
            alone.load(north_view, south_view, layout, side, side_fold, UINT64_MAX);
            cached.load(north_view, south_view, layout, side, side_fold, UINT64_MAX);
            const std::size_t want_ties = alone.next_part(want), got_ties = cached.next_part(got);
            ASSERT_EQ(std::vector<std::uint64_t>(want.keys().begin(), want.keys().end()),
                      std::vector<std::uint64_t>(got.keys().begin(), got.keys().end()))
                << "n " << n << " unit " << i << (i < forward ? "" : " (backward)") << " row set " << rows
                << (east ? " east" : " west") << (precomputed ? ", precomputed keys" : "");
            ASSERT_EQ(want_ties, got_ties);
            halves += got.size();
          }
        }
      }
    }
    EXPECT_GT(halves, 0u);
  }
}

// `plan` times a unit alone after preparing it: at odd n the preparation filters the unit's
// south keys, as the run does once for the neighbouring units of one pair of fixed queens, so
// that counting it filters none (else a unit timed alone pays a filtering the run shares, and
// `plan` priced n = 17 at 1.6 times its count). Every unit of n = 13, from the costliest end
// (neighbours of other pairs between them), counts what it counts unprepared.
TEST(JoinCounter, APreparedUnitFiltersNoSouthKeysWhenCounted) {
  const int n = 13;
  const std::vector<join::JoinUnit> units = join::split(n).units;
  join::SliceCache cache(n, UINT64_MAX);
  join::JoinCounter prepared(cache), unprepared(cache);
  std::uint64_t filtered_in_preparing = 0;
  for (std::size_t i = units.size(); i-- > 0;) {
    const std::uint64_t before = prepared.south_row_sets_filtered();
    prepared.prepare(units[i]);
    filtered_in_preparing += prepared.south_row_sets_filtered() - before;
    const std::uint64_t ready = prepared.south_row_sets_filtered();
    const join::JoinCount counted = prepared.count(units[i]);
    ASSERT_EQ(prepared.south_row_sets_filtered(), ready) << "unit " << i;
    const join::JoinCount want = unprepared.count(units[i]);
    ASSERT_EQ(counted.pairs, want.pairs) << "unit " << i;
    ASSERT_EQ(counted.halves, want.halves) << "unit " << i;
  }
  EXPECT_GT(filtered_in_preparing, 0u);
  EXPECT_GT(unprepared.south_row_sets_filtered(), 0u);
}

// `plan` times a unit of even N too costly to time whole in parts (JoinCounter::count_part): east
// shares, each against the whole west side, and the shared part. Their pairs and halves must add
// up to the unit's, for every unit, however many shares, in any order of parts; the pairs also
// where a side comes a part at a time (halves_at_once 16); and a share counted unprepared after
// another unit counted whole must not match the west side that other unit left. n = 13's
// off-centre units take the unfolded path. A share splits: some unit has a share counting
// neither none nor all of its pairs.
TEST(JoinCounter, EastSharesOfEveryUnitAddUpToTheUnit) {
  for (const int n : {12, 13, 14}) {
    join::SliceCache cache(n, UINT64_MAX);
    join::JoinCounter whole(cache), in_parts(cache), in_small_parts(cache, join::best_match_path(), UINT64_MAX, 16);
    bool split = false;
    std::optional<join::JoinUnit> previous;
    for (const join::JoinUnit& unit : join::split(n).units) {
      const join::JoinCount want = whole.count(unit);
      for (const std::size_t shares : {1, 2, 3, 7, 40}) {
        const std::size_t parts = join::row_sets(n, unit).size() * join::parts_per_row_set(shares);
        join::JoinCount sum, small_sum;
        for (std::size_t i = 0; i < parts; ++i) {
          const std::size_t part = i % 2 == 0 ? i / 2 : parts - 1 - i / 2;  // first, last, second, ...
          in_parts.prepare_part(unit, part, shares);
          const join::JoinCount counted = in_parts.count_part(unit, part, shares);
          split = split || (counted.pairs > 0 && counted.pairs < want.pairs);
          sum.pairs += counted.pairs;
          sum.halves += counted.halves;
          in_small_parts.prepare_part(unit, part, shares);
          small_sum.pairs += in_small_parts.count_part(unit, part, shares).pairs;
        }
        const auto where = [&] {
          return "n = " + std::to_string(n) + ", rows " + std::to_string(unit.rows) + ", " + std::to_string(shares) +
                 " shares";
        };
        ASSERT_EQ(sum.pairs, want.pairs) << where();
        ASSERT_EQ(sum.halves, want.halves) << where();
        ASSERT_EQ(small_sum.pairs, want.pairs) << where() << ", halves_at_once 16";
      }
      ASSERT_EQ(in_parts.count(unit).pairs, want.pairs) << "n = " << n << ", whole after shares";
      if (previous) {  // a share counted after another unit whole, unprepared: it holds no west side
        in_parts.prepare_part(unit, 0, 2);
        const std::uint64_t share = in_parts.count_part(unit, 0, 2).pairs;
        in_parts.count(*previous);
        ASSERT_EQ(in_parts.count_part(unit, 0, 2).pairs, share) << "n = " << n << ", after another unit";
      }
      previous = unit;
    }
    EXPECT_TRUE(split) << "n = " << n;
  }
}

std::map<std::size_t, Tally> unit_tallies(const Engine& engine, int threads) {
  std::map<std::size_t, Tally> tallies;
  std::mutex lock;
  run_units(engine, threads, [&](std::size_t id, const Tally& tally) {
    const std::scoped_lock guard(lock);
    tallies[id] = tally;
  });
  return tallies;
}

// The memory plan of a budget of the unit list alone: refused, with the slices sized for the
// least budget that fits (join_memory.cpp sizes them without quadrant keys first).
join::JoinMemory least_join_memory(int n, int threads) {
  const join::JoinMemory memory =
      join::plan_join_memory(n, threads, join::plan_join_memory(n, threads, 0).unit_list_bytes);
  EXPECT_NE(memory.refusal, "") << "n = " << n;
  return memory;
}

// A budget of the least the join accepts on two threads plus an eighth of the whole table leaves
// its cache room for a fraction of the slices, so that units build slices others dropped: the
// counts must not change. (The least budget is sized without quadrant keys, and so is a cache
// that cannot hold the whole table with them: the eighth is of the keyless table.)
TEST(JoinInBoundedMemory, EveryUnitCountsTheSameUnderAnEvictingBudget) {
  for (int n = 4; n <= 18; ++n) {
    CountOptions options;
    options.threads = 2;
    const join::JoinMemory least = least_join_memory(n, 2);
    options.memory_bytes = least.minimum_budget() + least.all_slices_bytes / 8;
    const join::JoinMemory bounded_memory = join::plan_join_memory(n, 2, options.memory_bytes);
    ASSERT_EQ(bounded_memory.refusal, "") << "n = " << n;
    if (n >= 12) {
      EXPECT_LT(bounded_memory.cache_bytes, bounded_memory.all_slices_bytes) << "n = " << n;
    }
    const auto bounded = make_join_engine(n, options);
    options.memory_bytes = UINT64_MAX / 2;
    const auto unbounded = make_join_engine(n, options);
    ASSERT_EQ(bounded->header(), unbounded->header()) << "n = " << n;
    const std::map<std::size_t, Tally> want = unit_tallies(*unbounded, 2);
    const std::map<std::size_t, Tally> got = unit_tallies(*bounded, 2);
    ASSERT_EQ(got.size(), bounded->unit_count());
    EXPECT_TRUE(got == want) << "n = " << n;
    Tally total;
    for (const auto& [id, tally] : got) total += tally;
    EXPECT_EQ(total.total, oeis_total(n).value()) << "n = " << n;
  }
}

// Quadrant keys make a slice five times larger: worth it only while nothing is evicted, and only
// on a CPU that computes a unit's keys one entry at a time (with AVX-512 no slice carries them).
TEST(JoinInBoundedMemory, SlicesCarryKeysOnlyWhenTheCacheHoldsTheWholeTableWithThem) {
  EXPECT_FALSE(join::slices_carry_keys(14, UINT64_MAX)) << "even n builds no quadrant keys";
  const bool keys_pay = !join::computes_keys_in_vectors();
  for (const int n : {13, 15, 17}) {
    EXPECT_EQ(join::wants_quadrant_key_tables(n), keys_pay) << "n = " << n;
    const std::uint64_t keyed = join::whole_table_bytes(n, true), keyless = join::whole_table_bytes(n, false);
    EXPECT_GT(keyed, keyless) << "n = " << n;
    EXPECT_EQ(join::slices_carry_keys(n, keyed), keys_pay) << "n = " << n;
    EXPECT_FALSE(join::slices_carry_keys(n, keyed - 1)) << "n = " << n;
    const std::uint32_t rows = (std::uint32_t{1} << (n / 4)) - 1;
    EXPECT_EQ(join::SliceCache(n, keyed).get(rows)->keys.has_value(), keys_pay) << "n = " << n;
    EXPECT_FALSE(join::SliceCache(n, keyed - 1).get(rows)->keys) << "n = " << n;
    const join::JoinMemory ample = join::plan_join_memory(n, 2, UINT64_MAX / 2);
    EXPECT_EQ(ample.all_slices_bytes, keys_pay ? keyed : keyless) << "n = " << n;
    const join::JoinMemory least = least_join_memory(n, 2);
    const join::JoinMemory tight = join::plan_join_memory(n, 2, least.minimum_budget() + keyless / 8);
    ASSERT_EQ(tight.refusal, "") << "n = " << n;
    EXPECT_EQ(tight.all_slices_bytes, keyless) << "n = " << n;
    EXPECT_FALSE(join::slices_carry_keys(n, tight.cache_bytes)) << "n = " << n;
  }
}

TEST(JoinInBoundedMemory, ABudgetTooSmallForOneUnitPerThreadIsRefused) {
  const join::JoinMemory refused = join::plan_join_memory(16, 4, 1000);
  EXPECT_NE(refused.refusal.find("too small"), std::string::npos) << refused.refusal;
  const join::JoinMemory memory = join::plan_join_memory(16, 4, UINT64_MAX / 2);
  ASSERT_EQ(memory.refusal, "");
  CountOptions options;
  options.threads = 4;
  options.memory_bytes = 1000;
  EXPECT_THROW(make_join_engine(16, options), std::invalid_argument);
  options.memory_bytes = memory.minimum_budget();
  EXPECT_NO_THROW(make_join_engine(16, options));
  options.memory_bytes = memory.minimum_budget() - 1;
  EXPECT_THROW(make_join_engine(16, options), std::invalid_argument);
}

// Refused on the unit list alone, before the slices are sized (which takes minutes at n = 27).
TEST(JoinInBoundedMemory, TheUnitListAtLargeNIsCountedIntoTheBudget) {
  const std::uint64_t budget = std::uint64_t{64} << 20;
  const join::JoinMemory n27 = join::plan_join_memory(27, 1, budget);
  EXPECT_EQ(n27.units, join::unit_count(27) + 1);
  EXPECT_GT(n27.unit_list_bytes, budget);
  EXPECT_EQ(n27.all_slices_bytes, 0u);
  EXPECT_NE(n27.refusal.find("unit list"), std::string::npos) << n27.refusal;
}

TEST(JoinInBoundedMemory, TheExecutionOrderOnlyReordersTheToDoList) {
  for (const int n : {14, 15}) {
    const auto engine = make_join_engine(n);
    const auto costliest = engine->costliest_first();
    std::vector<std::size_t> todo(costliest.begin(), costliest.end());
    std::vector<std::size_t> order = engine->execution_order(todo);
    ASSERT_EQ(order.size(), todo.size());
    EXPECT_NE(order, todo) << "grouped by slices";
    std::sort(order.begin(), order.end());
    std::sort(todo.begin(), todo.end());
    EXPECT_EQ(order, todo);
  }
}

// Each thread filters south keys once per pair of fixed queens it meets (south_key_cache.hpp):
// at odd N up to 19 a pair's units of one cost band are dealt to threads together.
TEST(JoinInBoundedMemory, APairsUnitsAreDealtTogetherToOneOfSeveralThreads) {
  const join::JoinPlan plan = join::split(15);
  const auto engine = make_join_engine(15);
  const auto costliest = engine->costliest_first();
  const std::vector<std::size_t> order = engine->execution_order({costliest.begin(), costliest.end()});
  EXPECT_TRUE(engine->deal_starts(order, 1).empty()) << "one thread takes every unit in any case";
  EXPECT_TRUE(make_join_engine(16)->deal_starts(order, 2).empty()) << "even N keeps no south keys";
  const std::vector<std::size_t> starts = engine->deal_starts(order, 2);
  ASSERT_FALSE(starts.empty());
  EXPECT_EQ(starts[0], 0u);
  EXPECT_LT(starts.size(), order.size() / 2) << "most deals hold several units";
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
  std::uint64_t total = 0;
  for (const std::size_t id : order) total += engine->cost(id);
  for (std::size_t deal = 0; deal < starts.size(); ++deal) {
    const std::size_t end = deal + 1 < starts.size() ? starts[deal + 1] : order.size();
    std::uint64_t cost = 0;
    for (std::size_t i = starts[deal]; i < end; ++i) {
      cost += engine->cost(order[i]);
      if (i == starts[deal]) continue;
      ASSERT_LT(order[i], plan.units.size()) << "the rotation unit is dealt alone";
      const join::JoinUnit& unit = plan.units[order[i]];
      const join::JoinUnit& first = plan.units[order[starts[deal]]];
      EXPECT_EQ(unit.kind, join::JoinCase::off_centre);
      EXPECT_EQ(std::pair(unit.a, unit.b), std::pair(first.a, first.b)) << "one pair of fixed queens a deal";
    }
    if (end - starts[deal] > 1) {
      EXPECT_LE(cost, total / 32) << "a deal of several units is a small share of a thread's";
    }
  }
  EXPECT_EQ(unit_tallies(*engine, 3), unit_tallies(*engine, 1));
}

TEST(SetupStop, AStoppedSetupLoopThrowsCancelled) {
  std::atomic<bool> stop{false};
  const detail::SetupScope scope(&stop, nullptr);
  std::atomic<int> ran{0};
  detail::parallel_each(100, [&](int) { ++ran; });
  EXPECT_EQ(ran.load(), 100);
  stop = true;
  EXPECT_THROW(detail::parallel_each(100, [&](int) { ++ran; }), Cancelled);
  EXPECT_THROW(make_join_engine(14), Cancelled);
}

TEST(MemorySize, ParsesNumbersWithBinaryUnits) {
  EXPECT_EQ(parse_memory_size("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_memory_size("4G"), std::uint64_t{4} << 30);
  EXPECT_EQ(parse_memory_size("1.5GiB"), std::uint64_t{3} << 29);
  EXPECT_EQ(parse_memory_size("2T"), std::uint64_t{2} << 40);
  EXPECT_EQ(parse_memory_size("64KiB"), std::uint64_t{64} << 10);
  EXPECT_EQ(parse_memory_size("1048576"), std::uint64_t{1} << 20);
  // Whole numbers exactly, to the last byte 64 bits hold; a fraction of a byte is no size.
  EXPECT_EQ(parse_memory_size("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(parse_memory_size("17179869183G"), ((std::uint64_t{1} << 34) - 1) << 30);
  EXPECT_EQ(parse_memory_size("1.5K"), 1536u);
  for (const char* bad : {"1.5", "0.4", "18446744073709551616", "17179869184G"})
    EXPECT_THROW(parse_memory_size(bad), std::invalid_argument) << "'" << bad << "'";
  for (const char* bad :
       {"", "G", "abc", "4X", "4 G", "4g", "4GB", "0", "0.0M", "-1G", "1.5.3G", "1e9", "4Gi", "99999999999999999999T"})
    EXPECT_THROW(parse_memory_size(bad), std::invalid_argument) << "'" << bad << "'";
}

// Half of the least of the physical memory, the address space left and the control group's
// limit (that last two change nothing on an unconfined machine).
TEST(MemorySize, TheDefaultIsHalfTheMemoryLimitPerProcess) {
  const std::uint64_t physical = physical_memory_bytes();
  ASSERT_GT(physical, 0u);
  const MemoryLimit limit = memory_limit();
  EXPECT_LE(limit.bytes, physical);
  EXPECT_GT(limit.bytes, 0u);
  EXPECT_NEAR(static_cast<double>(default_memory_budget()), static_cast<double>(limit.bytes / 2),
              static_cast<double>(limit.bytes) / 100);  // the address space left moves as the test maps memory
  EXPECT_LE(default_memory_budget(4), default_memory_budget() / 4 + 1);
  EXPECT_NE(default_budget().text.find(limit.source), std::string::npos) << default_budget().text;
  EXPECT_EQ(resolve_memory_budget(0), default_memory_budget());
  EXPECT_EQ(resolve_memory_budget(12345), 12345u);
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(512), "512 B");
}

// A container's or a batch job's limit is its control group's: the least of the group's and
// its ancestors' (cgroup v2 memory.max, v1 memory.limit_in_bytes), "max" or a huge v1 value
// meaning none. Read from a tree made here, shaped like /sys/fs/cgroup.
TEST(MemorySize, TheControlGroupsLimitIsTheLeastOnTheWayUp) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("nqueens-cgroup-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  const auto put = [](const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
  };
  put(root / "v2" / "job" / "memory.max", "1073741824\n");
  put(root / "v2" / "job" / "step" / "memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit("0::/job/step\n", (root / "v2").string()), std::uint64_t{1} << 30);
  put(root / "v2" / "job" / "step" / "memory.max", "268435456\n");
  EXPECT_EQ(cgroup_memory_limit("0::/job/step\n", (root / "v2").string()), std::uint64_t{1} << 28);
  put(root / "v1" / "memory" / "memory.limit_in_bytes", "9223372036854771712\n");
  put(root / "v1" / "memory" / "docker" / "memory.limit_in_bytes", "536870912\n");
  EXPECT_EQ(cgroup_memory_limit("5:cpu:/\n4:memory:/docker\n", (root / "v1").string()), std::uint64_t{1} << 29);
  EXPECT_EQ(cgroup_memory_limit("4:memory:/\n", (root / "v1").string()), std::uint64_t{9223372036854771712u});
  EXPECT_EQ(cgroup_memory_limit("0::/\n", (root / "none").string()), 0u);
  EXPECT_EQ(cgroup_memory_limit("", (root / "v2").string()), 0u);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace nqueens
