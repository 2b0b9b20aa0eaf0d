// MatchShares: a count of disjoint pairs cut into shares that make the count's choices once.
// Over any number of shares, their pairs add up to count_weighted_disjoint_pairs()'s, on every
// path, for sides counted one by one, stored without a split, and split into slots (both stored
// parts together, or apart), whatever the counter loaded between two shares.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "join/disjoint_count.hpp"
#include "join/match_shares.hpp"

namespace {

using nqueens::join::count_weighted_disjoint_pairs;
using nqueens::join::DisjointCounter;
using nqueens::join::KeyParts;
using nqueens::join::MatchPath;
using nqueens::join::MatchShares;
using nqueens::join::PartWeights;

// Keys of `key_bits` bits, each set with probability `density`, but for bits 0..3 set in a
// quarter of the keys: the bits a split takes.
std::vector<std::uint64_t> keys(std::mt19937_64& rng, std::size_t count, int key_bits, double density) {
  std::bernoulli_distribution set(density), often(0.25);
  std::vector<std::uint64_t> made(count);
  for (std::uint64_t& key : made)
    for (int bit = 0; bit < key_bits; ++bit)
      if (bit < 4 ? often(rng) : set(rng)) key |= std::uint64_t{1} << bit;
  return made;
}

struct Sides {
  const char* what;
  std::size_t a_ties, a_rest, b_ties, b_rest;
};

class MatchSharesTest : public ::testing::TestWithParam<MatchPath> {
 protected:
  void SetUp() override {
    if (!nqueens::join::supported(GetParam()))
      GTEST_SKIP() << "this CPU cannot run the " << nqueens::join::to_string(GetParam()) << " path";
  }
};

TEST_P(MatchSharesTest, SharesAddUpToTheCountWhateverTheCounterLoadedBetween) {
  constexpr int kKeyBits = 34;
  constexpr PartWeights kWeights = {{{1, 2}, {2, 2}}};
  const Sides all_sides[] = {{"one by one", 10, 30, 5, 25},
                             {"one load", 20, 300, 10, 400},
                             {"slots", 0, 6000, 0, 5000},
                             {"slots, two parts", 300, 5000, 250, 6000}};
  std::mt19937_64 rng(42);
  DisjointCounter counter(GetParam());
  const std::vector<std::uint64_t> other = keys(rng, 3000, kKeyBits, 0.3);
  for (const Sides& sides : all_sides) {
    const auto a_ties = keys(rng, sides.a_ties, kKeyBits, 0.3), a_rest = keys(rng, sides.a_rest, kKeyBits, 0.3);
    const auto b_ties = keys(rng, sides.b_ties, kKeyBits, 0.3), b_rest = keys(rng, sides.b_rest, kKeyBits, 0.3);
    const KeyParts a = {a_ties, a_rest}, b = {b_ties, b_rest};
    const std::uint64_t whole = count_weighted_disjoint_pairs(counter, a, b, kWeights, kKeyBits);
    ASSERT_GT(whole, 0u) << sides.what;
    for (const std::size_t cut : {1, 2, 7, 64}) {
      const MatchShares shares(counter, a, b, kWeights, kKeyBits, cut);
      std::uint64_t sum = 0;
      bool split = false;  // some share counts neither none nor all of the pairs
      for (std::size_t share = 0; share < shares.shares(); ++share) {
        const std::uint64_t pairs = shares.count(counter, share);
        split = split || (pairs > 0 && pairs < whole);
        sum += pairs;
        count_weighted_disjoint_pairs(counter, {other, {}}, {other, {}}, kWeights, kKeyBits);
      }
      const std::string where = std::string(sides.what) + ", " + std::to_string(cut) + " shares";
      EXPECT_EQ(sum, whole) << where;
      EXPECT_EQ(split, cut > 1) << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, MatchSharesTest,
                         ::testing::Values(MatchPath::scalar, MatchPath::avx2, MatchPath::avx512),
                         [](const ::testing::TestParamInfo<MatchPath>& param_info) {
                           return std::string(nqueens::join::to_string(param_info.param));
                         });

}  // namespace
