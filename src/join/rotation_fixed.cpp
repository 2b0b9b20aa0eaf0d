#include "join/rotation_fixed.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace nqueens {

namespace {

using Mask = std::uint64_t;

Mask bit(int index) { return Mask{1} << index; }
Mask all_columns(int n) { return bit(n) - 1; }

// Squares taken so far, over the whole board rather than relative to the current row, since
// each placement also lands on rows far below it. Diagonals are numbered sum = r + c and
// difference = c - r + (n - 1), both 0..2n-2 (63 bits at n = 32). Every board the searches
// build is closed under the half turn, which maps diagonal i onto 2n-2-i and column c onto
// n-1-c: a square is free exactly when its half-turn image is, so checking one suffices.
struct Board {
  int n = 0;
  Mask columns = 0;
  Mask sums = 0;
  Mask differences = 0;

  Mask free_in_row(int row) const { return ~(columns | sums >> row | differences >> (n - 1 - row)) & all_columns(n); }
  void claim(int row, int col) {
    columns |= bit(col);
    sums |= bit(row + col);
    differences |= bit(col - row + n - 1);
  }
  void claim_with_half_turn(int row, int col) {
    claim(row, col);
    claim(n - 1 - row, n - 1 - col);
  }
  void claim_with_quarter_turns(int row, int col) {
    claim_with_half_turn(row, col);
    claim_with_half_turn(col, n - 1 - row);
  }
};

// A half-turn symmetric board has its two centre diagonals (sum n-1, difference n-1) empty
// except for the centre square: any other queen there would share the line with its own
// image. For odd n the centre queen is forced (the middle row's queen is its own image), and
// claiming it blocks those diagonals; for even n they are blocked outright. This alone keeps
// a placement from attacking its own images, so the searches need no further checks.
Board symmetric_start(int n) {
  Board board{.n = n};
  if (n % 2 == 1) {
    board.claim(n / 2, n / 2);
  } else {
    board.sums |= bit(n - 1);
    board.differences |= bit(n - 1);
  }
  return board;
}

std::uint64_t half_turn_completions(const Board& board, int row, std::uint64_t& nodes);

// Places each of `choices` on `row` (with its image) and counts the completions of the rows above.
std::uint64_t place_half_turn_pairs(const Board& board, int row, Mask choices, std::uint64_t& nodes) {
  std::uint64_t count = 0;
  for (; choices != 0; choices &= choices - 1) {
    ++nodes;
    Board next = board;
    next.claim_with_half_turn(row, std::countr_zero(choices));
    count += half_turn_completions(next, row - 1, nodes);
  }
  return count;
}

// Fills the top half from its middle row up to row 0, the queen on row r fixing the one on
// row n-1-r. Starting in the middle puts each queen near its image, where they cut each
// other's options early: about a third of the nodes of filling from row 0 down.
std::uint64_t half_turn_completions(const Board& board, int row, std::uint64_t& nodes) {
  if (row < 0) return 1;
  const Mask free = board.free_in_row(row);
  if (row > 0) return place_half_turn_pairs(board, row, free, nodes);
  // The last pair needs no board of its own: every free square completes a solution.
  const auto last = static_cast<std::uint64_t>(std::popcount(free));
  nodes += last;
  return last;
}

// The mirror image of a half-turn symmetric solution is one too, and moves the first queen
// placed to the other half of its row (never onto the middle column, which the centre queen
// holds for odd n): searching the left half and doubling covers them all.
std::uint64_t count_half_turn(int n, std::uint64_t& nodes) {
  if (n == 1) return 1;  // the centre queen alone, no row to halve
  const Board board = symmetric_start(n);
  const int first_row = n / 2 - 1;
  const Mask left_half = bit(n / 2) - 1;
  return 2 * place_half_turn_pairs(board, first_row, board.free_in_row(first_row) & left_half, nodes);
}

// The quarter turn maps a square's row to its column, so a symmetric board's filled rows and
// filled columns are the same set, and `columns` tells which rows remain. An orbit's four
// squares lie on four different rows, one of them the lowest row still empty: placing there
// fills every row once. The turn also swaps sum and difference diagonals, so with the board
// closed under it a free square has all four images free.
std::uint64_t quarter_turn_completions(const Board& board, std::uint64_t& nodes) {
  if (board.columns == all_columns(board.n)) return 1;
  const int row = std::countr_one(board.columns);
  std::uint64_t count = 0;
  for (Mask free = board.free_in_row(row); free != 0; free &= free - 1) {
    ++nodes;
    Board next = board;
    next.claim_with_quarter_turns(row, std::countr_zero(free));
    count += quarter_turn_completions(next, nodes);
  }
  return count;
}

// Orbits of the quarter turn have 4 squares, except the centre: the board needs n = 0 or 1 mod 4.
std::uint64_t count_quarter_turn(int n, std::uint64_t& nodes) {
  if (n % 4 > 1) return 0;
  return quarter_turn_completions(symmetric_start(n), nodes);
}

}  // namespace

RotationFixed count_rotation_fixed(int n) {
  if (n < 1 || n > 32) {
    throw std::invalid_argument("count_rotation_fixed: n must be in 1..32, got " + std::to_string(n));
  }
  RotationFixed fixed;
  fixed.half_turn = count_half_turn(n, fixed.nodes);
  fixed.quarter_turn = count_quarter_turn(n, fixed.nodes);
  return fixed;
}

}  // namespace nqueens
