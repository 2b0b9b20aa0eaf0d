// The gpu engine's device-built path (gpu/built_matcher.hpp) on this CPU: the join hands each row
// set's slices; the matcher keeps them as a device's entries, counts each side's halves into
// buckets, plans the batch from those counts, writes the halves and matches them, each pass by
// the kernels' host form. Every unit against the join's own count.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpu/batch_plan.hpp"
#include "gpu/built_matcher.hpp"
#include "gpu/device_memory.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/shared_slices.hpp"
#include "gpu/slot_split.hpp"
#include "gpu/tile_batch.hpp"
#include "gpu_against_join.hpp"
#include "join/join_engine.hpp"
#include "join/quarter_slice.hpp"

namespace nqueens::gpu {
namespace {

// Splits from the smallest stored sides that may split on, so that N = 15 to 18 split.
constexpr SplitRule kSmallSplits{kMaxSplitBits, 0, 1.0};

// The host matcher, telling what it was asked to do.
class WatchedMatcher final : public HostBuiltMatcher {
 public:
  struct Seen {
    std::size_t batches = 0, entries_sent = 0, split_jobs = 0, jobs = 0, keys = 0;
    std::size_t largest_room = 0;  // entries of the matcher's own room
    // Sides whose pairings were made from their descriptions and the shared group index, and
    // those of them whose pairings (or tied ones) differ from side_recipe's.
    std::size_t sides_made = 0, sides_differing = 0;
    // The count passes' counters, and what two parts for every side would have taken.
    std::size_t counters = 0, two_part_counters = 0;
    // Batches whose plan was made as a device makes it (batch_plan.hpp) and checked against the
    // host's pricing and TileBatch's jobs and tiles, and what differed: bucket starts, jobs and
    // totals; tiles.
    std::size_t plans_checked = 0, plans_differing = 0;
    std::size_t tiles_made = 0, tiles_differing = 0;
  };
  WatchedMatcher(std::size_t batch_keys, std::size_t entries, SplitRule rule, Seen& seen,
                 HostSharedSlices* shared = nullptr)
      : HostBuiltMatcher(batch_keys, entries, rule, shared), seen_(seen), shared_(shared) {}

