#include "nqueens/kernel.hpp"

#include <stdexcept>
#include <string>

#include "nqueens/canonical.hpp"

namespace nqueens {

Tally& Tally::operator+=(const Tally& other) {
  total += other.total;
  for (std::size_t i = 0; i < orbits.size(); ++i) orbits[i] += other.orbits[i];
  nodes += other.nodes;
  return *this;
}

namespace {

// One saved row of the explicit stack: the attacks on that row and the columns not yet tried.
struct Frame {
  Mask cols, left, right, untried;
};

// The unit's symmetry rules, unpacked once per unit so the loop only does table lookups.
struct Rules {
  std::array<Mask, kMaxN> allowed{};
  int side_row = -1;  // edge units: the last row on which a side column may still be filled
  Mask sides = 0;
};

Rules make_rules(const WorkUnit& unit, int n) {
  Rules rules;
  for (int row = 0; row < n; ++row) rules.allowed[row] = allowed_columns(n, unit, row);
  if (unit.kind == UnitKind::edge && unit.bound > 0) {
    rules.side_row = n - 1 - unit.bound;
    rules.sides = Mask{1} | (Mask{1} << (n - 1));
  }
  return rules;
}

template <UnitKind Kind>
Mask candidates(const Rules& rules, Mask all, int row, Mask cols, Mask left, Mask right) {
  if constexpr (Kind == UnitKind::plain) {
    (void)rules;
    (void)row;
    return all & ~(cols | left | right);
  } else {
    Mask free = rules.allowed[row] & ~(cols | left | right);
    if constexpr (Kind == UnitKind::edge) {
      // Below side_row no side column is allowed, so one still empty here must be filled now,
      // and two still empty can never both be filled.
      if (row == rules.side_row) {
        const Mask empty_sides = rules.sides & ~cols;
        if (empty_sides == rules.sides) return 0;
        if (empty_sides != 0) free &= empty_sides;
      }
    }
    return free;
  }
}

// Edge leaves need the whole board to decide canonicity; it is rebuilt from the stack's column
// masks (each row's queen is the bit its row added), so the hot loop stores nothing extra.
void classify_edge_leaf(const WorkUnit& unit, const Frame* stack, int row, Mask cols, Mask bit,
                        Mask last_bit, Tally& tally) {
  std::array<std::uint8_t, kMaxN> columns{};
  std::size_t filled = 0;
  auto put = [&](int col) { columns[filled++] = static_cast<std::uint8_t>(col); };
  for (int r = 0; r < unit.rows; ++r) put(unit.queens[r]);
  for (int r = unit.rows; r < row; ++r) put(column_of((r + 1 < row ? stack[r + 1].cols : cols) ^ stack[r].cols));
  if (bit != 0) put(column_of(bit));
  if (last_bit != 0) put(column_of(last_bit));
  const Orbit orbit = classify(std::span<const std::uint8_t>(columns.data(), filled));
  if (!orbit.canonical) return;
  ++tally.orbits[orbit_slot(orbit.size)];
  tally.total += static_cast<std::uint64_t>(orbit.size);
}

template <UnitKind Kind>
void on_leaf(const WorkUnit& unit, const Frame* stack, int row, Mask cols, Mask bit, Mask last_bit,
             Tally& tally, std::uint64_t& leaves) {
  if constexpr (Kind == UnitKind::edge)
    classify_edge_leaf(unit, stack, row, cols, bit, last_bit, tally);
  else
    ++leaves;
}

// The search proper: iterative, one Frame per row, and the last row is finished without a frame
// (with N-1 queens placed only one column is left, so a single mask test decides it).
template <UnitKind Kind>
Tally search(const WorkUnit& unit, int n) {
  Tally tally;
  std::uint64_t leaves = 0;
  std::uint64_t nodes = 0;
  const Rules rules = make_rules(unit, n);
  const Mask all = board_mask(n);
  const int first = unit.rows;
  const int last = n - 1;
  Frame stack[kMaxN] = {};

  if (first == n) {
    on_leaf<Kind>(unit, stack, first, unit.cols, 0, 0, tally, leaves);
  } else if (first == last) {
    const Mask last_bit = candidates<Kind>(rules, all, last, unit.cols, unit.left_diag, unit.right_diag);
    if (last_bit != 0) {
      ++nodes;
      on_leaf<Kind>(unit, stack, first, unit.cols, 0, last_bit, tally, leaves);
    }
  } else {
    int row = first;
    Mask cols = unit.cols, left = unit.left_diag, right = unit.right_diag;
    Mask untried = candidates<Kind>(rules, all, row, cols, left, right);
    for (;;) {
      if (untried == 0) {
        if (row == first) break;
        --row;
        cols = stack[row].cols;
        left = stack[row].left;
        right = stack[row].right;
        untried = stack[row].untried;
        continue;
      }
      const Mask bit = untried & (0 - untried);
      untried ^= bit;
      ++nodes;
      const Mask next_cols = cols | bit;
      const Mask next_left = (left | bit) << 1;
      const Mask next_right = (right | bit) >> 1;
      if (row + 1 == last) {
        const Mask last_bit = candidates<Kind>(rules, all, last, next_cols, next_left, next_right);
        if (last_bit != 0) {
          ++nodes;
          on_leaf<Kind>(unit, stack, row, cols, bit, last_bit, tally, leaves);
        }
        continue;
      }
      stack[row] = {cols, left, right, untried};
      ++row;
      cols = next_cols;
      left = next_left;
      right = next_right;
      untried = candidates<Kind>(rules, all, row, cols, left, right);
    }
  }

  tally.nodes = nodes;
  if constexpr (Kind == UnitKind::plain) tally.total = leaves * unit.weight;
  if constexpr (Kind == UnitKind::corner) {
    tally.orbits[orbit_slot(8)] = leaves;
    tally.total = 8 * leaves;
  }
  return tally;
}

}  // namespace

Tally count_from(const WorkUnit& unit, int n) {
  if (!valid_board_size(n) || unit.rows > n)
    throw std::invalid_argument("work unit does not fit an N = " + std::to_string(n) + " board");
  switch (unit.kind) {
    case UnitKind::plain: return search<UnitKind::plain>(unit, n);
    case UnitKind::corner: return search<UnitKind::corner>(unit, n);
    case UnitKind::edge: return search<UnitKind::edge>(unit, n);
  }
  return {};
}

}  // namespace nqueens
