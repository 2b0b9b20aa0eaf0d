#include "dfs/split.hpp"

#include "dfs/dfs_settings.hpp"

#include <stdexcept>
#include <string>

#include "nqueens/version.hpp"

namespace nqueens {

namespace {

Mask free_columns(int n, const WorkUnit& unit) {
  return allowed_columns(n, unit, unit.rows) & ~(unit.cols | unit.left_diag | unit.right_diag);
}

// Extends `unit` row by row until it has `depth` rows, appending every legal prefix in
// ascending column order: that order is what makes unit ids deterministic.
void extend(int n, int depth, WorkUnit unit, std::vector<WorkUnit>& out) {
  if (unit.rows == depth) {
    out.push_back(unit);
    return;
  }
  for (Mask free = free_columns(n, unit); free != 0; free &= free - 1) {
    WorkUnit next = unit;
    place_queen(next, column_of(free & (0 - free)));
    extend(n, depth, next, out);
  }
}

WorkUnit start(UnitKind kind, int weight, int bound) {
  WorkUnit unit;
  unit.kind = kind;
  unit.weight = static_cast<std::uint8_t>(weight);
  unit.bound = static_cast<std::uint8_t>(bound);
  return unit;
}

void split_none(int n, int depth, std::vector<WorkUnit>& out) { extend(n, depth, start(UnitKind::plain, 1, 0), out); }

// Mirror: a board and its left-right reflection are different solutions, so searching only
// first-row queens in the left half and counting each completion twice covers them all. With
// odd N the middle column is its own mirror image; there the second row breaks the tie.
void split_mirror(int n, int depth, std::vector<WorkUnit>& out) {
  for (int col = 0; col < n / 2; ++col) {
    WorkUnit unit = start(UnitKind::plain, 2, 0);
    place_queen(unit, col);
    extend(n, depth, unit, out);
  }
  if (n % 2 == 0) return;
  const int middle = n / 2;
  WorkUnit unit = start(UnitKind::plain, n == 1 ? 1 : 2, 0);
  place_queen(unit, middle);
  if (n == 1) {
    out.push_back(unit);
    return;
  }
  const Mask left_half = (Mask{1} << middle) - 1;
  for (Mask free = left_half & ~(unit.cols | unit.left_diag | unit.right_diag); free != 0; free &= free - 1) {
    WorkUnit next = unit;
    place_queen(next, column_of(free & (0 - free)));
    extend(n, depth, next, out);
  }
}

// Full: one canonical board per class under the 8 symmetries of the square (see
// docs/algorithm.md). Corner units put the first queen in the corner and the second in column
// `bound`; edge units put the first queen `bound` columns from the corner.
void split_full(int n, int depth, std::vector<WorkUnit>& out) {
  if (n == 1) {  // the lone queen is its own class; the edge leaf check sizes its orbit as 1
    WorkUnit unit = start(UnitKind::edge, 1, 0);
    place_queen(unit, 0);
    out.push_back(unit);
    return;
  }
  for (int bound = 2; bound <= n - 2; ++bound) {
    WorkUnit unit = start(UnitKind::corner, 1, bound);
    place_queen(unit, 0);
    if (free_columns(n, unit) & (Mask{1} << bound)) {
      place_queen(unit, bound);
      extend(n, depth, unit, out);
    }
  }
  for (int bound = 1; 2 * bound < n - 1; ++bound) {
    WorkUnit unit = start(UnitKind::edge, 1, bound);
    place_queen(unit, bound);
    extend(n, depth, unit, out);
  }
}

void check_inputs(int n, int depth) {
  if (!valid_board_size(n))
    throw std::invalid_argument("N must be between " + std::to_string(kMinN) + " and " + std::to_string(kMaxN) +
                                ", got " + std::to_string(n));
  if (depth != 0 && (depth < kMinSplitDepth || depth > kMaxSplitDepth))
    throw std::invalid_argument("split depth must be between " + std::to_string(kMinSplitDepth) + " and " +
                                std::to_string(kMaxSplitDepth) + ", got " + std::to_string(depth));
}

}  // namespace

int auto_split_depth(int n) {
  // Depth 2 is plenty for boards that take milliseconds. Depth 3 gives hundreds of units at
  // N = 12 and thousands from N = 16 on; depth 4 keeps units short (seconds) on the huge boards,
  // so checkpoints stay fine-grained and hundreds of threads stay busy.
  if (n < 12) return 2;
  if (n < 22) return 3;
  return 4;
}

WorkPlan split(int n, Symmetry symmetry, int depth) {
  check_inputs(n, depth);
  WorkPlan plan;
  plan.n = n;
  plan.symmetry = symmetry;
  plan.split_depth = std::min(depth == 0 ? auto_split_depth(n) : depth, n);
  switch (symmetry) {
    case Symmetry::none: split_none(n, plan.split_depth, plan.units); break;
    case Symmetry::mirror: split_mirror(n, plan.split_depth, plan.units); break;
    case Symmetry::full: split_full(n, plan.split_depth, plan.units); break;
  }
  return plan;
}

std::uint64_t fingerprint(const WorkPlan& plan) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&hash](std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (value >> (8 * byte)) & 0xff;
      hash *= 1099511628211ull;
    }
  };
  mix(static_cast<std::uint64_t>(plan.n));
  mix(static_cast<std::uint64_t>(plan.symmetry));
  mix(static_cast<std::uint64_t>(plan.split_depth));
  mix(plan.units.size());
  for (const WorkUnit& unit : plan.units) {
    mix(unit.rows);
    for (int row = 0; row < unit.rows; ++row) mix(unit.queens[row]);
    mix(static_cast<std::uint64_t>(unit.kind));
    mix(unit.weight);
    mix(unit.bound);
  }
  return hash;
}

namespace {

std::uint64_t extensions(const WorkUnit& unit, int n, int rows_left) {
  if (rows_left == 0 || unit.rows == n) return 1;
  std::uint64_t sum = 0;
  const Mask attacked = unit.cols | unit.left_diag | unit.right_diag;
  for (Mask free = allowed_columns(n, unit, unit.rows) & ~attacked; free != 0; free &= free - 1) {
    WorkUnit next = unit;
    place_queen(next, column_of(free & (0 - free)));
    sum += extensions(next, n, rows_left - 1);
  }
  return sum;
}

}  // namespace

std::uint64_t estimated_cost(const WorkUnit& unit, int n) { return extensions(unit, n, 2); }

RunHeader make_header(const WorkPlan& plan) {
  return {kVersion,         "dfs", plan.n, dfs_header_settings(plan.symmetry, plan.split_depth), plan.units.size(),
          fingerprint(plan)};
}

}  // namespace nqueens
