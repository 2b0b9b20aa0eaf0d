#include "join/join_layout.hpp"

namespace nqueens::join {

namespace {

// Widened first: a board of 32 rows fills the whole mask.
std::uint32_t low_bits(int count) { return static_cast<std::uint32_t>((std::uint64_t{1} << count) - 1); }

void forbid_queen(UnitLayout& layout, int row, int column) {
  layout.forbidden_sums |= std::uint64_t{1} << (row + column);
  layout.forbidden_differences |= std::uint64_t{1} << (row - column + layout.n - 1);
}

}  // namespace

std::uint32_t free_rows(int n, JoinCase kind, int b) {
  const int k = n / 2;
  std::uint32_t rows = low_bits(n);
  if (n % 2 == 1) rows &= ~(std::uint32_t{1} << k);
  if (kind == JoinCase::off_centre) rows &= ~(std::uint32_t{1} << (k + b));
  return rows;
}

UnitLayout layout_of(int n, const JoinUnit& unit) {
  UnitLayout layout;
  layout.n = n;
  layout.k = n / 2;
  const int k = layout.k;
  // Odd boards skip the middle row and column, so the far quadrants start one further on.
  const int far = n % 2 == 1 ? k + 1 : k;
  layout.crossing_low = far;
  layout.crossing_bits = 2 * k - 1;

  const std::uint32_t quadrant = low_bits(k);
  const std::uint32_t west_rows = free_rows(n, unit.kind, unit.b) & ~unit.rows;
  layout.east = {{0, 0}, {far, 0}, unit.rows & quadrant, (unit.rows >> far) & quadrant, quadrant};
  layout.west = {{0, far}, {far, far}, west_rows & quadrant, (west_rows >> far) & quadrant, quadrant};

  if (unit.kind == JoinCase::centre) forbid_queen(layout, k, k);
  if (unit.kind == JoinCase::off_centre) {
    forbid_queen(layout, k, k + unit.a);
    forbid_queen(layout, k + unit.b, k);
    layout.west.columns &= ~(std::uint32_t{1} << (k + unit.a - far));
  }
  return layout;
}

}  // namespace nqueens::join
