#include "rotation_fixed.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "nqueens/board.hpp"

namespace nqueens {

namespace {

// Occupied rows, columns and both diagonal families of a partial board. Passed by value down
// the search, so undoing a placement is returning.
struct Occupied {
  Mask rows = 0, cols = 0;
  std::uint64_t sums = 0;   //!< diagonal r + c
  std::uint64_t diffs = 0;  //!< diagonal r - c + n - 1

  // Places a queen on (r, c) unless it shares a line with one already there.
  bool place(int r, int c, int n) {
    const Mask row = Mask{1} << r, col = Mask{1} << c;
    const std::uint64_t sum = std::uint64_t{1} << (r + c), diff = std::uint64_t{1} << (r - c + n - 1);
    if ((rows & row) || (cols & col) || (sums & sum) || (diffs & diff)) return false;
    rows |= row;
    cols |= col;
    sums |= sum;
    diffs |= diff;
    return true;
  }
};

// The rotation group a search keeps fixed: the half turn, or all four quarter turns.
struct Rotations {
  int n;
  int turns;  //!< 2 or 4 images of each square, counting itself

  // Places (r, c) and its images: every image must be free of every queen placed so far and of
  // the other images. The centre is its own image, and placed once.
  bool place_orbit(Occupied& board, int r, int c) const {
    const int last = n - 1;
    for (int turn = 0; turn < turns; ++turn) {
      const bool repeat = turn > 0 && r == last / 2 && c == last / 2 && n % 2 == 1;
      if (!repeat && !board.place(r, c, n)) return false;
      const int next_r = turns == 2 ? last - r : c;  // half turn, or quarter turn clockwise
      const int next_c = turns == 2 ? last - c : last - r;
      r = next_r;
      c = next_c;
    }
    return true;
  }

  // Completions of `board`: the first empty row takes a queen in each free column, together with
  // that queen's images. Every fixed solution is reached exactly once, by the columns of the
  // rows that are first empty in turn.
  std::uint64_t complete(const Occupied& board, std::uint64_t& nodes) const {
    const Mask full = board_mask(n);
    if (board.rows == full) return 1;
    const int row = column_of(~board.rows & full);
    std::uint64_t found = 0;
    for (Mask free = ~board.cols & full; free != 0; free &= free - 1) {
      Occupied next = board;
      if (!place_orbit(next, row, column_of(free & (0 - free)))) continue;
      ++nodes;
      found += complete(next, nodes);
    }
    return found;
  }
};

}  // namespace

RotationFixed count_rotation_fixed(int n) {
  if (!valid_board_size(n))
    throw std::invalid_argument("board size must be between " + std::to_string(kMinN) + " and " +
                                std::to_string(kMaxN) + ", got " + std::to_string(n));
  RotationFixed fixed;
  fixed.half_turn = Rotations{n, 2}.complete({}, fixed.nodes);
  // A quarter-turn orbit has 4 queens (or is the centre): only n = 0 or 1 mod 4 can be filled.
  if (n % 4 <= 1) fixed.quarter_turn = Rotations{n, 4}.complete({}, fixed.nodes);
  return fixed;
}

}  // namespace nqueens
