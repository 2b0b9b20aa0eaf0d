// The breadth-first expansion: the SIMD path (chosen at run time) against the portable one,
// and both against a direct enumeration of children.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "dfs/breadth.hpp"

namespace {

using nqueens::Mask;
using nqueens::detail::Level;
using nqueens::detail::RowRule;

using Child = std::tuple<Mask, Mask, Mask, std::uint32_t>;

std::vector<Child> children_of(const Level& level, bool with_parents) {
  std::vector<Child> out;
  for (std::size_t i = 0; i < level.size; ++i)
    out.emplace_back(level.cols[i], level.left[i], level.right[i], with_parents ? level.parent[i] : 0);
  std::sort(out.begin(), out.end());
  return out;
}

// Random partial boards of width n; the masks need not come from a real search, only be
// consistent inputs, since expand() treats them as plain attack sets.
Level random_level(int n, std::size_t size, std::mt19937& random) {
  Level level;
  level.reserve(size, true);
  std::uniform_int_distribution<Mask> bits(0, nqueens::board_mask(n));
  for (std::size_t i = 0; i < size; ++i) {
    level.cols[i] = bits(random) & bits(random);
    level.left[i] = bits(random) & bits(random) & bits(random);
    level.right[i] = bits(random) & bits(random) & bits(random);
  }
  level.size = size;
  return level;
}

std::vector<Child> expected_children(const Level& in, const RowRule& rule) {
  std::vector<Child> out;
  for (std::size_t i = 0; i < in.size; ++i) {
    const Mask free = nqueens::detail::free_columns(in, i, rule);
    for (int col = 0; col < 32; ++col) {
      const Mask bit = Mask{1} << col;
      if (free & bit)
        out.emplace_back(in.cols[i] | bit, (in.left[i] | bit) << 1, (in.right[i] | bit) >> 1,
                         static_cast<std::uint32_t>(i));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Breadth, SimdAndPortableAgreeWithDirectEnumeration) {
  std::mt19937 random(7);
  for (int n : {4, 9, 16, 31, 32}) {
    for (std::size_t size : {0u, 1u, 7u, 8u, 9u, 100u, 1000u}) {
      const Level in = random_level(n, size, random);
      const Mask sides = Mask{1} | (Mask{1} << (n - 1));
      for (const RowRule& rule :
           {RowRule{nqueens::board_mask(n), 0, false}, RowRule{nqueens::board_mask(n) & ~Mask{6}, 0, false},
            RowRule{nqueens::board_mask(n), sides, true}}) {
        Level fast, portable;
        nqueens::detail::expand(in, fast, rule, true);
        nqueens::detail::expand_scalar(in, portable, rule, true);
        const auto expected = expected_children(in, rule);
        EXPECT_EQ(children_of(fast, true), expected) << "n=" << n << " size=" << size;
        EXPECT_EQ(children_of(portable, true), expected) << "n=" << n << " size=" << size;
      }
    }
  }
}

// Random boards lacking two rows: all columns but two taken, random diagonal attacks.
Level two_rows_short(int n, std::size_t size, std::mt19937& random) {
  Level level = random_level(n, size, random);
  std::uniform_int_distribution<int> column(0, n - 1);
  for (std::size_t i = 0; i < size; ++i) {
    const int a = column(random);
    int b = column(random);
    while (b == a) b = column(random);
    level.cols[i] = nqueens::board_mask(n) & ~(Mask{1} << a) & ~(Mask{1} << b);
  }
  return level;
}

// finish_two_rows() against two expand() steps and a look at the last row, the way it was done
// before: the boards with one row left, and every finished board with its two last queens.
TEST(Breadth, FinishTwoRowsFindsWhatTwoExpansionsFind) {
  using nqueens::detail::Leaf;
  std::mt19937 random(11);
  for (int n : {5, 9, 16, 31, 32}) {
    const Mask all = nqueens::board_mask(n);
    const Mask sides = Mask{1} | (Mask{1} << (n - 1));
    for (std::size_t size : {0u, 1u, 7u, 9u, 1000u}) {
      const Level in = two_rows_short(n, size, random);
      for (const auto& [second_last, last] :
           {std::pair{RowRule{all, 0, false}, RowRule{all, 0, false}},
            std::pair{RowRule{all, sides, true}, RowRule{all & ~Mask{3}, 0, false}}}) {
        Level middle, bottom;
        nqueens::detail::expand_scalar(in, middle, second_last, true);
        nqueens::detail::expand_scalar(middle, bottom, last, true);
        std::vector<std::tuple<std::uint32_t, Mask, Mask>> expected;
        for (std::size_t i = 0; i < bottom.size; ++i) {
          const std::uint32_t parent = bottom.parent[i];
          expected.emplace_back(middle.parent[parent], middle.cols[parent] ^ in.cols[middle.parent[parent]],
                                bottom.cols[i] ^ middle.cols[parent]);
        }
        std::sort(expected.begin(), expected.end());
        for (const bool simd : {true, false}) {
          std::vector<Leaf> leaves;
          const auto found = simd ? nqueens::detail::finish_two_rows(in, second_last, last, &leaves)
                                  : nqueens::detail::finish_two_rows_scalar(in, second_last, last, &leaves);
          EXPECT_EQ(found.second_last, middle.size) << "n=" << n << " size=" << size << " simd=" << simd;
          EXPECT_EQ(found.leaves, bottom.size) << "n=" << n << " size=" << size << " simd=" << simd;
          std::vector<std::tuple<std::uint32_t, Mask, Mask>> got;
          for (const Leaf& leaf : leaves) got.emplace_back(leaf.board, leaf.second_last, leaf.last);
          std::sort(got.begin(), got.end());
          EXPECT_EQ(got, expected) << "n=" << n << " size=" << size << " simd=" << simd;
          EXPECT_EQ((simd ? nqueens::detail::finish_two_rows(in, second_last, last, nullptr)
                          : nqueens::detail::finish_two_rows_scalar(in, second_last, last, nullptr))
                        .leaves,
                    bottom.size);
        }
      }
    }
  }
}

TEST(Breadth, SideRuleForcesTheLastEmptySide) {
  const int n = 8;
  const Mask sides = Mask{1} | (Mask{1} << 7);
  const RowRule rule{nqueens::board_mask(n), sides, true};
  EXPECT_EQ(nqueens::detail::free_columns(0, 0, 0, rule), 0u) << "both sides empty: dead";
  EXPECT_EQ(nqueens::detail::free_columns(Mask{1}, 0, 0, rule), Mask{1} << 7) << "right side must be filled";
  EXPECT_EQ(nqueens::detail::free_columns(sides, 0, 0, rule), nqueens::board_mask(n) & ~sides);
}

}  // namespace
