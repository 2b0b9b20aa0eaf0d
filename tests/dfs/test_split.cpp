#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <vector>

#include "board/bitboard.hpp"
#include "nqueens/nqueens.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::split;
using nqueens::Symmetry;
using nqueens::UnitKind;
using nqueens::WorkPlan;
using nqueens::WorkUnit;
using test_support::kModes;

bool same_unit(const WorkUnit& a, const WorkUnit& b) {
  return a.queens == b.queens && a.rows == b.rows && a.kind == b.kind && a.weight == b.weight && a.bound == b.bound &&
         a.cols == b.cols && a.left_diag == b.left_diag && a.right_diag == b.right_diag;
}

std::vector<int> prefix(const WorkUnit& unit) { return {unit.queens.begin(), unit.queens.begin() + unit.rows}; }

// Queen against queen, the way a person checks a board: no shared column, no shared diagonal.
bool legal(const std::vector<int>& queens) {
  for (std::size_t a = 0; a < queens.size(); ++a)
    for (std::size_t b = a + 1; b < queens.size(); ++b)
      if (queens[a] == queens[b] || std::abs(queens[a] - queens[b]) == static_cast<int>(b - a)) return false;
  return true;
}

// The masks the kernel starts from, rebuilt square by square from the queens.
void expect_masks_match_queens(const WorkUnit& unit, int n) {
  nqueens::Mask cols = 0, left = 0, right = 0;
  for (int r = 0; r < unit.rows; ++r) {
    const int q = unit.queens[static_cast<std::size_t>(r)];
    const int distance = unit.rows - r;  // rows between this queen and row `rows`
    cols |= nqueens::Mask{1} << q;
    if (q + distance < n) left |= nqueens::Mask{1} << (q + distance);
    if (q - distance >= 0) right |= nqueens::Mask{1} << (q - distance);
  }
  const nqueens::Mask board = nqueens::board_mask(n);
  EXPECT_EQ(unit.cols, cols);
  EXPECT_EQ(unit.left_diag & board, left);
  EXPECT_EQ(unit.right_diag & board, right);
}

TEST(Split, SameInputsGiveSameUnitsAndFingerprint) {
  for (Symmetry mode : kModes)
    for (int n : {1, 5, 8, 13}) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " mode=" << nqueens::to_string(mode));
      const WorkPlan a = split(n, mode), b = split(n, mode);
      ASSERT_EQ(a.units.size(), b.units.size());
      for (std::size_t id = 0; id < a.units.size(); ++id)
        EXPECT_TRUE(same_unit(a.units[id], b.units[id])) << "unit " << id;
      EXPECT_EQ(nqueens::fingerprint(a), nqueens::fingerprint(b));
    }
}

TEST(Split, FingerprintsDifferAcrossNSymmetryAndDepth) {
  const std::vector<WorkPlan> plans = {split(10, Symmetry::none, 2),   split(11, Symmetry::none, 2),
                                       split(10, Symmetry::mirror, 2), split(10, Symmetry::full, 2),
                                       split(10, Symmetry::none, 3),   split(10, Symmetry::none, 4)};
  std::set<std::uint64_t> prints;
  for (const WorkPlan& plan : plans) prints.insert(nqueens::fingerprint(plan));
  EXPECT_EQ(prints.size(), plans.size());
}

// Journals and shards trust the fingerprint to stand for the unit list, so it must see a
// change in any unit's content and in the units' order.
TEST(Split, FingerprintSeesUnitContentAndOrder) {
  const WorkPlan plan = split(9, Symmetry::mirror, 3);
  const std::uint64_t original = nqueens::fingerprint(plan);
  WorkPlan reweighted = plan;
  reweighted.units[0].weight = 1;
  EXPECT_NE(nqueens::fingerprint(reweighted), original);
  WorkPlan reordered = plan;
  std::swap(reordered.units.front(), reordered.units.back());
  EXPECT_NE(nqueens::fingerprint(reordered), original);
}

TEST(Split, AutoDepthDependsOnNAlone) {
  for (int n = nqueens::kMinN; n <= nqueens::kMaxN; ++n) {
    const int depth = nqueens::auto_split_depth(n);
    EXPECT_GE(depth, nqueens::kMinSplitDepth) << "n=" << n;
    EXPECT_LE(depth, nqueens::kMaxSplitDepth) << "n=" << n;
    if (n > nqueens::kMinN) {
      EXPECT_GE(depth, nqueens::auto_split_depth(n - 1)) << "n=" << n;
    }
  }
  for (Symmetry mode : kModes)
    for (int n = 1; n <= 14; ++n)
      EXPECT_EQ(split(n, mode).split_depth, std::min(nqueens::auto_split_depth(n), n)) << "n=" << n;
}

// The thread count must not leak into the plan: same depth and unit count on 1 and 3 threads.
TEST(Split, PlanDoesNotDependOnThreads) {
  for (int n : {6, 12}) {
    const auto one = nqueens::count(n, test_support::options(Symmetry::full, 1));
    const auto three = nqueens::count(n, test_support::options(Symmetry::full, 3));
    EXPECT_EQ(one.settings.at("split-depth"), three.settings.at("split-depth"));
    EXPECT_EQ(one.work_units, three.work_units);
  }
}

