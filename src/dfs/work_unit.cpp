#include "dfs/work_unit.hpp"

namespace nqueens {

namespace {

// Full symmetry, corner case: the queen at (0,0) and its transpose image both start in the
// corner; we keep the one whose row-1 queen (column `bound`) lies left of the column-1 queen's
// row. So column 1 is closed on rows 2..bound-1.
Mask corner_allowed(int n, int bound, int row) {
  const Mask all = board_mask(n);
  return row >= 2 && row < bound ? all & ~Mask{2} : all;
}

// Full symmetry, edge case: the row-0 queen sits `bound` columns from the left corner, and a
// canonical board has no border queen nearer to any corner than that. So the side columns are
// closed on the first and last `bound` rows, and the bottom row keeps `bound` columns clear
// at each end.
Mask edge_allowed(int n, int bound, int row) {
  const Mask all = board_mask(n);
  const Mask sides = Mask{1} | (Mask{1} << (n - 1));
  Mask allowed = all;
  if (row < bound || row > n - 1 - bound) allowed &= ~sides;
  if (row == n - 1) {
    const Mask near_left = (Mask{1} << bound) - 1;
    const Mask near_right = near_left << (n - bound);
    allowed &= ~(near_left | near_right);
  }
  return allowed;
}

}  // namespace

Mask allowed_columns(int n, const WorkUnit& unit, int row) {
  switch (unit.kind) {
    case UnitKind::corner: return corner_allowed(n, unit.bound, row);
    case UnitKind::edge: return edge_allowed(n, unit.bound, row);
    case UnitKind::plain: break;
  }
  return board_mask(n);
}

void place_queen(WorkUnit& unit, int col) {
  const Mask bit = Mask{1} << col;
  // The scheduler's cost estimate places two rows past the deepest prefix; only prefix rows
  // have a slot in `queens` (writing past it overwrote `rows` itself: found by UBSan).
  if (unit.rows < kMaxSplitDepth) unit.queens[unit.rows] = static_cast<std::uint8_t>(col);
  ++unit.rows;
  unit.cols |= bit;
  unit.left_diag = (unit.left_diag | bit) << 1;
  unit.right_diag = (unit.right_diag | bit) >> 1;
}

}  // namespace nqueens
