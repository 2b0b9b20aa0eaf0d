// The gpu engine without a device: its block logic (tile_match.hpp), run on this CPU as a device
// runs it, against pairs tested one by one; its batching through the join's counters against the
// join's own matcher, unit by unit; the registry's handling of a missing device. With a device
// (the machines of scripts/dev/gpu-check.sh), the engine itself against the join, unit by unit.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/gpu_devices.hpp"
#include "gpu/kernel_architectures.hpp"
#include "gpu/slot_split.hpp"
#include "gpu/tile_batch.hpp"
#include "gpu/tile_match.hpp"
#include "gpu/tiled_matcher.hpp"
#include "gpu_against_join.hpp"
#include "join/join_engine.hpp"
#include "nqueens/count.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/oeis.hpp"
#include "run/registry.hpp"
#include "run/schedule.hpp"

namespace nqueens::gpu {
namespace {

// Keys of `bits` bits, each bit set with probability `density`: sparse keys make many disjoint
// pairs, dense ones few, and both must come out exact.
std::vector<std::uint64_t> random_keys(std::size_t count, int bits, double density, std::mt19937_64& random) {
  std::bernoulli_distribution bit(density);
  std::vector<std::uint64_t> keys(count);
  for (std::uint64_t& key : keys)
    for (int b = 0; b < bits; ++b) key |= std::uint64_t{bit(random)} << b;
  return keys;
}

// The weighted pairs one by one: the definition, not the method.
std::uint64_t pairs_one_by_one(join::KeyParts east, join::KeyParts west, const join::PartWeights& weights) {
  std::uint64_t total = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (const std::uint64_t e : east[static_cast<std::size_t>(i)])
        for (const std::uint64_t w : west[static_cast<std::size_t>(j)])
          if ((e & w) == 0) total += weights[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
  return total;
}

constexpr join::PartWeights kFold = {{{1, 1}, {1, 2}}};
constexpr join::PartWeights kOdd = {{{3, 0}, {5, 7}}};  // every weight distinct: a swapped part shows

struct Sides {
  std::vector<std::uint64_t> east0, east1, west0, west1;
  join::KeyParts east() const { return {east0, east1}; }
  join::KeyParts west() const { return {west0, west1}; }
};

Sides random_sides(std::size_t e0, std::size_t e1, std::size_t w0, std::size_t w1, int bits, double density,
                   std::mt19937_64& random) {
  return {random_keys(e0, bits, density, random), random_keys(e1, bits, density, random),
          random_keys(w0, bits, density, random), random_keys(w1, bits, density, random)};
}

// Each slot's weighted pairs: the sum of its jobs' counts.
std::vector<std::uint64_t> pairs_by_slot(const TileBatch& batch, const std::vector<std::uint64_t>& counts,
                                         std::size_t slots) {
  std::vector<std::uint64_t> pairs(slots, 0);
  for (std::size_t job = 0; job < counts.size(); ++job) pairs.at(batch.slots()[job]) += counts[job];
  return pairs;
}

// Splits of sides small enough to check pair by pair (the default leaves any side under 64
// tiles), wherever they spare a tile pass.
constexpr SplitRule kSmallSplits{kMaxSplitBits, 2 * kTileLanes, 1.0};

struct Case {
  std::size_t e0, e1, w0, w1;
  int bits;
  double density;
  join::PartWeights weights;
  int dense_bits = 0;  // bits 0.. of every key set with probability 3/4: what a slot split cuts on
};

Sides case_sides(const Case& c, std::mt19937_64& random) {
  Sides sides = random_sides(c.e0, c.e1, c.w0, c.w1, c.bits, c.density, random);
  std::bernoulli_distribution often(0.75);
  for (auto* keys : {&sides.east0, &sides.east1, &sides.west0, &sides.west1})
    for (std::uint64_t& key : *keys)
      for (int b = 0; b < c.dense_bits; ++b)
        if (often(random)) key |= std::uint64_t{1} << b;
  return sides;
}

TEST(GpuTiles, EveryJobOfABatchMatchesThePairsOneByOne) {
  std::mt19937_64 random(20261126);
  // Partial tiles, a side of exactly one tile, several tiles of stored keys, parts that straddle
  // a tile's words, more queries than one tile answers, each side the smaller, keys of 62 bits;
  // then sides with dense bits, split into slots (some empty) and groups.
  const std::vector<Case> cases = {
      {1, 0, 1, 0, 6, 0.3, join::kOnePart},
      {5, 0, 300, 0, 14, 0.2, join::kOnePart},
      {1024, 0, 40, 0, 30, 0.25, join::kOnePart},
      {700, 900, 33, 65, 38, 0.15, kFold},
      {2500, 100, 1800, 0, 42, 0.12, kOdd},
      {3, 40, 2100, 2200, 46, 0.1, kFold},
      {1500, 0, kQueriesPerTile + 70, 0, 26, 0.3, join::kOnePart},
      {400, 600, 500, 300, 62, 0.05, kOdd},
      {3000, 2500, 4000, 3500, 40, 0.1, kOdd, 6},
      {9000, 0, 2 * kQueriesPerTile + 900, 0, 44, 0.08, join::kOnePart, 6},
      {2000, 3000, 150, 9000, 36, 0.1, kFold, 3},
  };
  std::vector<std::uint64_t> storage(std::size_t{1} << 20);
  TileBatch batch(storage, kSmallSplits);
  std::vector<Sides> sides;
  for (const Case& c : cases) sides.push_back(case_sides(c, random));
  for (std::size_t i = 0; i < cases.size(); ++i)
    ASSERT_TRUE(batch.add(i, sides[i].east(), sides[i].west(), cases[i].weights, cases[i].bits));
  std::vector<std::size_t> jobs_of(cases.size(), 0);
  for (const std::size_t slot : batch.slots()) ++jobs_of[slot];
  for (std::size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(jobs_of[i] > 1, cases[i].dense_bits > 0) << "case " << i << ": the sides with dense bits are split";
  for (const bool seven : {false, true}) {
    const Chunking chunking = seven ? chunking_for(batch.key_bits()) : Chunking{6, (batch.key_bits() + 5) / 6};
    const std::vector<std::uint64_t> pairs = pairs_by_slot(batch, count_on_host(batch, chunking), cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(pairs[i], pairs_one_by_one(sides[i].east(), sides[i].west(), cases[i].weights))
          << "case " << i << ", chunks of " << chunking.width << " bits";
  }
}

// The split spares work only where the stored side needs several tiles and some bits are often
// set in both sides; it takes the densest bits first.
TEST(GpuTiles, TheSlotSplitCutsOnDenseBitsOfLargeSides) {
  std::mt19937_64 random(7);
  const Sides sparse = case_sides({5000, 0, 5000, 0, 40, 0.05, join::kOnePart}, random);
  EXPECT_EQ(choose_split(sparse.east(), sparse.west(), 40, kSmallSplits).count(), 0);
  const Sides small = case_sides({1000, 0, 9000, 0, 40, 0.05, join::kOnePart, 6}, random);
  EXPECT_EQ(choose_split(small.east(), small.west(), 40, kSmallSplits).count(), 0) << "one tile holds the stored side";
  Sides dense = case_sides({20000, 0, 20000, 0, 40, 0.05, join::kOnePart, 3}, random);
  for (auto* keys : {&dense.east0, &dense.west0})
    for (std::uint64_t& key : *keys)
      if (random() % 16 != 0) key |= std::uint64_t{1} << 17;  // set in 15/16 of the keys: the best cut
  const SlotSplit split = choose_split(dense.east(), dense.west(), 40, kSmallSplits);
  ASSERT_GE(split.count(), 1);
  EXPECT_EQ(split.bit(0), 17);
  EXPECT_EQ(choose_split(dense.east(), dense.west(), 40, {0, kSmallSplits.least_stored, 1.0}).count(), 0)
      << "no bits allowed";
  EXPECT_EQ(choose_split(dense.east(), dense.west(), 40).count(), 0) << "by default, only sides of 64 tiles";
  EXPECT_EQ(split.pattern_of(std::uint64_t{1} << 17), 1u);
}

// A key's pattern read through byte tables is its split bits, bit(i) as bit i, wherever the
// bits lie (several in one byte, the key's last bits) and for every prefix of the split.
TEST(GpuTiles, AKeysPatternIsItsSplitBits) {
  const std::vector<int> bits = {61, 3, 17, 5, 40, 0, 23, 18};
  const SlotSplit split(bits);
  std::mt19937_64 random(3);
  for (int round = 0; round < 2000; ++round) {
    const std::uint64_t key = random();
    for (int count = 0; count <= split.count(); ++count) {
      std::uint32_t expected = 0;
      for (int i = 0; i < count; ++i)
        expected |= static_cast<std::uint32_t>((key >> bits[static_cast<std::size_t>(i)]) & 1) << i;
      ASSERT_EQ(split.first(count).pattern_of(key), expected) << key << " on " << count << " bits";
    }
  }
}

TEST(GpuTiles, ABatchRefusesAJobItHasNoRoomFor) {
  std::vector<std::uint64_t> storage(10);
  TileBatch batch(storage);
  const std::vector<std::uint64_t> six(6, 1), four(4, 2), one(1, 4);
  EXPECT_TRUE(batch.add(0, {six, {}}, {four, {}}, join::kOnePart, 3)) << "exactly full";
  EXPECT_FALSE(batch.add(1, {one, {}}, {one, {}}, join::kOnePart, 3));
  EXPECT_EQ(batch.jobs().size(), 1u);
  EXPECT_TRUE(batch.add(2, {one, {}}, {}, join::kOnePart, 3)) << "an empty side adds nothing and needs no room";
  EXPECT_EQ(batch.jobs().size(), 1u);
}

// 20,000 keys against 200,000: stored, the larger side makes 196 tiles of 20,000 queries, which
// are two cuts each (392 tables, 3.9e6 passes); the smaller makes 20 tiles of 13 cuts (260
// tables, 4.0e6 passes). With a table at kBuildPasses passes, the smaller side is the cheaper.
TEST(GpuTiles, TheStoredSideIsTheOneWhosePassesAndTablesCostLess) {
  std::mt19937_64 random(5);
  const std::vector<std::uint64_t> few = random_keys(20000, 40, 0.3, random);
  const std::vector<std::uint64_t> many = random_keys(200000, 40, 0.3, random);
  std::vector<std::uint64_t> storage(few.size() + many.size());
  for (const bool few_east : {true, false}) {
    TileBatch batch(storage, SplitRule{0});
    ASSERT_TRUE(few_east ? batch.add(0, {few, {}}, {many, {}}, join::kOnePart, 40)
                         : batch.add(0, {many, {}}, {few, {}}, join::kOnePart, 40));
    ASSERT_EQ(batch.jobs().size(), 1u);
    EXPECT_EQ(batch.jobs()[0].stored_count, few.size()) << (few_east ? "east" : "west");
    EXPECT_EQ(batch.tiles().size(), 20u * 13u) << "a table per tile and cut of the queries";
  }
}

TEST(GpuTiles, EveryChunkingHasAKernelAndFitsItsSharedMemory) {
  for (int bits = 1; bits <= kMaxKeyBits; ++bits) {
    const Chunking chosen = chunking_for(bits);
    EXPECT_GE(chosen.width * chosen.chunks, bits);
    // match_kernel.cu instantiates 6-bit chunks 1..11 and 7-bit chunks 1..9.
    EXPECT_LE(chosen.chunks, chosen.width == 6 ? 11 : 9) << bits;
    const Chunking small = chunking_for(bits, 99 * 1024);  // a consumer card's shared memory
    EXPECT_LE(small.shared_words() * 4, 99u * 1024) << bits;
  }
  EXPECT_EQ(chunking_for(42).width, 7) << "N = 22: six reads of 7 bits, not seven of 6";
  EXPECT_EQ(chunking_for(42).chunks, 6);
}

// The driver's rules: a binary runs on its own major version from its minor one up, PTX on its
// own architecture and every later one.
TEST(GpuKernels, ACardRunsTheNewestBinaryOfItsMajorVersionElseThePtx) {
  const BuiltKernels built{{75, 80, 86, 89, 90, 100, 110, 120}, 121};
  EXPECT_EQ(kernel_for(built, 7, 5), "sm_75");
  EXPECT_EQ(kernel_for(built, 8, 7), "sm_86");
  EXPECT_EQ(kernel_for(built, 8, 9), "sm_89");
  EXPECT_EQ(kernel_for(built, 9, 0), "sm_90");
  EXPECT_EQ(kernel_for(built, 10, 0), "sm_100");
  EXPECT_EQ(kernel_for(built, 10, 3), "sm_100");
  EXPECT_EQ(kernel_for(built, 12, 1), "sm_120");
  EXPECT_EQ(kernel_for(built, 13, 0), "PTX compute_121, compiled at load");
  EXPECT_EQ(kernel_for(built, 7, 0), "") << "older than sm_75";
  const BuiltKernels without_10{{75, 80, 86, 89, 90, 120}, 120};
  EXPECT_EQ(kernel_for(without_10, 10, 0), "") << "PTX for 12.0 does not load on 10.0";
  EXPECT_EQ(built_kernels_text(built),
            "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_110 sm_120 machine code, PTX compute_121");
  EXPECT_EQ(built_kernels_text({}), "none");
}

// This build (with CUDA) has a kernel for every card from compute capability 7.5 to the newest
// its toolkit knows, and one that later cards compile.
TEST(GpuKernels, ThisBuildServesEveryCardFromSm75Up) {
  const BuiltKernels& built = built_kernels();
  if (built.machine_code.empty()) GTEST_SKIP() << "a build without CUDA: " << devices().problem;
  for (const auto& [major, minor] : std::vector<std::pair<int, int>>{{7, 5}, {8, 0}, {8, 6}, {8, 9}, {9, 0}, {12, 0}})
    EXPECT_NE(kernel_for(built, major, minor), "") << major << "." << minor;
  EXPECT_GE(built.ptx, built.machine_code.back());
  EXPECT_NE(kernel_for(built, 99, 0), "") << "a card newer than the toolkit compiles the PTX";
}

// A join engine whose pairs go through the tiled matcher on this CPU, in small batches so that
// every unit's row sets spread over several and both buffers take turns.
std::unique_ptr<Engine> emulated_engine(int n) {
  join::JoinVariant variant;
  variant.engine = "gpu";
  variant.make_matcher = [] { return std::make_unique<HostTiledMatcher>(std::size_t{4096}, kSmallSplits); };
  variant.describe = "pairs counted by the tiles on this CPU";
  return make_join_engine(n, {}, std::move(variant));
}

TEST(GpuEngine, TheTiledMatcherCountsEveryUnitAsTheJoinDoes) {
  for (int n = 4; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    const std::unique_ptr<Engine> join = make_join_engine(n);
    const std::unique_ptr<Engine> tiled = emulated_engine(n);
    ASSERT_EQ(tiled->unit_count(), join->unit_count());
    EXPECT_EQ(tiled->header().fingerprint, join->header().fingerprint) << "the same units";
    EXPECT_EQ(tiled->header().engine, "gpu");
    EXPECT_EQ(header_problem(tiled->header()), "") << "files of a gpu run are checked without a device";
    ASSERT_NO_FATAL_FAILURE(expect_units_as_join(*tiled->make_counter(), *join->make_counter(), join->unit_count()));
  }
}

// The join hands each row set's slices, not its keys, to a matcher that builds its halves
// (PairMatcher::match_slices): here on this CPU by the device's code (half_build.hpp), batched
// and matched by the tiles. Every unit of N = 4..16 counts, and reports the halves it built, as
// the join does.
TEST(GpuEngine, ItsHalvesBuiltFromTheSlicesCountEveryUnitAsTheJoinDoes) {
  for (int n = 4; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    join::JoinVariant variant;
    variant.engine = "gpu";
    variant.make_matcher = [] { return std::make_unique<HostTiledMatcher>(std::size_t{4096}, kSmallSplits, true); };
    const std::unique_ptr<Engine> built = make_join_engine(n, {}, std::move(variant));
    const std::unique_ptr<Engine> join = make_join_engine(n);
    ASSERT_EQ(built->unit_count(), join->unit_count());
    const std::unique_ptr<UnitCounter> cpu = join->make_counter();
    const std::unique_ptr<UnitCounter> device = built->make_counter();
    ASSERT_NO_FATAL_FAILURE(expect_units_as_join(*device, *cpu, join->unit_count()));
    // And the engine's batches, whose units' row sets are counted together (count_batch).
    if (n != 13 && n != 16) continue;
    const std::size_t batched = expect_batches_as_join(*built, *device, *cpu);
    EXPECT_GT(batched, 0u) << "no batch of several units";
  }
}

// N = 18's row sets are the first large enough to split (with the test's rule): a strided sample
// of its units, each against the join's own count.
TEST(GpuEngine, ItsSlotSplitCountsUnitsOfN18AsTheJoinDoes) {
  const std::unique_ptr<Engine> join = make_join_engine(18);
  const std::unique_ptr<Engine> tiled = emulated_engine(18);
  ASSERT_NO_FATAL_FAILURE(expect_units_as_join(*tiled->make_counter(), *join->make_counter(), join->unit_count(), 97));
}

TEST(GpuEngine, ItsBatchesOnTwoThreadsGiveTheOeisTotals) {
  for (int n = 8; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    const std::unique_ptr<Engine> tiled = emulated_engine(n);
    const std::vector<std::size_t> order =
        tiled->execution_order({tiled->costliest_first().begin(), tiled->costliest_first().end()});
    EXPECT_FALSE(tiled->batch_starts(order).empty()) << "a matcher elsewhere takes units in batches";
    nqueens::RunArena arena(2);
    const Totals totals = run_timed_units(*tiled, arena, {}, order);
    ASSERT_TRUE(oeis_total(n).has_value());
    EXPECT_EQ(totals.total, *oeis_total(n));
  }
}

// Where no device is usable the engine is refused with the reason, and `auto` never takes it.
TEST(GpuEngine, WithoutADeviceItIsRefusedInOneLineAndAutoGoesOn) {
  if (!devices().list.empty()) GTEST_SKIP() << "a CUDA device is present: " << devices_text();
  const std::string why = devices().problem;
  ASSERT_FALSE(why.empty());
  EXPECT_EQ(why.find('\n'), std::string::npos);
  CountOptions options;
  options.engine = "gpu";
  try {
    (void)count(16, options);
    FAIL() << "counted without a device";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
  }
  for (int n = 4; n <= 32; ++n) EXPECT_NE(choose_engine(n, {}).name, "gpu") << n;
}

// On a machine with a device: every unit of N = 4..16 on the device against the join's matcher.
TEST(GpuEngine, OnADeviceEveryUnitIsTheJoins) {
  if (devices().list.empty()) GTEST_SKIP() << "no CUDA device here (" << devices().problem << ")";
  for (int n = 4; n <= 16; ++n) {
    SCOPED_TRACE("N=" + std::to_string(n));
    CountOptions options;
    options.engine = "gpu";
    options.threads = 2;
    const std::unique_ptr<Engine> gpu = make_engine(n, options);
    const std::unique_ptr<Engine> join = make_join_engine(n);
    ASSERT_EQ(gpu->unit_count(), join->unit_count());
    const std::unique_ptr<UnitCounter> device = gpu->make_counter();
    const std::unique_ptr<UnitCounter> cpu = join->make_counter();
    for (std::size_t id = 0; id < join->unit_count(); ++id)
      ASSERT_EQ(device->count(id).total, cpu->count(id).total) << id;
  }
}

}  // namespace
}  // namespace nqueens::gpu
