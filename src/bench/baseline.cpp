#include "bench/baseline.hpp"

#include <stdexcept>

#include "board/bitboard.hpp"
#include "nqueens/board.hpp"

namespace nqueens {

namespace {

std::uint64_t place(Mask all, Mask cols, Mask left, Mask right) {
  if (cols == all) return 1;
  std::uint64_t count = 0;
  for (Mask free = all & ~(cols | left | right); free != 0;) {
    const Mask bit = free & (0 - free);
    free ^= bit;
    count += place(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
  }
  return count;
}

std::uint64_t first_row_queen(Mask all, int col) {
  const Mask bit = Mask{1} << col;
  return place(all, bit, bit << 1, bit >> 1);
}

}  // namespace

std::uint64_t textbook_count(int n) {
  if (!valid_board_size(n)) throw std::invalid_argument("N must be between 1 and 32");
  const Mask all = board_mask(n);
  std::uint64_t half = 0;
  for (int col = 0; col < n / 2; ++col) half += first_row_queen(all, col);
  const std::uint64_t middle = n % 2 == 1 ? first_row_queen(all, n / 2) : 0;
  return 2 * half + middle;
}

}  // namespace nqueens