 private:
  void reserve_entries(std::size_t entries) override {
    seen_.largest_room = std::max(seen_.largest_room, entries);
    HostBuiltMatcher::reserve_entries(entries);
  }
  PlanTotals count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                          std::span<const join::QuarterEntry> entries) override {
    seen_.entries_sent += entries.size();
    seen_.counters += batch.counters();
    for (const SideSort& side : batch.count_sides()) seen_.two_part_counters += std::size_t{2} << side.rule.count;
    if (reads_shared_entries()) check_pairings(batch);
    return HostBuiltMatcher::count_halves(buffer, batch, first, entries);
  }
  // The plan as the host made it before the device did: each row set's stored side and split
  // priced in floating point from its counted sides (price_counted_split), its jobs and tiles by
  // TileBatch::add_counted; against the device's plan (batch_plan.hpp), job by job and tile by tile.
  void check_plan(int buffer, const BuiltBatch& batch, const PlanTotals& totals) {
    const std::span<const std::uint32_t> counters = this->counters(buffer);
    const Planned& planned = this->planned(buffer);
    TileBatch reference;
    for (std::size_t r = 0; r < batch.row_sets().size(); ++r) {
      const SideSort& east = count_sides(buffer)[2 * r];
      const SideSort& west = count_sides(buffer)[2 * r + 1];
      const CountedSide e = counted(east, counters), w = counted(west, counters);
      if (e.keys == 0 || w.keys == 0) continue;
      std::vector<int> bits(east.rule.bits, east.rule.bits + east.rule.count);
      const SlotSplit widest(bits);
      const SplitRule rule{batch.plan_rule().max_bits, batch.plan_rule().least_stored,
                           batch.plan_rule().most_passes_kept, batch.plan_rule().store_by_price != 0};
      const PricedSplit east_stored = price_counted_split(e, w, widest, rule);
      const PricedSplit west_stored = price_counted_split(w, e, widest, rule);
      const bool stores_east = east_stored.passes <= west_stored.passes;
      const int count = (stores_east ? east_stored : west_stored).split.count();
      const std::vector<std::uint32_t> query_starts =
          reference_starts(stores_east ? west : east, counters, count, true);
      const std::vector<std::uint32_t> stored_starts =
          reference_starts(stores_east ? east : west, counters, count, false);
      join::PartWeights weights{};
      for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 2; ++j) weights[i][j] = batch.row_sets()[r].weights[i][j];
      reference.add_counted(r, query_starts, stored_starts, stores_east, weights,
                            static_cast<int>(batch.row_sets()[r].key_bits));
      // The reference's query ranges lie at its own starts_first; the device's in the row set's room.
      const std::uint32_t room = batch.row_sets()[r].starts_first;
      for (std::size_t i = 0; i < query_starts.size(); ++i)
        seen_.plans_differing += planned.starts[room + i] == query_starts[i] ? 0 : 1;
    }
    ++seen_.plans_checked;
    seen_.plans_differing += reference.key_count() == totals.keys && reference.jobs().size() == totals.jobs &&
                                     reference.tiles().size() == totals.tiles &&
                                     reference.key_bits() == static_cast<int>(totals.key_bits)
                                 ? 0
                                 : 1;
    for (std::size_t j = 0; j < std::min(reference.jobs().size(), planned.jobs.size()); ++j) {
      const TileJob& a = reference.jobs()[j];
      const TileJob& b = planned.jobs[j];
      const bool same = a.stored_first == b.stored_first && a.query_first == b.query_first &&
                        a.stored_count == b.stored_count && a.stored_tied == b.stored_tied &&
                        a.stored_pattern == b.stored_pattern && a.groups == b.groups &&
                        std::equal(&a.weights[0][0], &a.weights[0][0] + 4, &b.weights[0][0]);
      seen_.plans_differing += same ? 0 : 1;
    }
    for (std::size_t t = 0; t < std::min(reference.tiles().size(), planned.tiles.size()); ++t) {
      const MatchTile& a = reference.tiles()[t];
      const MatchTile& b = planned.tiles[t];
      ++seen_.tiles_made;
      seen_.tiles_differing += a.job == b.job && a.stored_offset == b.stored_offset &&
                                       a.query_offset == b.query_offset && a.query_count == b.query_count
                                   ? 0
                                   : 1;
    }
  }
  static CountedSide counted(const SideSort& side, std::span<const std::uint32_t> counters) {
    CountedSide result;
    const std::uint32_t groups = 1u << side.rule.count;
    const std::uint32_t parts = side.recipe.tied_pairings >= side.recipe.pairing_count ? 1 : 2;
    for (std::uint32_t part = 0; part < parts; ++part)
      for (std::uint32_t pattern = 0; pattern < groups; ++pattern) {
        result.patterns[pattern] += counters[side.next_first + part * groups + pattern];
        result.keys += counters[side.next_first + part * groups + pattern];
      }
    return result;
  }
  // A side's bucket starts on `count` bits, from its counters: the buckets of every pattern with
  // the same low bits summed, each key's bucket by bucket_of.
  static std::vector<std::uint32_t> reference_starts(const SideSort& side, std::span<const std::uint32_t> counters,
                                                     int count, bool part_major) {
    const std::uint32_t widest = 1u << side.rule.count, groups = 1u << count;
    const std::uint32_t parts = side.recipe.tied_pairings >= side.recipe.pairing_count ? 1 : 2;
    std::vector<std::uint32_t> starts(2 * groups + 1, 0);
    for (std::uint32_t part = 0; part < parts; ++part)
      for (std::uint32_t pattern = 0; pattern < widest; ++pattern)
        starts[bucket_of(pattern % groups, part, groups, part_major) + 1] +=
            counters[side.next_first + part * widest + pattern];
    for (std::size_t i = 1; i < starts.size(); ++i) starts[i] += starts[i - 1];
    return starts;
  }
  // Each side's pairings as the device makes them (make_side_pairings) against the join's, as
  // side_recipe picked them for the batch.
  void check_pairings(const BuiltBatch& batch) {
    std::vector<SetPairing> made(batch.pairings().size() + 1);
    for (std::size_t s = 0; s < batch.pairing_specs().size(); ++s) {
      const PairingSpec& spec = batch.pairing_specs()[s];
      const SideRecipe& recipe = batch.count_sides()[s].recipe;
      std::uint32_t tied = 0;
      const std::uint32_t count = make_side_pairings(spec, shared_->group_index(shared_k()), made.data(), &tied);
      bool same =
          count == recipe.pairing_count && tied == recipe.tied_pairings && spec.pairing_first == recipe.pairing_first;
      for (std::uint32_t p = 0; same && p < count; ++p) {
        const SetPairing& a = made[p];
        const SetPairing& b = batch.pairings()[recipe.pairing_first + p];
        same = a.north_first == b.north_first && a.north_count == b.north_count && a.south_first == b.south_first &&
               a.south_count == b.south_count;
      }
      ++seen_.sides_made;
      seen_.sides_differing += same ? 0 : 1;
    }
  }
  void start(int buffer, const BuiltBatch& batch, const PlanTotals& totals) override {
    ++seen_.batches;
    seen_.jobs += totals.jobs;
    seen_.keys += totals.keys;
    HostBuiltMatcher::start(buffer, batch, totals);
    for (const TileJob& job : planned(buffer).jobs) seen_.split_jobs += job.groups > 1 ? 1 : 0;
    check_plan(buffer, batch, totals);
  }
  Seen& seen_;
  HostSharedSlices* shared_;
};

