// The kernel held to the slow reference counter, unit by unit: a wrong mask shift, a missed
// last row or a bad symmetry rule shows up as one unit with the wrong count, named by its id.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "nqueens/nqueens.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::Symmetry;
using nqueens::Tally;
using nqueens::UnitKind;
using nqueens::WorkPlan;
using nqueens::WorkUnit;
using test_support::Board;

constexpr int kLargestN = 11;  // the reference counter is slow; this keeps the suite quick

bool starts_with(const Board& board, const WorkUnit& unit) {
  for (int r = 0; r < unit.rows; ++r)
    if (board[static_cast<std::size_t>(r)] != unit.queens[static_cast<std::size_t>(r)]) return false;
  return true;
}

// What a full-mode unit must report: the canonical boards among the solutions that extend its
// prefix, by orbit size, and their orbit sizes summed (the boards they stand for).
struct Expected {
  std::array<std::uint64_t, 4> orbits{};
  std::uint64_t total = 0;
};

struct ClassifiedBoard {
  Board board;
  test_support::BruteOrbit orbit;
};

std::vector<ClassifiedBoard> classified_solutions(int n) {
  std::vector<ClassifiedBoard> out;
  for (Board& b : test_support::all_solutions(n)) {
    const auto orbit = test_support::brute_orbit(b);
    out.push_back({std::move(b), orbit});
  }
  return out;
}

Expected full_mode_expectation(const std::vector<ClassifiedBoard>& solutions, const WorkUnit& unit) {
  Expected e;
  for (const ClassifiedBoard& s : solutions) {
    if (!s.orbit.canonical || !starts_with(s.board, unit)) continue;
    ++e.orbits[test_support::slot_of(s.orbit.size)];
    e.total += static_cast<std::uint64_t>(s.orbit.size);
  }
  return e;
}

void expect_plain_unit(const WorkUnit& unit, int n, const Tally& tally) {
  const std::uint64_t completions = nqueens::reference_count(n, test_support::prefix_of(unit));
  EXPECT_EQ(tally.total, unit.weight * completions);
  // Below a prefix the plain search and the reference's try the same squares row by row, so
  // they place the same queens.
  const std::uint64_t placed = nqueens::reference_solutions(n, test_support::prefix_of(unit), [](const auto&) {});
  EXPECT_EQ(tally.nodes, placed);
  EXPECT_EQ(tally.orbits, (std::array<std::uint64_t, 4>{}));  // orbits are a full-mode count
}

void expect_full_unit(const std::vector<ClassifiedBoard>& solutions, const WorkUnit& unit, const Tally& tally) {
  const Expected e = full_mode_expectation(solutions, unit);
  EXPECT_EQ(tally.total, e.total);
  EXPECT_EQ(tally.orbits, e.orbits);
  // Only the diagonal reflection could fix a corner queen, and it would pair queens (i,j), (j,i)
  // on one anti-diagonal: so corner boards have orbits of 8.
  if (unit.kind == UnitKind::corner) {
    EXPECT_EQ(tally.orbits[0] + tally.orbits[1] + tally.orbits[2], 0u);
  }
}

class KernelAgainstReference : public ::testing::TestWithParam<std::tuple<Symmetry, int>> {};

TEST_P(KernelAgainstReference, EveryUnitMatchesAndUnitsSumToTheTotal) {
  const auto [mode, depth] = GetParam();
  for (int n = 1; n <= kLargestN; ++n) {
    const WorkPlan plan = nqueens::split(n, mode, depth);
    const auto solutions = mode == Symmetry::full ? classified_solutions(n) : std::vector<ClassifiedBoard>{};
    nqueens::Totals sum;
    for (std::size_t id = 0; id < plan.units.size(); ++id) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " unit " << id);
      const WorkUnit& unit = plan.units[id];
      const Tally tally = nqueens::count_from(unit, n);
      if (mode == Symmetry::full) {
        expect_full_unit(solutions, unit, tally);
      } else {
        expect_plain_unit(unit, n, tally);
      }
      sum += tally;
    }
    EXPECT_EQ(nqueens::to_string(sum.total), std::to_string(*nqueens::oeis_total(n))) << "n=" << n;
    EXPECT_EQ(nqueens::to_string(sum.total), std::to_string(nqueens::reference_count(n))) << "n=" << n;
  }
}

