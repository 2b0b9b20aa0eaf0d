#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "join/bit_gather.hpp"
#include "join/disjoint_count.hpp"
#include "join/match_cost.hpp"
#include "join/match_shares.hpp"
#include "join/slot_split.hpp"

namespace {

using nqueens::join::count_disjoint_pairs;
using nqueens::join::count_disjoint_pairs_in_slots;
using nqueens::join::count_weighted_disjoint_pairs;
using nqueens::join::DisjointCounter;
using nqueens::join::MatchPath;

constexpr MatchPath kAllPaths[] = {MatchPath::scalar, MatchPath::avx2, MatchPath::avx512};

std::uint64_t key_mask(int key_bits) { return key_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1; }

std::uint64_t naive_count(const std::vector<std::uint64_t>& stored, const std::vector<std::uint64_t>& queries,
                          int key_bits) {
  const std::uint64_t mask = key_mask(key_bits);
  std::uint64_t pairs = 0;
  for (const std::uint64_t s : stored)
    for (const std::uint64_t q : queries) pairs += (s & q & mask) == 0 ? 1 : 0;
  return pairs;
}

// Keys whose bits are each set with probability `density`, within key_bits.
std::vector<std::uint64_t> random_keys(std::mt19937_64& rng, std::size_t count, int key_bits, double density) {
  std::bernoulli_distribution bit_set(density);
  std::vector<std::uint64_t> keys(count);
  for (std::uint64_t& key : keys)
    for (int bit = 0; bit < key_bits; ++bit)
      if (bit_set(rng)) key |= std::uint64_t{1} << bit;
  return keys;
}

// Random keys (see random_keys()) whose bits in `dense` are set with probability `dense_density`
// instead: the bits a slot split picks. Bits above key_bits are set too, to be ignored.
std::vector<std::uint64_t> keys_with_dense_bits(std::mt19937_64& rng, std::size_t count, int key_bits, double density,
                                                std::uint64_t dense, double dense_density) {
  std::bernoulli_distribution dense_set(dense_density);
  std::vector<std::uint64_t> keys = random_keys(rng, count, key_bits, density);
  for (std::uint64_t& key : keys) {
    key = (key & ~dense) | (key_bits < 64 ? ~std::uint64_t{0} << key_bits : 0);
    for (std::uint64_t rest = dense; rest != 0; rest &= rest - 1)
      if (dense_set(rng)) key |= rest & (~rest + 1);
  }
  return keys;
}

// A density that leaves a fair share of pairs disjoint: P(disjoint) = (1 - d^2)^bits near 1/3.
double balanced_density(int key_bits) { return std::sqrt(1.0 - std::pow(1.0 / 3.0, 1.0 / key_bits)); }

class DisjointCountTest : public ::testing::TestWithParam<MatchPath> {
 protected:
  void SetUp() override {
    if (!nqueens::join::supported(GetParam()))
      GTEST_SKIP() << "this CPU cannot run the " << nqueens::join::to_string(GetParam()) << " path";
  }

  void expect_matches_naive(DisjointCounter& counter, const std::vector<std::uint64_t>& stored,
                            const std::vector<std::uint64_t>& queries, int key_bits) {
    counter.load(stored, key_bits);
    EXPECT_EQ(counter.count(queries), naive_count(stored, queries, key_bits))
        << "path " << nqueens::join::to_string(GetParam()) << ", " << stored.size() << " stored, " << queries.size()
        << " queries, " << key_bits << " key bits";
  }
};

TEST_P(DisjointCountTest, ReportsItsPath) {
  DisjointCounter counter(GetParam());
  EXPECT_EQ(counter.path(), GetParam());
  EXPECT_EQ(counter.chunk_bits(), DisjointCounter::kDefaultChunkBits);
}

TEST_P(DisjointCountTest, NothingLoadedOrNoQueriesCountsZero) {
  DisjointCounter counter(GetParam());
  const std::vector<std::uint64_t> none;
  const std::vector<std::uint64_t> some = {1, 2, 3};
  expect_matches_naive(counter, none, some, 8);
  expect_matches_naive(counter, some, none, 8);
  expect_matches_naive(counter, none, none, 8);
}

TEST_P(DisjointCountTest, SizesAroundTheLaneCount) {
  std::mt19937_64 rng(11);
  DisjointCounter counter(GetParam());
  const std::size_t lanes = counter.lanes();
  const std::vector<std::size_t> sizes = {
      1, 2, 63, 64, 65, lanes - 1, lanes, lanes + 1, 2 * lanes, 3 * lanes + 7, 5 * lanes - 1};
  for (const std::size_t stored_size : sizes) {
    for (const std::size_t query_size : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{5}, lanes + 3}) {
      const int key_bits = 34;
      const double density = balanced_density(key_bits);
      expect_matches_naive(counter, random_keys(rng, stored_size, key_bits, density),
                           random_keys(rng, query_size, key_bits, density), key_bits);
    }
  }
}