std::unique_ptr<Engine> built_engine(int n, std::size_t batch_keys, std::size_t entries, SplitRule rule,
                                     WatchedMatcher::Seen& seen, HostSharedSlices* shared = nullptr) {
  join::JoinVariant variant;
  variant.engine = "gpu";
  variant.make_matcher = [=, &seen] {
    return std::make_unique<WatchedMatcher>(batch_keys, entries, rule, seen, shared);
  };
  return make_join_engine(n, {}, std::move(variant));
}

// Small batches, and room on the "device" for a few thousand entries, so that slices are sent
// again once they no longer fit: every unit of N = 4..16 and the engine's batches of N = 13 and
// 16 count, and report their halves, as the join does.
TEST(GpuBuilt, EveryUnitOfN4To16CountsAsTheJoinDoes) {
  constexpr std::size_t kRoom = 4096;
  WatchedMatcher::Seen seen;
  for (int n = 4; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    if (n == 16) seen = {};
    const std::unique_ptr<Engine> built = built_engine(n, 4096, kRoom, kSmallSplits, seen);
    const std::unique_ptr<Engine> join = make_join_engine(n);
    ASSERT_EQ(built->unit_count(), join->unit_count());
    const std::unique_ptr<UnitCounter> cpu = join->make_counter();
    const std::unique_ptr<UnitCounter> device = built->make_counter();
    ASSERT_NO_FATAL_FAILURE(expect_units_as_join(*device, *cpu, join->unit_count()));
    if (n == 13 || n == 16) {
      EXPECT_GT(expect_batches_as_join(*built, *device, *cpu), 0u) << "no batch of several units";
    }
  }
  // Unfolded sides (every pairing tied) bring back counters for one part only.
  EXPECT_LT(seen.counters, seen.two_part_counters);
  EXPECT_GT(seen.counters, seen.two_part_counters / 2);
  // N = 16's counts: one matcher sent more entries than its room holds, so it started over.
  EXPECT_GT(seen.entries_sent, kRoom) << "the slices never outgrew the device's entries";
  EXPECT_GT(seen.split_jobs, 0u) << "no row set was split into slots";
  EXPECT_GT(seen.batches, 1u);
  // Each batch planned as a device plans it, from counters that never left it: the host's plan.
  EXPECT_EQ(seen.plans_checked, seen.batches);
  EXPECT_EQ(seen.plans_differing, 0u);
  EXPECT_EQ(seen.tiles_differing, 0u);
}

// The device's pairings: where the quarter table and its group index are shared, every side of
// every unit of N = 4..16 is sent as its description; the pairings made from it are side_recipe's,
// pairing by pairing, and every unit counts as the join does with them.
TEST(GpuBuilt, PairingsMadeFromEachSidesDescriptionAreTheJoinsForEveryUnitOfN4To16) {
  WatchedMatcher::Seen seen;
  for (int n = 4; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    HostSharedSlices shared;
    const std::unique_ptr<Engine> built = built_engine(n, 4096, 4096, kSmallSplits, seen, &shared);
    const std::unique_ptr<Engine> join = make_join_engine(n);
    ASSERT_NO_FATAL_FAILURE(expect_units_as_join(*built->make_counter(), *join->make_counter(), join->unit_count()));
  }
  EXPECT_GT(seen.sides_made, 1000u);
  EXPECT_EQ(seen.sides_differing, 0u);
  EXPECT_GT(seen.split_jobs, 0u) << "no row set was split into slots";
  EXPECT_GT(seen.tiles_made, 1000u);
  EXPECT_EQ(seen.tiles_differing, 0u);
  EXPECT_GT(seen.plans_checked, 100u);
  EXPECT_EQ(seen.plans_differing, 0u);
}

