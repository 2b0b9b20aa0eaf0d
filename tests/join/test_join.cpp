// The join engine against the reference counter: totals, each unit on its own, the symmetry
// folding of the plan, and the plan's determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "join/diagonal_fold.hpp"
#include "join/half_boards.hpp"
#include "join/join_kernel.hpp"
#include "join/join_layout.hpp"
#include "join/join_plan.hpp"
#include "join/quarter_slice.hpp"
#include "join/quarter_table.hpp"
#include "join/slice_cache.hpp"
#include "join/unit_cost.hpp"
#include "reference/reference.hpp"

namespace nqueens::join {
namespace {

std::uint64_t join_total(int n) {
  SliceCache slices(n, UINT64_MAX);
  JoinCounter counter(slices);
  std::uint64_t total = 0;
  for (const JoinUnit& unit : split(n).units) total += unit.weight * counter.count(unit).pairs;
  return total;
}

// What identifies a unit, as a tuple so units and reference solutions can be matched up.
using UnitKey = std::tuple<JoinCase, int, int, std::uint32_t>;

UnitKey key_of(const JoinUnit& unit) { return {unit.kind, unit.a, unit.b, unit.rows}; }

// The unit a solution belongs to before any folding: its case, (a, b) off centre, and the rows
// of its east-half queens (east columns 0..k-1; odd boards leave out the middle row).
UnitKey classify(const std::vector<int>& columns) {
  const int n = static_cast<int>(columns.size());
  const int k = n / 2;
  std::uint32_t east_rows = 0;
  for (int row = 0; row < n; ++row) {
    const bool middle = n % 2 == 1 && row == k;
    if (!middle && columns[static_cast<std::size_t>(row)] < k) east_rows |= std::uint32_t{1} << row;
  }
  if (n % 2 == 0) return {JoinCase::even, 0, 0, east_rows};
  const int a = columns[static_cast<std::size_t>(k)] - k;
  if (a == 0) return {JoinCase::centre, 0, 0, east_rows};
  const int middle_column_row = static_cast<int>(std::find(columns.begin(), columns.end(), k) - columns.begin());
  const int b = middle_column_row - k;
  // An off-centre unit takes every R with the same north rows.
  return {JoinCase::off_centre, a, b, east_rows & ((std::uint32_t{1} << k) - 1)};
}

// The diagonal fold's rank of a set X of rows (or columns) other than an odd board's middle one,
// straight from its definition (diagonal_fold.hpp): X's first k indices as a k-bit number x, its
// last k read from the far edge as y, rank = min(x, ~x, y, ~y).
std::uint32_t fold_rank(const std::set<int>& indices, int n) {
  const int k = n / 2;
  const std::uint32_t all = (std::uint32_t{1} << k) - 1;
  std::uint32_t near = 0, far = 0;
  for (const int index : indices) {
    if (index < k) near |= std::uint32_t{1} << index;
    if (index >= n - k) far |= std::uint32_t{1} << (n - 1 - index);
  }
  return std::min({near, all & ~near, far, all & ~far});
}

// What a solution adds to its unit's count: 1 off centre; in the folded cases 2, 1 or 0 as the
// rank of its north queens' columns is above, equal to or below that of its east queens' rows.
std::uint64_t fold_weight(const std::vector<int>& columns) {
  const int n = static_cast<int>(columns.size());
  const int k = n / 2;
  std::set<int> east_rows, north_columns;
  for (int row = 0; row < n; ++row) {
    const int column = columns[static_cast<std::size_t>(row)];
    if (n % 2 == 1 && (row == k || column == k)) {
      if (row != column) return 1;  // off centre
      continue;
    }
    if (column < k) east_rows.insert(row);
    if (row < k) north_columns.insert(column);
  }
  const std::uint32_t rows_rank = fold_rank(east_rows, n), columns_rank = fold_rank(north_columns, n);
  return columns_rank > rows_rank ? 2 : columns_rank == rows_rank ? 1 : 0;
}

// Each unit's count as the engine defines it: its solutions weighted by the diagonal fold.
std::map<UnitKey, std::uint64_t> reference_counts_by_unit(int n) {
  std::map<UnitKey, std::uint64_t> counts;
  reference_solutions(n, [&](const std::vector<int>& columns) { counts[classify(columns)] += fold_weight(columns); });
  return counts;
}

std::uint32_t reversed(std::uint32_t rows, int n) {
  std::uint32_t out = 0;
  for (int r = 0; r < n; ++r) {
    if (rows & (std::uint32_t{1} << r)) out |= std::uint32_t{1} << (n - 1 - r);
  }
  return out;
}

std::set<std::uint32_t> reflection_orbit(std::uint32_t rows, std::uint32_t free, int n) {
  const std::uint32_t complement = free & ~rows;
  return {rows, reversed(rows, n), complement, reversed(complement, n)};
}

std::uint32_t all_rows_but(int n, std::initializer_list<int> taken) {
  std::uint32_t rows = (std::uint32_t{1} << n) - 1;
  for (const int row : taken) rows &= ~(std::uint32_t{1} << row);
  return rows;
}

// Every R of the right size drawn from `free`, as a set.
std::set<std::uint32_t> all_row_sets(std::uint32_t free, int size) {
  std::set<std::uint32_t> sets;
  for (std::uint32_t rows = free;; rows = (rows - 1) & free) {
    if (std::popcount(rows) == size) sets.insert(rows);
    if (rows == 0) break;
  }
  return sets;
}

// What the fold rests on: the transposed board is a solution whose east rows are the north
// columns and whose north columns are the east rows, so N(R, C) = N(C, R) (odd boards: with the
// centre queen).
TEST(DiagonalFold, SolutionsOfRowAndColumnSetsAreSymmetric) {
  for (int n = 6; n <= 11; ++n) {
    std::map<std::pair<std::set<int>, std::set<int>>, int> solutions;
    reference_solutions(n, [&](const std::vector<int>& columns) {
      if (n % 2 == 1 && columns[static_cast<std::size_t>(n / 2)] != n / 2) return;  // off centre: not folded
      std::set<int> east_rows, north_columns;
      for (int row = 0; row < n; ++row) {
        if (n % 2 == 1 && row == n / 2) continue;
        if (columns[static_cast<std::size_t>(row)] < n / 2) east_rows.insert(row);
        if (row < n / 2) north_columns.insert(columns[static_cast<std::size_t>(row)]);
      }
      ++solutions[{east_rows, north_columns}];
    });
    for (const auto& [sets, count] : solutions) {
      const auto transposed = solutions.find({sets.second, sets.first});
      ASSERT_NE(transposed, solutions.end()) << "n = " << n;
      EXPECT_EQ(transposed->second, count) << "n = " << n;
    }
  }
}

// And the rank must not tell apart the sets a unit stands for: those the axis reflections map
// to each other (reversal, complement).
TEST(DiagonalFold, RankIsTheSameAcrossAUnitsOrbit) {
  for (const int n : {8, 9, 12, 13}) {
    const int k = n / 2;
    const std::uint32_t free = n % 2 == 0 ? all_rows_but(n, {}) : all_rows_but(n, {k});
    for (const std::uint32_t rows : all_row_sets(free, k)) {
      const JoinUnit unit{n % 2 == 0 ? JoinCase::even : JoinCase::centre, 0, 0, rows, 1};
      const std::uint32_t rank = diagonal_fold(layout_of(n, unit)).east.rank;
      for (const std::uint32_t image : reflection_orbit(rows, free, n)) {
        const JoinUnit mapped{unit.kind, 0, 0, image, 1};
        EXPECT_EQ(diagonal_fold(layout_of(n, mapped)).east.rank, rank) << "n = " << n << " rows " << rows;
      }
    }
  }
}

TEST(JoinPlan, MinimumSize) {
  EXPECT_NE(unsupported_reason(kMinJoinN - 1), "");
  EXPECT_EQ(unsupported_reason(kMinJoinN), "");
}

TEST(JoinTotal, MatchesReferenceUpTo12) {
  for (int n = kMinJoinN; n <= 12; ++n) EXPECT_EQ(join_total(n), reference_count(n)) << "n = " << n;
}

TEST(JoinTotal, KnownCounts13To16) {
  EXPECT_EQ(join_total(13), 73712u);
  EXPECT_EQ(join_total(14), 365596u);
  EXPECT_EQ(join_total(15), 2279184u);
  EXPECT_EQ(join_total(16), 14772512u);
}

TEST(JoinUnits, EachUnitMatchesItsReferenceSolutions) {
  for (int n = 6; n <= 10; ++n) {
    const std::map<UnitKey, std::uint64_t> expected = reference_counts_by_unit(n);
    SliceCache slices(n, UINT64_MAX);
    JoinCounter counter(slices);
    for (const JoinUnit& unit : split(n).units) {
      const auto found = expected.find(key_of(unit));
      const std::uint64_t want = found == expected.end() ? 0 : found->second;
      EXPECT_EQ(counter.count(unit).pairs, want) << "n = " << n << " case " << int(unit.kind) << " a " << int(unit.a)
                                                 << " b " << int(unit.b) << " rows " << unit.rows;
    }
  }
}

TEST(HalfEnumerator, PrecomputedQuadrantKeysGiveTheSameHalves) {
  // Every unit of odd boards, the b = k units (which fall back to filtering entries) included,
  // with slices that carry their keys whether or not this CPU's runs would build them.
  for (const int n : {9, 11, 13}) {
    HalfEnumerator enumerator;
    KeyBuffer computed, precomputed;
    for (const JoinUnit& unit : split(n).units) {
      for (const std::uint32_t rows : row_sets(n, unit)) {
        const UnitLayout layout = layout_of(n, with_rows(unit, rows));
        for (const SideLayout* side : {&layout.east, &layout.west}) {
          const LoadedSlice north(n, side->north_rows, true), south(n, side->south_rows, true);
          ASSERT_TRUE(north.keys && south.keys);
          enumerator.enumerate({north.slice}, {south.slice}, layout, *side, computed);
          enumerator.enumerate({north.slice, &*north.keys}, {south.slice, &*south.keys}, layout, *side, precomputed);
          std::vector<std::uint64_t> expected(computed.keys().begin(), computed.keys().end());
          std::vector<std::uint64_t> actual(precomputed.keys().begin(), precomputed.keys().end());
          std::sort(expected.begin(), expected.end());
          std::sort(actual.begin(), actual.end());
          ASSERT_EQ(actual, expected) << "n = " << n << ", rows " << rows;
        }
      }
    }
  }
}

// Even n and the odd centre case: every R lies in exactly one representative's orbit, whose
// size is the weight. Off centre: every (a, b) with 0 < a < b <= k and every R exactly once,
// each unit's R sharing its north rows, weight 8.
TEST(JoinPlan, RepresentativesCoverEveryRowSetOnce) {
  for (int n = kMinJoinN; n <= 13; ++n) {
    const int k = n / 2;
    const std::uint32_t folded_free = n % 2 == 0 ? all_rows_but(n, {}) : all_rows_but(n, {k});
    std::set<std::uint32_t> folded_covered;
    std::size_t folded_weights = 0;
    std::map<std::pair<int, int>, std::set<std::uint32_t>> off_centre_rows;
    for (const JoinUnit& unit : split(n).units) {
      if (unit.kind == JoinCase::off_centre) {
        EXPECT_EQ(unit.weight, 8);
        EXPECT_TRUE(0 < unit.a && unit.a < unit.b && unit.b <= k);
        std::set<std::uint32_t>& seen = off_centre_rows[{unit.a, unit.b}];
        const std::vector<std::uint32_t> sets = row_sets(n, unit);
        EXPECT_FALSE(sets.empty());
        for (const std::uint32_t rows : sets) {
          EXPECT_EQ(rows & ((std::uint32_t{1} << k) - 1), unit.rows) << "n = " << n;
          EXPECT_TRUE(seen.insert(rows).second) << "n = " << n;
        }
        continue;
      }
      EXPECT_EQ(unit.kind, n % 2 == 0 ? JoinCase::even : JoinCase::centre);
      const std::set<std::uint32_t> orbit = reflection_orbit(unit.rows, folded_free, n);
      EXPECT_EQ(unit.weight, orbit.size());
      EXPECT_EQ(*orbit.begin(), unit.rows);
      for (const std::uint32_t rows : orbit) EXPECT_TRUE(folded_covered.insert(rows).second) << "n = " << n;
      folded_weights += unit.weight;
    }
    const std::set<std::uint32_t> every_folded = all_row_sets(folded_free, k);
    EXPECT_EQ(folded_covered, every_folded) << "n = " << n;
    EXPECT_EQ(folded_weights, every_folded.size());
    if (n % 2 == 1) {
      EXPECT_EQ(off_centre_rows.size(), std::size_t(k * (k - 1) / 2));
      for (const auto& [ab, rows] : off_centre_rows) {
        EXPECT_EQ(rows, all_row_sets(all_rows_but(n, {k, k + ab.second}), k)) << "n = " << n;
      }
    }
  }
}

TEST(JoinPlan, SplitIsDeterministic) {
  for (const int n : {8, 9, 16, 17}) {
    const JoinPlan first = split(n);
    const JoinPlan second = split(n);
    ASSERT_EQ(first.units.size(), second.units.size());
    for (std::size_t i = 0; i < first.units.size(); ++i) EXPECT_EQ(key_of(first.units[i]), key_of(second.units[i]));
    EXPECT_EQ(fingerprint(first), fingerprint(second));
  }
}

TEST(JoinPlan, FingerprintsDifferAcrossN) {
  std::set<std::uint64_t> prints;
  for (int n = kMinJoinN; n <= 18; ++n) EXPECT_TRUE(prints.insert(fingerprint(split(n))).second) << "n = " << n;
}

TEST(JoinPlan, UnsupportedSizesThrowWithTheReason) {
  for (const int n : {0, 1, 2, 3, kMaxJoinN + 1, 40}) {
    const std::string reason = unsupported_reason(n);
    ASSERT_NE(reason, "") << "n = " << n;
    try {
      split(n);
      ADD_FAILURE() << "split(" << n << ") did not throw";
    } catch (const std::invalid_argument& error) {
      EXPECT_EQ(error.what(), reason);
    }
  }
  // No memory limit: the slices are built on demand under a budget (join_memory.hpp).
  for (const int n : {23, 24, 27, 28, kMaxJoinN}) EXPECT_EQ(unsupported_reason(n), "") << "n = " << n;
}

TEST(JoinPlan, EstimatedCostIsDeterministicAndPositive) {
  const JoinPlan plan = split(15);
  const UnitCostModel model(15);
  const std::vector<std::uint64_t> costs = estimated_costs(plan);
  for (std::size_t id = 0; id < plan.units.size(); ++id) {
    EXPECT_EQ(costs[id], model.cost(plan.units[id]));
    EXPECT_GT(costs[id], 0u);
  }
}

TEST(QuarterTable, EntryCountsMatchTheEstimate) {
  for (int k = 1; k <= 9; ++k) {
    const QuarterTable table(k);
    EXPECT_EQ(table.entry_count(), estimated_quarter_entries(k)) << "k = " << k;
    EXPECT_GE(table.memory_bytes(), table.entry_count() * sizeof(QuarterEntry));
  }
}

// Placements of one queen per row of `rows` in `columns`, attacking neither each other nor the
// queens already in `placed` (row, column pairs): a half, counted square by square. Only those
// whose queens on the rows of `north` fill columns that `keep` accepts are counted.
template <typename Keep>
std::uint64_t brute_force_halves(std::uint32_t rows, std::uint32_t columns, std::vector<std::pair<int, int>>& placed,
                                 std::uint32_t north, const Keep& keep, std::set<int>& north_columns) {
  if (rows == 0) return keep(north_columns) ? 1 : 0;
  const int row = std::countr_zero(rows);
  std::uint64_t halves = 0;
  for (std::uint32_t rest = columns; rest != 0; rest &= rest - 1) {
    const int column = std::countr_zero(rest);
    const bool attacked = std::any_of(placed.begin(), placed.end(), [&](const std::pair<int, int>& queen) {
      return queen.first + queen.second == row + column || queen.first - queen.second == row - column;
    });
    if (attacked) continue;
    const bool in_north = (north >> row) & 1;
    placed.emplace_back(row, column);
    if (in_north) north_columns.insert(column);
    halves += brute_force_halves(rows & (rows - 1), columns & ~(std::uint32_t{1} << column), placed, north, keep,
                                 north_columns);
    if (in_north) north_columns.erase(column);
    placed.pop_back();
  }
  return halves;
}

// Both halves of a unit; in the folded cases only those that can meet a half of the other side
// in a pair of weight 1 or 2: whose north columns, read as one side of C, rank at least R's rank.
std::uint64_t brute_force_row_set_halves(int n, const JoinUnit& unit) {
  const int k = n / 2;
  std::vector<std::pair<int, int>> fixed;
  if (unit.kind == JoinCase::centre) fixed = {{k, k}};
  if (unit.kind == JoinCase::off_centre) fixed = {{k, k + unit.a}, {k + unit.b, k}};
  std::uint32_t free_rows = (std::uint32_t{1} << n) - 1;
  std::uint32_t free_columns = free_rows;
  for (const auto& [row, column] : fixed) {
    free_rows &= ~(std::uint32_t{1} << row);
    free_columns &= ~(std::uint32_t{1} << column);
  }
  if (n % 2 == 1) {
    free_rows &= ~(std::uint32_t{1} << k);
    free_columns &= ~(std::uint32_t{1} << k);
  }
  std::set<int> east_rows;
  for (int row = 0; row < n; ++row)
    if ((unit.rows >> row) & 1) east_rows.insert(row);
  const std::uint32_t rank = fold_rank(east_rows, n);
  // A half's north columns are one side of C: the rank of C is at most that side's value.
  const auto keep_side = [&](bool east) {
    return [=](const std::set<int>& columns) {
      if (unit.kind == JoinCase::off_centre) return true;
      std::uint32_t bits = 0;
      for (const int column : columns) bits |= std::uint32_t{1} << (east ? column : n - 1 - column);
      return std::min(bits, ((std::uint32_t{1} << k) - 1) & ~bits) >= rank;
    };
  };
  const std::uint32_t east_columns = (std::uint32_t{1} << k) - 1;
  const std::uint32_t north = (std::uint32_t{1} << k) - 1;
  std::vector<std::pair<int, int>> placed = fixed;
  std::set<int> north_columns;
  const std::uint64_t east =
      brute_force_halves(unit.rows, free_columns & east_columns, placed, north, keep_side(true), north_columns);
  const std::uint64_t west = brute_force_halves(free_rows & ~unit.rows, free_columns & ~east_columns, placed, north,
                                                keep_side(false), north_columns);
  return east + west;
}

// Off centre, summed over the unit's row sets.
std::uint64_t brute_force_unit_halves(int n, const JoinUnit& unit) {
  std::uint64_t halves = 0;
  for (const std::uint32_t rows : row_sets(n, unit)) halves += brute_force_row_set_halves(n, with_rows(unit, rows));
  return halves;
}

TEST(JoinCounter, HalvesMatchABruteForceCount) {
  for (int n = 6; n <= 11; ++n) {
    SliceCache slices(n, UINT64_MAX);
    JoinCounter counter(slices);
    for (const JoinUnit& unit : split(n).units) {
      EXPECT_EQ(counter.count(unit).halves, brute_force_unit_halves(n, unit)) << "n = " << n << " rows " << unit.rows;
    }
  }
}

}  // namespace
}  // namespace nqueens::join