TEST_P(DisjointCountTest, SizesAroundTheNarrowLaneCount) {
  // Loads of a few hundred keys take narrow blocks where the path has them (AVX-512: 256 keys),
  // each part of a weighted load apart; one prepared query serves both widths.
  std::mt19937_64 rng(25);
  DisjointCounter counter(GetParam());
  const std::size_t narrow = counter.narrow_lanes();
  if (narrow == 0) GTEST_SKIP() << "the " << nqueens::join::to_string(GetParam()) << " path has no narrow blocks";
  const int key_bits = 40;
  const double density = balanced_density(key_bits);
  for (const std::size_t stored_size : {narrow - 1, narrow, narrow + 1, 2 * narrow + 1, 3 * narrow}) {
    const auto stored = random_keys(rng, stored_size, key_bits, density);
    const auto queries = random_keys(rng, 301, key_bits, density);
    expect_matches_naive(counter, stored, queries, key_bits);
    const std::size_t first_part = stored_size / 3;
    const nqueens::join::KeyParts parts = {std::span(stored).first(first_part), std::span(stored).subspan(first_part)};
    counter.load_parts(parts, key_bits);
    const auto counts = counter.count_by_part(queries);
    EXPECT_EQ(counts[0], naive_count({stored.begin(), stored.begin() + static_cast<std::ptrdiff_t>(first_part)},
                                     queries, key_bits));
    EXPECT_EQ(counts[1],
              naive_count({stored.begin() + static_cast<std::ptrdiff_t>(first_part), stored.end()}, queries, key_bits));
  }
}

TEST_P(DisjointCountTest, EveryKeyWidth) {
  std::mt19937_64 rng(12);
  for (int key_bits = 1; key_bits <= 64; ++key_bits) {
    DisjointCounter counter(GetParam());
    const double density = balanced_density(key_bits);
    const std::size_t stored_size = 2 * counter.lanes() + 37;
    expect_matches_naive(counter, random_keys(rng, stored_size, key_bits, density),
                         random_keys(rng, 301, key_bits, density), key_bits);
  }
}

TEST_P(DisjointCountTest, EveryChunkWidth) {
  std::mt19937_64 rng(13);
  for (int chunk_bits = 4; chunk_bits <= 6; ++chunk_bits) {
    DisjointCounter counter(GetParam(), chunk_bits);
    EXPECT_EQ(counter.chunk_bits(), chunk_bits);
    for (const int key_bits : {1, 7, 30, 38, 62, 63, 64}) {
      const double density = balanced_density(key_bits);
      expect_matches_naive(counter, random_keys(rng, counter.lanes() + 100, key_bits, density),
                           random_keys(rng, 150, key_bits, density), key_bits);
    }
  }
}

TEST_P(DisjointCountTest, DenseAndSparseKeys) {
  std::mt19937_64 rng(14);
  DisjointCounter counter(GetParam());
  for (const int key_bits : {30, 40, 62, 64}) {
    for (const double density : {0.02, 0.1, 0.3, 0.6, 0.95}) {
      const auto stored = random_keys(rng, counter.lanes() + 211, key_bits, density);
      const auto queries = random_keys(rng, 257, key_bits, density);
      expect_matches_naive(counter, stored, queries, key_bits);
    }
  }
}

TEST_P(DisjointCountTest, StoredAndQueriesWithDifferentDensities) {
  std::mt19937_64 rng(15);
  DisjointCounter counter(GetParam());
  const auto sparse = random_keys(rng, 700, 38, 0.05);
  const auto dense = random_keys(rng, 700, 38, 0.5);
  expect_matches_naive(counter, sparse, dense, 38);
  expect_matches_naive(counter, dense, sparse, 38);
}

TEST_P(DisjointCountTest, AllZeroKeysMatchEverything) {
  std::mt19937_64 rng(16);
  DisjointCounter counter(GetParam());
  const std::vector<std::uint64_t> zeros(counter.lanes() + 5, 0);
  const auto keys = random_keys(rng, 99, 40, 0.5);
  expect_matches_naive(counter, zeros, keys, 40);
  EXPECT_EQ(counter.count(keys), zeros.size() * keys.size());
  expect_matches_naive(counter, keys, zeros, 40);
  EXPECT_EQ(counter.count(zeros), zeros.size() * keys.size());
}

TEST_P(DisjointCountTest, AllOnesKeysMatchOnlyZeroKeys) {
  std::mt19937_64 rng(17);
  DisjointCounter counter(GetParam());
  for (const int key_bits : {5, 34, 64}) {
    const std::vector<std::uint64_t> ones(counter.lanes() + 9, key_mask(key_bits));
    auto keys = random_keys(rng, 130, key_bits, 0.3);
    keys[7] = 0;
    keys[100] = 0;
    expect_matches_naive(counter, ones, keys, key_bits);
    expect_matches_naive(counter, keys, ones, key_bits);
    expect_matches_naive(counter, ones, ones, key_bits);
  }
}