// N = 17 and 18, a strided sample of their units with the engine's own split rule and batch
// size: the planned splits (N = 18's sample has some, from the count pass's exact counts) count
// as the join does, reading their slices from a matcher's own entries and from the device's
// shared ones.
TEST(GpuBuilt, ASampleOfN17And18WithTheEnginesRuleCountsAsTheJoinDoes) {
  for (const int n : {17, 18}) {
    for (const bool shared_entries : {false, true}) {
      SCOPED_TRACE("N=" + std::to_string(n) + (shared_entries ? ", shared slices" : ""));
      WatchedMatcher::Seen seen;
      HostSharedSlices shared;
      const std::unique_ptr<Engine> built = built_engine(n, std::size_t{1} << 20, std::size_t{1} << 22, kSmallSplits,
                                                         seen, shared_entries ? &shared : nullptr);
      const std::unique_ptr<Engine> join = make_join_engine(n);
      ASSERT_NO_FATAL_FAILURE(
          expect_units_as_join(*built->make_counter(), *join->make_counter(), join->unit_count(), 211));
      if (n == 18) {
        EXPECT_GT(seen.split_jobs, 0u) << "no row set was split into slots";
      }
      EXPECT_EQ(shared.entries_sent() > 0, shared_entries);
      EXPECT_EQ(seen.entries_sent > 0, !shared_entries);
      EXPECT_EQ(seen.sides_made > 0, shared_entries);
      EXPECT_EQ(seen.sides_differing, 0u);
      EXPECT_EQ(seen.plans_differing, 0u);
      EXPECT_EQ(seen.tiles_differing, 0u);
    }
  }
}

// Two counting threads' matchers on one device, units dealt to them in turn: where the device's
// shared room holds the run's quarter table, every slice lies in it, sent once for both (the
// matchers send none of their own), and every unit of N = 4..15 counts as the join does (N = 16
// through the stand-in driver, gpu_stand_in_driver); where it does not, or the device cannot
// allocate it (N = 12 and 13), each matcher keeps and sends its own.
TEST(GpuBuilt, TheMatchersOfOneDeviceReadItsSlicesSentOnceForAll) {
  for (const TableHome home : {TableHome::shared, TableHome::too_large, TableHome::no_memory}) {
    const bool table_fits = home == TableHome::shared;
    for (int n = table_fits ? 4 : 12; n <= (table_fits ? 15 : 13); ++n) {
      SCOPED_TRACE("N=" + std::to_string(n) + ", the table " + table_home_text(home));
      const std::uint64_t table = quarter_table_entries(n / 2);
      // The room, in entries, holds the table's entries and its group index.
      const std::uint64_t room = quarter_table_device_bytes(n / 2) / sizeof(join::QuarterEntry);
      HostSharedSlices shared(home == TableHome::too_large ? room - 1 : room, home == TableHome::no_memory);
      WatchedMatcher::Seen seen;
      const std::unique_ptr<Engine> built = built_engine(n, 4096, std::size_t{1} << 20, kSmallSplits, seen, &shared);
      const std::unique_ptr<Engine> join = make_join_engine(n);
      const std::array<std::unique_ptr<UnitCounter>, 2> devices = {built->make_counter(), built->make_counter()};
      const std::unique_ptr<UnitCounter> cpu = join->make_counter();
      for (std::size_t id = 0; id < join->unit_count(); ++id) {
        const Tally expected = cpu->count(id);
        const Tally got = devices[id % 2]->count(id);
        ASSERT_EQ(got.total, expected.total) << "unit " << id;
        ASSERT_EQ(got.nodes, expected.nodes) << "unit " << id;
      }
      EXPECT_EQ(shared.home(n / 2), home);
      if (table_fits) {
        EXPECT_EQ(seen.entries_sent, 0u) << "a matcher sent slices of its own";
        EXPECT_GT(shared.entries_sent(), 0u);
        EXPECT_LE(shared.entries_sent(), table) << "a slice was sent twice";
      } else {
        EXPECT_EQ(shared.entries_sent(), 0u);
        EXPECT_GT(seen.entries_sent, 0u);
      }
    }
  }
}