TEST(Split, BadNOrDepthThrows) {
  for (Symmetry mode : kModes) {
    EXPECT_THROW(split(0, mode), std::invalid_argument);
    EXPECT_THROW(split(33, mode), std::invalid_argument);
    EXPECT_THROW(split(-1, mode), std::invalid_argument);
    EXPECT_THROW(split(8, mode, 1), std::invalid_argument);
    EXPECT_THROW(split(8, mode, 5), std::invalid_argument);
    EXPECT_THROW(split(8, mode, -2), std::invalid_argument);
  }
}

TEST(Split, DepthClampsToTinyBoards) {
  for (Symmetry mode : kModes)
    for (int n = 1; n <= 3; ++n) {
      const WorkPlan plan = split(n, mode, 4);
      EXPECT_EQ(plan.split_depth, n);
      for (const WorkUnit& unit : plan.units) EXPECT_LE(static_cast<int>(unit.rows), n);
    }
  EXPECT_EQ(split(1, Symmetry::none, 2).units.size(), 1u);  // the lone queen
}

TEST(Split, EveryPrefixIsLegalAndMasksMatchIt) {
  for (Symmetry mode : kModes)
    for (int n = 1; n <= 12; ++n)
      for (int depth = nqueens::kMinSplitDepth; depth <= nqueens::kMaxSplitDepth; ++depth) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " mode=" << nqueens::to_string(mode) << " depth=" << depth);
        const WorkPlan plan = split(n, mode, depth);
        for (const WorkUnit& unit : plan.units) {
          EXPECT_EQ(static_cast<int>(unit.rows), plan.split_depth);
          EXPECT_TRUE(legal(prefix(unit)));
          expect_masks_match_queens(unit, n);
        }
      }
}

// Ids are positions in a list sorted by prefix: strictly increasing, so no prefix twice.
TEST(Split, UnitsAreInStrictLexicographicOrder) {
  for (Symmetry mode : kModes)
    for (int n = 4; n <= 12; ++n) {
      const WorkPlan plan = split(n, mode, 3);
      for (std::size_t id = 1; id < plan.units.size(); ++id)
        EXPECT_LT(prefix(plan.units[id - 1]), prefix(plan.units[id])) << "n=" << n << " id=" << id;
    }
}

// With no symmetry the units are exactly the legal placements of the first `depth` rows.
TEST(Split, NoneModeHasEveryLegalPrefix) {
  for (int n = 4; n <= 9; ++n) {
    std::size_t legal_prefixes = 0;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        for (int c = 0; c < n; ++c) legal_prefixes += legal({a, b, c}) ? 1 : 0;
    const WorkPlan plan = split(n, Symmetry::none, 3);
    EXPECT_EQ(plan.units.size(), legal_prefixes) << "n=" << n;
    for (const WorkUnit& unit : plan.units) EXPECT_EQ(unit.weight, 1);
  }
}

// Mirror: first queen in the left half (weight 2, for the board and its mirror image); with odd
// N a middle first queen is allowed only with the second queen left of the middle.
TEST(Split, MirrorModeWeightsAndHalves) {
  for (int n = 2; n <= 12; ++n) {
    const WorkPlan plan = split(n, Symmetry::mirror, 2);
    for (const WorkUnit& unit : plan.units) {
      EXPECT_EQ(unit.kind, UnitKind::plain);
      EXPECT_EQ(unit.weight, 2);
      const int first = unit.queens[0], second = unit.queens[1];
      const bool left_half = 2 * first < n - 1;
      const bool middle_then_left = n % 2 == 1 && 2 * first == n - 1 && 2 * second < n - 1;
      EXPECT_TRUE(left_half || middle_then_left) << "n=" << n << " " << first << "," << second;
    }
  }
  const WorkPlan one = split(1, Symmetry::mirror);
  ASSERT_EQ(one.units.size(), 1u);
  EXPECT_EQ(one.units[0].weight, 1);  // the 1 x 1 board is its own mirror image
}

// Full: corner units put the first queen at (0,0) and the second at column `bound`; edge units
// put the first queen `bound` columns in, short of the middle.
TEST(Split, FullModeUnitShapes) {
  for (int n = 4; n <= 12; ++n)
    for (const WorkUnit& unit : split(n, Symmetry::full, 2).units) {
      if (unit.kind == UnitKind::corner) {
        EXPECT_EQ(unit.queens[0], 0);
        EXPECT_EQ(unit.queens[1], unit.bound);
      } else {
        ASSERT_EQ(unit.kind, UnitKind::edge);
        EXPECT_EQ(unit.queens[0], unit.bound);
        EXPECT_GE(unit.bound, 1);
        EXPECT_LT(2 * unit.bound, n - 1);
      }
    }
}

}  // namespace