TEST_P(DisjointCountTest, KeysUsingFewOfTheirBits) {
  // Every third bit of 60 (packing the live bits saves chunks; enough blocks that packing pays),
  // and a single high bit.
  std::mt19937_64 rng(22);
  DisjointCounter counter(GetParam());
  std::uint64_t every_third = 0;
  for (int bit = 0; bit < 60; bit += 3) every_third |= std::uint64_t{1} << bit;
  auto stored = random_keys(rng, 16 * counter.lanes() + 50, 60, 0.25);
  auto queries = random_keys(rng, 200, 60, 0.25);
  for (std::uint64_t& key : stored) key &= every_third;
  expect_matches_naive(counter, stored, queries, 60);
  const std::vector<std::uint64_t> high_bit(90, std::uint64_t{1} << 61);
  expect_matches_naive(counter, high_bit, queries, 62);
  expect_matches_naive(counter, queries, high_bit, 62);
}

TEST_P(DisjointCountTest, SparseKeysOnFewBlocks) {
  // Live bits spread over 50 (packing saves chunks) on sides of one to three blocks, where only
  // PEXT packs: on the vector paths of a CPU with a fast PEXT, keys and queries are gathered.
  std::mt19937_64 rng(23);
  DisjointCounter counter(GetParam());
  std::uint64_t every_fifth = 0;
  for (int bit = 1; bit < 50; bit += 5) every_fifth |= std::uint64_t{1} << bit;
  for (const std::size_t size : {std::size_t{7}, counter.lanes() + 3, 3 * counter.lanes()}) {
    auto stored = random_keys(rng, size, 50, 0.3);
    auto queries = random_keys(rng, 700, 50, 0.3);
    for (std::uint64_t& key : stored) key &= every_fifth;
    expect_matches_naive(counter, stored, queries, 50);
    expect_matches_naive(counter, queries, stored, 50);
  }
}

TEST_P(DisjointCountTest, BitsAboveKeyBitsAreIgnored) {
  std::mt19937_64 rng(18);
  DisjointCounter counter(GetParam());
  auto stored = random_keys(rng, 300, 20, 0.2);
  auto queries = random_keys(rng, 300, 20, 0.2);
  const std::uint64_t expected = naive_count(stored, queries, 20);
  for (std::uint64_t& key : stored) key |= std::uint64_t{1} << 40;
  for (std::uint64_t& key : queries) key |= std::uint64_t{1} << 40;
  counter.load(stored, 20);
  EXPECT_EQ(counter.count(queries), expected);
}

TEST_P(DisjointCountTest, ReusedCounterKeepsNothingFromABiggerLoad) {
  std::mt19937_64 rng(19);
  DisjointCounter counter(GetParam());
  const std::size_t lanes = counter.lanes();
  // Big and wide first, then small and narrow: stale tables, planes or chunk plans would show.
  const std::vector<std::pair<std::size_t, int>> loads = {
      {7 * lanes + 5, 64}, {lanes / 2, 38}, {3, 34}, {2 * lanes, 62}, {1, 1}, {lanes + 1, 12}, {0, 30}, {70, 40}};
  const auto queries = random_keys(rng, 333, 64, 0.05);
  for (const auto& [size, key_bits] : loads) {
    const double density = balanced_density(key_bits);
    const auto stored = random_keys(rng, size, key_bits, density);
    expect_matches_naive(counter, stored, random_keys(rng, 333, key_bits, density), key_bits);
    EXPECT_EQ(counter.count(queries), naive_count(stored, queries, key_bits));
  }
}

TEST_P(DisjointCountTest, OneLoadAnswersSeveralQueryLists) {
  std::mt19937_64 rng(20);
  DisjointCounter counter(GetParam());
  const auto stored = random_keys(rng, 1000, 36, balanced_density(36));
  counter.load(stored, 36);
  for (const std::size_t size : {2000, 10, 1, 500}) {
    const auto queries = random_keys(rng, size, 36, balanced_density(36));
    EXPECT_EQ(counter.count(queries), naive_count(stored, queries, 36));
  }
}

TEST_P(DisjointCountTest, PairsCountedEitherWayRound) {
  std::mt19937_64 rng(21);
  DisjointCounter counter(GetParam());
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{0, 10},    {1, 1},      {3, 5000}, {40, 5000},
                                                                   {300, 300}, {1500, 900}, {16, 17},  {8, 2000}};
  for (const auto& [left_size, right_size] : shapes) {
    const int key_bits = 34;
    const double density = balanced_density(key_bits);
    const auto left = random_keys(rng, left_size, key_bits, density);
    const auto right = random_keys(rng, right_size, key_bits, density);
    const std::uint64_t expected = naive_count(left, right, key_bits);
    EXPECT_EQ(count_disjoint_pairs(counter, left, right, key_bits), expected) << left_size << " x " << right_size;
    EXPECT_EQ(count_disjoint_pairs(counter, right, left, key_bits), expected) << right_size << " x " << left_size;
  }
}

TEST_P(DisjointCountTest, EverySlotSplitCountsEachPairOnce) {
  std::mt19937_64 rng(22);
  DisjointCounter counter(GetParam());
  const int key_bits = 38;
  const std::uint64_t dense = 0b1011'0000'0000'0100'0000ULL;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{1, 1}, {700, 900}, {2100, 37}, {5, 1600}};
  for (const auto& [stored_size, query_size] : shapes) {
    const auto stored = keys_with_dense_bits(rng, stored_size, key_bits, 0.1, dense, 0.6);
    const auto queries = keys_with_dense_bits(rng, query_size, key_bits, 0.1, dense, 0.5);
    const std::uint64_t expected = naive_count(stored, queries, key_bits);
    for (int slot_bits = 0; slot_bits <= nqueens::join::kMaxSlotBits; ++slot_bits)
      EXPECT_EQ(count_disjoint_pairs_in_slots(counter, stored, queries, key_bits, slot_bits), expected)
          << stored_size << " x " << query_size << ", " << slot_bits << " slot bits";
  }
}