// The batch flush inside the descent, exercised on boards small enough for the reference: with
// batches of 1 and 7 boards every unit flushes many times, and 1024 is the production size.
TEST_P(KernelAgainstReference, EveryBatchSizeGivesTheSameTallies) {
  const auto [mode, depth] = GetParam();
  for (int n = 1; n <= kLargestN; ++n) {
    const WorkPlan plan = nqueens::split(n, mode, depth);
    const auto solutions = mode == Symmetry::full ? classified_solutions(n) : std::vector<ClassifiedBoard>{};
    for (const std::size_t batch : {std::size_t{1}, std::size_t{7}, nqueens::kKernelBatch}) {
      for (std::size_t id = 0; id < plan.units.size(); ++id) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " unit " << id << " batch " << batch);
        const Tally tally = nqueens::count_from_in_batches(plan.units[id], n, batch);
        if (mode == Symmetry::full) {
          expect_full_unit(solutions, plan.units[id], tally);
        } else {
          expect_plain_unit(plan.units[id], n, tally);
        }
        EXPECT_EQ(tally.nodes, nqueens::count_from(plan.units[id], n).nodes);
      }
    }
  }
}

// Tally::nodes counts the queens the search places (kernel.hpp), so a unit that finds a board
// has placed at least the queens its prefix lacked, and a search below the prefix is never free.
// (A plain unit's exact count is held to the reference's in expect_plain_unit.)
TEST_P(KernelAgainstReference, NodesCountThePlacedQueens) {
  const auto [mode, depth] = GetParam();
  for (int n = 1; n <= kLargestN; ++n) {
    const WorkPlan plan = nqueens::split(n, mode, depth);
    std::uint64_t nodes = 0;
    for (std::size_t id = 0; id < plan.units.size(); ++id) {
      const Tally tally = nqueens::count_from(plan.units[id], n);
      if (tally.total > 0) {
        EXPECT_GE(tally.nodes, static_cast<std::uint64_t>(n - plan.units[id].rows)) << "n=" << n << " unit " << id;
      }
      nodes += tally.nodes;
    }
    if (n >= 4 && plan.split_depth < n) {  // units of whole boards leave nothing to search
      EXPECT_GT(nodes, 0u) << "n=" << n;
    }
    // The units search below their prefixes what the plain search of the whole board searches
    // (less where symmetry cuts it): never more queens than it places.
    EXPECT_LE(nodes, nqueens::reference_solutions(n, {}, [](const auto&) {})) << "n=" << n;
  }
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<Symmetry, int>>& info) {
  return std::string(nqueens::to_string(std::get<0>(info.param))) + "_depth" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(ModesAndDepths, KernelAgainstReference,
                         ::testing::Combine(::testing::ValuesIn(test_support::kModes),
                                            ::testing::Range(nqueens::kMinSplitDepth, nqueens::kMaxSplitDepth + 1)),
                         param_name);

// Hand-checked: on 4 x 4 the first queen in column 1 forces 1,3,0,2, the only completion.
TEST(Kernel, CompletesAHandCheckedPrefix) {
  WorkUnit unit;
  nqueens::place_queen(unit, 1);
  const Tally tally = nqueens::count_from(unit, 4);
  EXPECT_EQ(tally.total, 1u);
  EXPECT_EQ(tally.nodes, 3u);  // rows 1, 2 and 3, no dead ends from this prefix
}

// The worked example of docs/algorithm.md: prefix 0, 2 on 5 x 5 forces 4, 1, 3; nodes = 3.
TEST(Kernel, CompletesTheDocumentedExample) {
  WorkUnit unit;
  nqueens::place_queen(unit, 0);
  nqueens::place_queen(unit, 2);
  const Tally tally = nqueens::count_from(unit, 5);
  EXPECT_EQ(tally.total, 1u);
  EXPECT_EQ(tally.nodes, 3u);
}

TEST(Kernel, WeightMultipliesCompletions) {
  WorkUnit unit;
  unit.weight = 2;
  nqueens::place_queen(unit, 0);
  EXPECT_EQ(nqueens::count_from(unit, 5).total, 2 * nqueens::reference_count(5, test_support::prefix_of(unit)));
}

TEST(Kernel, UnitTooLongForTheBoardThrows) {
  WorkUnit unit;
  nqueens::place_queen(unit, 0);
  nqueens::place_queen(unit, 2);
  EXPECT_THROW(nqueens::count_from(unit, 1), std::invalid_argument);
  EXPECT_THROW(nqueens::count_from(unit, 0), std::invalid_argument);
}

}  // namespace
