// The three symmetry modes search different parts of the board and weight them differently;
// that they agree on every total is one of the engine's main oracles.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nqueens/nqueens.hpp"
#include "reference/reference.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::CountResult;
using nqueens::Symmetry;
using nqueens::to_string;

constexpr int kLargestN = 13;

CountResult run(int n, Symmetry mode) { return nqueens::count(n, test_support::options(mode)); }

TEST(SymmetryModes, AllModesGiveTheSameTotal) {
  for (int n = 1; n <= kLargestN; ++n) {
    const std::string none = to_string(run(n, Symmetry::none).totals.total);
    EXPECT_EQ(to_string(run(n, Symmetry::mirror).totals.total), none) << "n=" << n;
    EXPECT_EQ(to_string(run(n, Symmetry::full).totals.total), none) << "n=" << n;
  }
}

TEST(SymmetryModes, UniqueOnlyInFullModeAndMatchesA002562) {
  for (int n = 1; n <= kLargestN; ++n) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    EXPECT_FALSE(run(n, Symmetry::none).unique.has_value());
    EXPECT_FALSE(run(n, Symmetry::mirror).unique.has_value());
    const CountResult full = run(n, Symmetry::full);
    ASSERT_TRUE(full.unique.has_value());
    EXPECT_EQ(to_string(*full.unique), std::to_string(*nqueens::oeis_unique(n)));
  }
}

// An oracle that shares nothing with the kernel's bookkeeping: every solution listed by the slow
// reference counter, each one's orbit found by applying the 8 symmetries of the square as
// permutation transforms written out here, the orbits grouped and counted by size. Full mode's
// orbit slots must match those counts, slot by slot, for every N up to 11 (2,680 solutions).
using Board = std::vector<int>;  // board[row] = column

// Three reflections of a permutation board generate the square's 8 symmetries; the other five are
// their compositions, each checked by where it takes a queen (r, c).
Board left_right(const Board& b) {  // (r, c) -> (r, n-1-c)
  Board out(b.size());
  for (std::size_t r = 0; r < b.size(); ++r) out[r] = static_cast<int>(b.size()) - 1 - b[r];
  return out;
}
Board top_bottom(const Board& b) {  // (r, c) -> (n-1-r, c)
  return {b.rbegin(), b.rend()};
}
Board transpose(const Board& b) {  // (r, c) -> (c, r): the inverse permutation
  Board out(b.size());
  for (std::size_t r = 0; r < b.size(); ++r) out[static_cast<std::size_t>(b[r])] = static_cast<int>(r);
  return out;
}

std::vector<Board> eight_images(const Board& b) {
  const Board t = transpose(b);
  return {b,                          // identity
          left_right(b),              // vertical mirror
          top_bottom(b),              // horizontal mirror
          left_right(top_bottom(b)),  // half turn: (n-1-r, n-1-c)
          t,                          // main diagonal
          left_right(top_bottom(t)),  // anti-diagonal: (n-1-c, n-1-r)
          left_right(t),              // quarter turn: (c, n-1-r)
          top_bottom(t)};             // the other quarter turn: (n-1-c, r)
}

// Orbits of 1, 2, 4 and 8 boards among all solutions of n.
std::array<std::uint64_t, 4> orbits_by_size(int n) {
  std::map<Board, std::set<Board>> orbit_of_least;  // least image -> the orbit's members seen
  nqueens::reference_solutions(n, [&orbit_of_least](const Board& board) {
    const std::vector<Board> images = eight_images(board);
    orbit_of_least[*std::min_element(images.begin(), images.end())].insert(board);
  });
  std::array<std::uint64_t, 4> counts{};
  for (const auto& [least, members] : orbit_of_least) {
    // Every image of a solution is a solution, so each group is a whole orbit; its size is
    // the number of distinct images of any one member.
    const std::vector<Board> images = eight_images(least);
    const std::set<Board> distinct(images.begin(), images.end());
    EXPECT_EQ(members, distinct) << "n=" << n << ": an orbit's members are not the images of its least board";
    const std::size_t size = members.size();
    EXPECT_TRUE(size == 1 || size == 2 || size == 4 || size == 8) << "n=" << n << " orbit of " << size;
    ++counts[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
  }
  return counts;
}

TEST(SymmetryModes, FullModeOrbitsMatchTheOrbitsOfEveryReferenceSolution) {
  // Hand-checked anchors for the oracle itself: N = 4 has one orbit of 2 (1 3 0 2 and its
  // mirror), N = 5 one of 2 and one of 8, N = 6 one of 4, N = 8 one of 4 and eleven of 8.
  EXPECT_EQ(orbits_by_size(1), (std::array<std::uint64_t, 4>{1, 0, 0, 0}));
  EXPECT_EQ(orbits_by_size(4), (std::array<std::uint64_t, 4>{0, 1, 0, 0}));
  EXPECT_EQ(orbits_by_size(5), (std::array<std::uint64_t, 4>{0, 1, 0, 1}));
  EXPECT_EQ(orbits_by_size(6), (std::array<std::uint64_t, 4>{0, 0, 1, 0}));
  EXPECT_EQ(orbits_by_size(8), (std::array<std::uint64_t, 4>{0, 0, 1, 11}));
  for (int n = 1; n <= 11; ++n) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    const std::array<std::uint64_t, 4> expected = orbits_by_size(n);
    const CountResult full = run(n, Symmetry::full);
    EXPECT_EQ(full.engine, "dfs");
    for (std::size_t slot = 0; slot < expected.size(); ++slot)
      EXPECT_EQ(to_string(full.totals.orbits[slot]), std::to_string(expected[slot])) << "orbits of " << (1 << slot);
    EXPECT_EQ(to_string(full.totals.total), std::to_string(nqueens::reference_count(n)));
  }
}

TEST(SymmetryModes, ResultEchoesTheModeAsked) {
  for (Symmetry mode : test_support::kModes) {
    const CountResult r = run(8, mode);
    EXPECT_EQ(r.settings.at("symmetry"), nqueens::to_string(mode));
    EXPECT_EQ(r.n, 8);
    EXPECT_EQ(r.work_units, nqueens::split(8, mode).units.size());
  }
}

TEST(SymmetryModes, NamesRoundTrip) {
  for (Symmetry mode : test_support::kModes) EXPECT_EQ(nqueens::parse_symmetry(nqueens::to_string(mode)), mode);
  EXPECT_FALSE(nqueens::parse_symmetry("Full").has_value());
  EXPECT_FALSE(nqueens::parse_symmetry("").has_value());
}

}  // namespace