TEST_P(DisjointCountTest, SlotSplitWithEmptySlotsAndFewKeyBits) {
  std::mt19937_64 rng(23);
  DisjointCounter counter(GetParam());
  // Bit 5 set in every key of both sides: no pair is disjoint, and half the slots stay empty.
  const auto stored = keys_with_dense_bits(rng, 1200, 30, 0.2, 0b110000, 1.0);
  const auto queries = keys_with_dense_bits(rng, 800, 30, 0.2, 0b100000, 1.0);
  EXPECT_EQ(count_disjoint_pairs_in_slots(counter, stored, queries, 30, 3), 0u);
  // Fewer key bits than slot bits: the split uses the key bits there are.
  const auto narrow_stored = random_keys(rng, 1000, 3, 0.5);
  const auto narrow_queries = random_keys(rng, 700, 3, 0.5);
  EXPECT_EQ(count_disjoint_pairs_in_slots(counter, narrow_stored, narrow_queries, 3, nqueens::join::kMaxSlotBits),
            naive_count(narrow_stored, narrow_queries, 3));
  EXPECT_EQ(count_disjoint_pairs_in_slots(counter, stored, {}, 30, 2), 0u);
  EXPECT_THROW(count_disjoint_pairs_in_slots(counter, stored, queries, 30, nqueens::join::kMaxSlotBits + 1),
               std::invalid_argument);
  EXPECT_THROW(count_disjoint_pairs_in_slots(counter, stored, queries, 30, -1), std::invalid_argument);
  EXPECT_THROW(count_disjoint_pairs_in_slots(counter, stored, queries, 0, 2), std::invalid_argument);
}

// Sides big enough for count_disjoint_pairs() to weigh a split (and, with dense bits, take it),
// and just below that size.
TEST_P(DisjointCountTest, LargeSidesWithDenseBitsStayExact) {
  std::mt19937_64 rng(24);
  DisjointCounter counter(GetParam());
  const int key_bits = 38;
  const std::uint64_t dense = 0b1111ULL << 17;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {{9000, 8500}, {8191, 3000}, {12000, 8200}};
  for (const auto& [left_size, right_size] : shapes) {
    const auto left = keys_with_dense_bits(rng, left_size, key_bits, 0.1, dense, 0.5);
    const auto right = keys_with_dense_bits(rng, right_size, key_bits, 0.1, dense, 0.6);
    const std::uint64_t expected = naive_count(left, right, key_bits);
    EXPECT_EQ(count_disjoint_pairs(counter, left, right, key_bits), expected) << left_size << " x " << right_size;
    EXPECT_EQ(count_disjoint_pairs(counter, right, left, key_bits), expected) << right_size << " x " << left_size;
  }
}

// Two parts a side, each pair of parts with its own weight: against the double loop part by
// part, for tiny sides (tested one by one), small ones (one load) and large ones (slot splits),
// empty parts included, either way round.
TEST_P(DisjointCountTest, WeightedPartsCountEachPairOfPartsByItsWeight) {
  std::mt19937_64 rng(25);
  DisjointCounter counter(GetParam());
  const int key_bits = 38;
  const std::uint64_t dense = 0b1111ULL << 17;
  const nqueens::join::PartWeights weights = {{{1, 3}, {5, 2}}};
  const std::vector<std::array<std::size_t, 4>> shapes = {
      {3, 5, 4, 2}, {40, 700, 600, 90}, {0, 1300, 900, 0}, {200, 9000, 300, 8500}, {9000, 0, 0, 8300}};
  for (const auto& sizes : shapes) {
    std::array<std::vector<std::uint64_t>, 4> keys;
    for (std::size_t i = 0; i < 4; ++i) keys[i] = keys_with_dense_bits(rng, sizes[i], key_bits, 0.1, dense, 0.5);
    std::vector<std::uint64_t> a = keys[0], b = keys[2];
    a.insert(a.end(), keys[1].begin(), keys[1].end());
    b.insert(b.end(), keys[3].begin(), keys[3].end());
    const nqueens::join::KeyParts a_parts = {std::span(a).first(sizes[0]), std::span(a).subspan(sizes[0])};
    const nqueens::join::KeyParts b_parts = {std::span(b).first(sizes[2]), std::span(b).subspan(sizes[2])};
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 2; ++j) expected += weights[i][j] * naive_count(keys[i], keys[2 + j], key_bits);
    const nqueens::join::PartWeights transposed = {{{1, 5}, {3, 2}}};
    EXPECT_EQ(count_weighted_disjoint_pairs(counter, a_parts, b_parts, weights, key_bits), expected)
        << sizes[0] << "+" << sizes[1] << " x " << sizes[2] << "+" << sizes[3];
    EXPECT_EQ(count_weighted_disjoint_pairs(counter, b_parts, a_parts, transposed, key_bits), expected)
        << sizes[2] << "+" << sizes[3] << " x " << sizes[0] << "+" << sizes[1];
  }
}