// A matcher's own room, where it keeps the slices it sends, grows no larger than the device plan
// counts for it: every unit of N = 10..14, with a most far above their tables.
TEST(GpuBuilt, AMatchersOwnRoomStaysWithinThePlannedOne) {
  constexpr std::size_t kMost = std::size_t{1} << 24;
  for (int n = 10; n <= 14; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    WatchedMatcher::Seen seen;
    const std::unique_ptr<Engine> built = built_engine(n, 4096, kMost, kSmallSplits, seen);
    const std::unique_ptr<UnitCounter> device = built->make_counter();
    for (std::size_t id = 0; id < built->unit_count(); ++id) device->count(id);
    const std::uint64_t table = quarter_table_entries(n / 2);
    EXPECT_GT(seen.largest_room, 0u);
    EXPECT_LE(seen.largest_room, most_own_entries(table, kMost));
    EXPECT_LT(most_own_entries(table, kMost), kMost);
    EXPECT_LT(most_own_entries(table, kMost), 2 * std::max<std::uint64_t>(table, 1u << 16));
  }
}

// The device plan counts the quarter table once per device where the device holds it for its
// matchers, and a slice room per thread only where it does not: as SharedSlices decides, to the
// entry.
TEST(GpuDeviceMemory, TheSharedTableIsCountedOncePerDevice) {
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  const std::uint64_t table_22 = quarter_table_device_bytes(11);
  EXPECT_EQ(table_22, quarter_table_entries(11) * sizeof(join::QuarterEntry) + 2048 * 2049 * 4);
  const DeviceMemoryPlan h100 = plan_device_memory(22, 80 * kGiB);
  EXPECT_TRUE(h100.table_shared);
  EXPECT_EQ(h100.table_bytes, table_22);
  EXPECT_EQ(h100.matcher_bytes, batch_device_bytes());
  EXPECT_EQ(h100.total_bytes(16), table_22 + 16 * batch_device_bytes());
  // Sixteen threads' slice rooms would take 8 GiB: the table once, and sixteen threads' batches,
  // take about 0.9.
  EXPECT_LT(h100.total_bytes(16), 16 * kDeviceEntries * sizeof(join::QuarterEntry) / 8);

  const DeviceMemoryPlan small = plan_device_memory(22, kGiB);
  EXPECT_FALSE(small.table_shared);
  EXPECT_EQ(small.matcher_bytes, batch_device_bytes() + most_own_entries(quarter_table_entries(11), kDeviceEntries) *
                                                            sizeof(join::QuarterEntry));
  EXPECT_EQ(small.total_bytes(2), 2 * small.matcher_bytes);

  for (int n = 8; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    const std::uint64_t table = quarter_table_device_bytes(n / 2) / sizeof(join::QuarterEntry);
    for (const std::uint64_t device : {table * sizeof(join::QuarterEntry) * kSharedSlicesShare,
                                       table * sizeof(join::QuarterEntry) * kSharedSlicesShare - 1}) {
      HostSharedSlices shared(device / kSharedSlicesShare / sizeof(join::QuarterEntry));
      EXPECT_EQ(plan_device_memory(n, device).table_shared, shared.home(n / 2) == TableHome::shared);
    }
  }
}

// Each slice once, wherever it is asked for from, placed one after another.
TEST(GpuBuilt, ASharedSliceIsPlacedOnceWhereverItIsAskedFor) {
  HostSharedSlices shared;
  const join::QuarterSlice a(6, 0b000111), b(6, 0b101010);
  const std::optional<std::uint64_t> first = shared.place(a);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, 0u);
  EXPECT_EQ(shared.place(b), a.entries().size());
  EXPECT_EQ(shared.place(a), 0u);
  EXPECT_EQ(shared.entries_sent(), a.entries().size() + b.entries().size());
  EXPECT_TRUE(std::equal(b.entries().begin(), b.entries().end(), shared.entries(6) + a.entries().size(),
                         [](const join::QuarterEntry& x, const join::QuarterEntry& y) {
                           return x.sums == y.sums && x.differences == y.differences;
                         }));
}

TEST(GpuBuilt, TheMatcherIsHandedSlicesNeverKeys) {
  HostBuiltMatcher matcher;
  EXPECT_TRUE(matcher.builds_halves());
  const std::uint64_t key = 1;
  const join::KeyParts parts{std::span<const std::uint64_t>(&key, 1), {}};
  EXPECT_THROW(matcher.match(0, parts, parts, join::kOnePart, 8), std::logic_error);
}

}  // namespace
}  // namespace nqueens::gpu