// Splits deeper than 5 bits, as the largest sides take them (N = 22 and up): on ten bits set in
// half the keys, every split width against the double loop; and the weighted count of sides
// large enough for a deep split (widest_split_bits), whose ten dense bits (set in 80 % of the
// keys) make the cost model pick one, against each pair of parts counted with no split (too
// many pairs for the double loop).
TEST_P(DisjointCountTest, DeepSlotSplitsStayExact) {
  std::mt19937_64 rng(26);
  DisjointCounter counter(GetParam());
  const int key_bits = 40;
  const std::uint64_t dense = 0b11'1111'1111ULL << 12;
  const auto stored = keys_with_dense_bits(rng, 3000, key_bits, 0.08, dense, 0.5);
  const auto queries = keys_with_dense_bits(rng, 2600, key_bits, 0.08, dense, 0.5);
  const std::uint64_t expected = naive_count(stored, queries, key_bits);
  for (int slot_bits = 6; slot_bits <= nqueens::join::kMaxSlotBits; ++slot_bits)
    EXPECT_EQ(count_disjoint_pairs_in_slots(counter, stored, queries, key_bits, slot_bits), expected)
        << slot_bits << " slot bits";

  const nqueens::join::PartWeights weights = {{{1, 3}, {5, 2}}};
  std::array<std::vector<std::uint64_t>, 4> keys;
  const std::array<std::size_t, 4> sizes = {100000, 32000, 104000, 28000};
  for (std::size_t i = 0; i < 4; ++i) keys[i] = keys_with_dense_bits(rng, sizes[i], key_bits, 0.08, dense, 0.8);
  std::vector<std::uint64_t> a = keys[0], b = keys[2];
  a.insert(a.end(), keys[1].begin(), keys[1].end());
  b.insert(b.end(), keys[3].begin(), keys[3].end());
  const nqueens::join::KeyParts a_parts = {std::span(a).first(sizes[0]), std::span(a).subspan(sizes[0])};
  const nqueens::join::KeyParts b_parts = {std::span(b).first(sizes[2]), std::span(b).subspan(sizes[2])};
  EXPECT_GT(nqueens::join::detail::cheapest_split(a_parts, b_parts, key_bits, counter.block_lanes()).count, 5);
  std::uint64_t weighted = 0;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      weighted += weights[i][j] * count_disjoint_pairs_in_slots(counter, keys[i], keys[2 + j], key_bits, 0);
  EXPECT_EQ(count_weighted_disjoint_pairs(counter, a_parts, b_parts, weights, key_bits), weighted);
}

// Sides whose first part (the fold's ties) is a fraction of a key a slot under the split the
// second part takes: the cost model counts the parts apart, each with a split of its own, and the
// weighted count still equals each pair of parts counted with no split.
TEST_P(DisjointCountTest, PartsCountedApartStayExact) {
  std::mt19937_64 rng(28);
  DisjointCounter counter(GetParam());
  const int key_bits = 40;
  const std::uint64_t dense = 0b1111'1111'1111ULL << 12;
  const nqueens::join::PartWeights weights = {{{1, 1}, {1, 2}}};
  std::array<std::vector<std::uint64_t>, 4> keys;
  const std::array<std::size_t, 4> sizes = {300, 60000, 250, 52000};
  for (std::size_t i = 0; i < 4; ++i) keys[i] = keys_with_dense_bits(rng, sizes[i], key_bits, 0.08, dense, 0.5);
  std::vector<std::uint64_t> a = keys[0], b = keys[2];
  a.insert(a.end(), keys[1].begin(), keys[1].end());
  b.insert(b.end(), keys[3].begin(), keys[3].end());
  const nqueens::join::KeyParts a_parts = {std::span(a).first(sizes[0]), std::span(a).subspan(sizes[0])};
  const nqueens::join::KeyParts b_parts = {std::span(b).first(sizes[2]), std::span(b).subspan(sizes[2])};
  const auto choice = nqueens::join::detail::choose_split(b_parts, a_parts, key_bits, counter.block_lanes());
  EXPECT_LT(choice.apart_ns, choice.together_ns);
  EXPECT_LT(choice.apart[0].count, choice.apart[1].count);
  std::uint64_t weighted = 0;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      weighted += weights[i][j] * count_disjoint_pairs_in_slots(counter, keys[i], keys[2 + j], key_bits, 0);
  EXPECT_EQ(count_weighted_disjoint_pairs(counter, a_parts, b_parts, weights, key_bits), weighted);
  const nqueens::join::PartWeights transposed = {{{1, 1}, {1, 2}}};
  EXPECT_EQ(count_weighted_disjoint_pairs(counter, b_parts, a_parts, transposed, key_bits), weighted);
}

// The bits a split is made on are those set most often in both sides, most shared first: on
// sides of 4000 keys (sampled 500 a side, past a byte-wide counter's 255) where bit 3 is set in
// every key of both, bit 40 in 90 % of one side and 60 % of the other, bit 17 in 60 % of both,
// and the rest in 5 %.
TEST(SlotSplit, ChoosesTheMostSharedBitsFirst) {
  std::mt19937_64 rng(27);
  const auto side = [&](double bit_40) {
    std::vector<std::uint64_t> keys(4000);
    std::bernoulli_distribution rare(0.05), often_17(0.6), often_40(bit_40);
    for (std::uint64_t& key : keys) {
      for (int bit = 0; bit < 48; ++bit)
        if (rare(rng)) key |= std::uint64_t{1} << bit;
      key |= std::uint64_t{1} << 3;
      key = (key & ~(std::uint64_t{1} << 17)) | (std::uint64_t{often_17(rng)} << 17);
      key = (key & ~(std::uint64_t{1} << 40)) | (std::uint64_t{often_40(rng)} << 40);
    }
    return keys;
  };
  const std::vector<std::uint64_t> a = side(0.9), b = side(0.6);
  const nqueens::join::KeyParts a_parts = {std::span(a).first(1000), std::span(a).subspan(1000)};
  const nqueens::join::KeyParts b_parts = {b, {}};
  const auto split = nqueens::join::detail::most_shared_bits(a_parts, b_parts, 48, 3);
  ASSERT_EQ(split.count, 3);
  EXPECT_EQ(split.bits[0], 3);
  EXPECT_EQ(split.bits[1], 40);
  EXPECT_EQ(split.bits[2], 17);
  EXPECT_EQ(nqueens::join::detail::most_shared_bits(a_parts, b_parts, 12, 3).bits[0], 3) << "bits past key_bits";
}

// A key's slot takes the split's bits in the split's order (the most shared first, as the split
// of fewer bits keeps the low bits of the slot), whatever the keys' number: here 1000 keys, so
// that the vectorized loop also meets a remainder.
TEST(SlotSplit, AKeysSlotTakesTheSplitsBitsInTheirOrder) {
  nqueens::join::detail::SlotBits split;
  split.bits = {40, 3, 17, 0, 63};
  split.count = 5;
  std::mt19937_64 rng(4);
  std::vector<std::uint64_t> keys(1000);
  for (std::uint64_t& key : keys) key = rng();
  std::vector<std::uint16_t> slots(keys.size(), 0xffff);
  split.slots_of(keys, slots.data());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t key = keys[i];
    const auto want = static_cast<std::uint16_t>(((key >> 40) & 1) | ((key >> 3) & 1) << 1 | ((key >> 17) & 1) << 2 |
                                                 (key & 1) << 3 | (key >> 63) << 4);
    ASSERT_EQ(slots[i], want) << "key " << i;
  }
  split.count = 2;
  split.slots_of(std::span(keys).first(3), slots.data());
  EXPECT_EQ(slots[0], ((keys[0] >> 40) & 1) | ((keys[0] >> 3) & 1) << 1);
}

// The widest split weighed grows a bit per doubling of the smaller side: 4 bits at 1024 keys,
// kMaxSlotBits (16) from 4M.
TEST(SlotSplit, WidestSplitGrowsWithTheSides) {
  using nqueens::join::detail::widest_split_bits;
  EXPECT_EQ(widest_split_bits(nqueens::join::detail::kMinKeysToSplit), 4);
  EXPECT_EQ(widest_split_bits(2047), 4);
  EXPECT_EQ(widest_split_bits(2048), 5);
  EXPECT_EQ(widest_split_bits(std::size_t{1} << 16), 10);
  EXPECT_EQ(widest_split_bits((std::size_t{1} << 22) - 1), nqueens::join::kMaxSlotBits - 1);
  EXPECT_EQ(widest_split_bits(std::size_t{1} << 22), nqueens::join::kMaxSlotBits);
  EXPECT_EQ(widest_split_bits(std::size_t{1} << 30), nqueens::join::kMaxSlotBits);
  EXPECT_EQ(widest_split_bits(1), 1);
}

// The price of each width, from one sample of each side: with no split every query meets every
// block of the stored side once; with c bits each of the 2^c slots (all of them hold keys and
// meet queries here) visits the groups it shares no bit with, 3^c calls in all.
TEST(SlotSplit, EachWidthIsPricedByTheQueriesItsSlotsMeet) {
  using nqueens::join::detail::most_shared_bits;
  using nqueens::join::detail::split_works;
  std::mt19937_64 rng(45);
  const std::vector<std::uint64_t> stored = random_keys(rng, 5000, 34, 0.3);
  const std::vector<std::uint64_t> queries = random_keys(rng, 3000, 34, 0.3);
  const nqueens::join::KeyParts stored_parts{stored, {}}, query_parts{queries, {}};
  const auto works = split_works(stored_parts, query_parts, most_shared_bits(stored_parts, query_parts, 34, 4),
                                 nqueens::join::detail::BlockLanes{512, 256});
  ASSERT_EQ(works.size(), 5u);
  EXPECT_NEAR(works[0].queries, 3000.0, 1e-6);
  EXPECT_NEAR(works[0].block_queries, works[0].blocks * works[0].queries, 1e-6);
  for (std::size_t count = 0; count < works.size(); ++count) {
    EXPECT_NEAR(works[count].queries, 3000.0, 1e-6) << count;
    EXPECT_DOUBLE_EQ(works[count].visits, std::pow(3.0, static_cast<double>(count))) << count;
    EXPECT_LT(works[count].block_queries, works[count].blocks * works[count].queries + 1e-6) << count;
  }
}

TEST_P(DisjointCountTest, BadKeyBitsAreRejected) {
  DisjointCounter counter(GetParam());
  const std::vector<std::uint64_t> keys = {1, 2};
  EXPECT_THROW(counter.load(keys, 0), std::invalid_argument);
  EXPECT_THROW(counter.load(keys, 65), std::invalid_argument);
  EXPECT_THROW(count_disjoint_pairs(counter, keys, keys, 0), std::invalid_argument);
  EXPECT_THROW(DisjointCounter(GetParam(), 3), std::invalid_argument);
  EXPECT_THROW(DisjointCounter(GetParam(), 7), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Paths, DisjointCountTest, ::testing::ValuesIn(kAllPaths),
                         [](const ::testing::TestParamInfo<MatchPath>& param_info) {
                           return std::string(nqueens::join::to_string(param_info.param));
                         });

#if defined(__x86_64__)
// The AVX-512 path tests small sides' pairs one by one, thirty-two keys of one side held at once:
// every size around those thirty-two and their eight-key registers, against the naive count,
// with bits above the key ignored.
TEST(PairsOneByOne, TheAvx512LoopCountsWhatTheNaiveLoopCounts) {
  if (!nqueens::join::supported(MatchPath::avx512)) GTEST_SKIP() << "this CPU cannot run the avx512 path";
  std::mt19937_64 rng(45);
  // Keys of at most 32 bits take sixteen 32-bit lanes a register; the smaller side is held.
  for (const int key_bits : {5, 30, 32, 33, 64}) {
    for (const std::size_t a_size : {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129}) {
      for (const std::size_t b_size : {0, 1, 3, 40, 200}) {
        const std::vector<std::uint64_t> a =
            keys_with_dense_bits(rng, a_size, key_bits, balanced_density(key_bits), 0, 0);
        const std::vector<std::uint64_t> b = random_keys(rng, b_size, 64, balanced_density(key_bits));
        EXPECT_EQ(nqueens::join::detail::count_pairs_one_by_one_avx512(a, b, key_mask(key_bits)),
                  naive_count(a, b, key_bits))
            << key_bits << " key bits, " << a_size << " x " << b_size;
      }
    }
  }
}
#endif

// Pairs tested one by one look only at the bits both sides set, packed to 32 bits with PEXT where
// they fit (sixteen pairs an instruction on AVX-512): 34-bit keys, each side missing some bits,
// around the eight-key register, on every path, against the naive count.
TEST_P(DisjointCountTest, PairsOneByOneTestOnlyTheBitsBothSidesSet) {
  std::mt19937_64 rng(34);
  const int key_bits = 34;
  DisjointCounter counter(GetParam());
  std::size_t packed = 0;
  for (const std::uint64_t missing : {std::uint64_t{0}, std::uint64_t{0x3}, std::uint64_t{0x300000001}}) {
    for (const std::size_t a_size : {1, 8, 9, 16, 17, 40, 65}) {
      for (const std::size_t b_size : {1, 9, 33, 100}) {
        std::vector<std::uint64_t> a = random_keys(rng, a_size, key_bits, balanced_density(key_bits));
        std::vector<std::uint64_t> b = random_keys(rng, b_size, key_bits, balanced_density(key_bits));
        for (std::uint64_t& key : a) key &= ~missing;
        for (std::uint64_t& key : b) key &= ~(missing << 2);
        std::uint64_t in_a = 0, in_b = 0;
        for (const std::uint64_t key : a) in_a |= key;
        for (const std::uint64_t key : b) in_b |= key;
        const std::uint64_t shared = in_a & in_b;
        EXPECT_EQ(counter.count_one_by_one(a, b, shared), naive_count(a, b, key_bits))
            << a_size << " x " << b_size << ", shared bits " << std::popcount(shared);
        packed += counter.tests_sixteen_at_once(a_size, b_size, shared) && shared > 0xffffffff ? 1 : 0;
      }
    }
  }
  if (GetParam() == MatchPath::avx512 && nqueens::join::detail::fast_bit_gather()) {
    EXPECT_GT(packed, 0u) << "some sides' shared bits are packed to 32";
  }
}

// On an Intel CPU with AVX-512 a pair tested one by one is priced kIntelPairScale times the Zen 4
// figure: 256 keys of 32 bits against 1024 are then loaded (on a Xeon they took 0.76 of the pairs'
// time so), and tested one by one elsewhere (at the Zen 4 prices 7,864 ns against 8,096 loaded).
TEST(MatchCost, AnIntelCpuLoadsSidesThatZen4TestsOneByOne) {
#if defined(__x86_64__)
  if (!nqueens::join::supported(MatchPath::avx512)) GTEST_SKIP() << "no AVX-512 here";
  std::mt19937_64 rng(19);
  const std::vector<std::uint64_t> a = random_keys(rng, 256, 32, 0.25), b = random_keys(rng, 1024, 32, 0.25);
  DisjointCounter counter(MatchPath::avx512);
  const auto choice = nqueens::join::detail::choose_match(counter, {a, {}}, {b, {}}, 32);
  EXPECT_EQ(choice.one_by_one, !__builtin_cpu_is("intel"));
#else
  GTEST_SKIP() << "AVX-512 is x86's";
#endif
}

// Sides whose pairs cost less than least_load_ns() are tested one by one without pricing their
// loads: no load of any size, of either part split, meeting any number of queries, costs less.
TEST(MatchCost, NoLoadCostsLessThanTheLeastLoad) {
  using namespace nqueens::join::detail;
  for (const BlockLanes lanes : {BlockLanes{512, 256}, BlockLanes{256, 0}}) {
    for (const std::size_t first : {0, 1, 100, 256, 257, 512, 513, 5000})
      for (const std::size_t second : {0, 1, 300, 700})
        for (const std::size_t queries : {1, 50, 10000}) {
          if (first + second == 0) continue;
          EXPECT_GE(bit_sliced_ns(load_blocks(PartSizes{first, second}, lanes), queries), least_load_ns(lanes))
              << first << " + " << second << " keys, narrow lanes " << lanes.narrow;
        }
  }
}

// The chunk width a load takes by its query count: narrow for a few queries a block, the default
// for many or an unknown number; and every width counts the same pairs.
TEST_P(DisjointCountTest, AFewQueriesTakeNarrowChunksAndCountTheSame) {
  EXPECT_EQ(DisjointCounter::chunk_bits_for(30, DisjointCounter::kUnknownQueries), DisjointCounter::kDefaultChunkBits);
  EXPECT_EQ(DisjointCounter::chunk_bits_for(30, 1), 4);
  EXPECT_EQ(DisjointCounter::chunk_bits_for(38, 1'000'000), DisjointCounter::kDefaultChunkBits);
  std::mt19937_64 rng(17);
  const int key_bits = 30;
  const std::vector<std::uint64_t> stored = random_keys(rng, 700, key_bits, balanced_density(key_bits));
  for (const std::size_t queries : {std::size_t{1}, std::size_t{20}, std::size_t{300}, std::size_t{5000}}) {
    const std::vector<std::uint64_t> asked = random_keys(rng, queries, key_bits, balanced_density(key_bits));
    DisjointCounter counter(GetParam());
    counter.load_parts({stored, {}}, key_bits, queries);
    EXPECT_EQ(counter.chunk_bits(), DisjointCounter::chunk_bits_for(key_bits, queries));
    EXPECT_EQ(counter.count(asked), naive_count(stored, asked, key_bits)) << queries << " queries";
  }
}

TEST(BitGather, PacksTheMaskedBitsFromBitZeroInTheirOrder) {
  if (!nqueens::join::detail::fast_bit_gather()) GTEST_SKIP() << "this CPU has no fast PEXT";
  std::mt19937_64 rng(24);
  const std::vector<std::uint64_t> keys = random_keys(rng, 500, 64, 0.5);
  for (const std::uint64_t mask : {std::uint64_t{0}, ~std::uint64_t{0}, std::uint64_t{0x8000000000000001},
                                   std::uint64_t{0x0f0f00ff00001230}, rng()}) {
    std::vector<std::uint64_t> wide(keys.size());
    std::vector<std::uint16_t> narrow(keys.size());
    nqueens::join::detail::gather_bits(keys, mask, wide.data());
    nqueens::join::detail::gather_bits(keys, mask & 0xffff0000, narrow.data());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      std::uint64_t expected = 0, expected_narrow = 0;
      int next = 0, next_narrow = 0;
      for (int bit = 0; bit < 64; ++bit) {
        const std::uint64_t key_bit = (keys[i] >> bit) & 1;
        if ((mask >> bit) & 1) expected |= key_bit << next++;
        if (((mask & 0xffff0000) >> bit) & 1) expected_narrow |= key_bit << next_narrow++;
      }
      ASSERT_EQ(wide[i], expected) << "mask " << mask << ", key " << keys[i];
      ASSERT_EQ(narrow[i], expected_narrow) << "mask " << (mask & 0xffff0000) << ", key " << keys[i];
    }
  }
}

TEST(MatchPathTest, NamesAndSupport) {
  EXPECT_STREQ(nqueens::join::to_string(MatchPath::scalar), "scalar");
  EXPECT_STREQ(nqueens::join::to_string(MatchPath::avx2), "avx2");
  EXPECT_STREQ(nqueens::join::to_string(MatchPath::avx512), "avx512");
  EXPECT_TRUE(nqueens::join::supported(MatchPath::scalar));
  EXPECT_TRUE(nqueens::join::supported(nqueens::join::best_match_path()));
  EXPECT_EQ(DisjointCounter().path(), nqueens::join::best_match_path());
}

TEST(MatchPathTest, UnsupportedPathIsRefusedNotRun) {
  for (const MatchPath path : kAllPaths) {
    if (nqueens::join::supported(path)) continue;
    EXPECT_THROW(DisjointCounter{path}, std::invalid_argument) << nqueens::join::to_string(path);
  }
}

}  // namespace
