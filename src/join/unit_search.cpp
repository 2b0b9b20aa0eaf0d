#include "join/unit_search.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

namespace nqueens::join {

namespace {

using Mask = std::uint64_t;

Mask bit(int index) { return Mask{1} << index; }
std::uint32_t low_bits(int count) { return static_cast<std::uint32_t>(bit(count) - 1); }

// Written out here rather than taken from the fold (diagonal_fold.hpp), so that a fault there
// shows as a difference: k-bit x reversed, and min(x, its complement).
std::uint32_t reversed(std::uint32_t x, int k) {
  std::uint32_t result = 0;
  for (int i = 0; i < k; ++i)
    if ((x >> i) & 1u) result |= 1u << (k - 1 - i);
  return result;
}
std::uint32_t rank_of(std::uint32_t x, int k) { return std::min(x, ~x & low_bits(k)); }

// Squares taken, on the whole board: columns, sum diagonals r + c and difference diagonals
// c - r + n - 1.
struct Taken {
  Mask columns = 0, sums = 0, differences = 0;

  Mask free_in(int row, int n) const { return ~(columns | sums >> row | differences >> (n - 1 - row)); }
  void claim(int row, int column, int n) {
    columns |= bit(column);
    sums |= bit(row + column);
    differences |= bit(column - row + n - 1);
  }
  bool is_free(int row, int column, int n) const { return ((free_in(row, n) >> column) & 1u) != 0; }
};

// A unit: the columns each row may take, and the fold's weights of its solutions.
class UnitSearch {
 public:
  UnitSearch(int n, const JoinUnit& unit, std::uint32_t rows) : n_(n), k_(n / 2), far_(n - n / 2) {
    const std::uint32_t east = low_bits(k_);
    const std::uint32_t west = low_bits(n) & ~low_bits(far_);
    for (int row = 0; row < n; ++row) allowed_[std::size_t(row)] = ((rows >> row) & 1u) != 0 ? east : west;
    // Off centre, a unit's row sets are every R with its north rows: its south rows take either
    // half, and the columns left decide which (the east half has room for exactly k queens).
    if (unit.kind == JoinCase::off_centre)
      for (int row = far_; row < n; ++row) allowed_[std::size_t(row)] = east | west;
    // The middle row and column of an odd board: the centre queen, or the off-centre pair.
    if (unit.kind == JoinCase::centre) allowed_[std::size_t(k_)] = bit(k_);
    if (unit.kind == JoinCase::off_centre) {
      allowed_[static_cast<std::size_t>(k_)] = bit(k_ + unit.a);
      allowed_[static_cast<std::size_t>(k_) + unit.b] = bit(k_);
    }
    folded_ = unit.kind != JoinCase::off_centre;
    rows_rank_ = std::min(rank_of(rows & low_bits(k_), k_), rank_of(reversed((rows >> far_) & low_bits(k_), k_), k_));
  }

  std::uint64_t weighed_solutions() { return completions(0, Taken{}); }
  std::uint64_t nodes() const { return nodes_; }

 private:
  std::uint64_t completions(int row, const Taken& taken) {
    if (row == n_) return 1;
    std::uint64_t weight = 1;
    if (row == k_ && folded_) {
      weight = fold_weight();
      if (weight == 0) return 0;
    }
    std::uint64_t count = 0;
    for (Mask free = taken.free_in(row, n_) & allowed_[std::size_t(row)]; free != 0; free &= free - 1) {
      ++nodes_;
      const int column = std::countr_zero(free);
      column_of_[std::size_t(row)] = column;
      Taken next = taken;
      next.claim(row, column, n_);
      count += completions(row + 1, next);
    }
    return weight * count;
  }

  // The north rows placed: the rank of their columns (the east half's from the west edge, the
  // west half's from the east edge) against the rank of the row set's rows.
  std::uint64_t fold_weight() const {
    std::uint32_t east = 0, west = 0;
    for (int row = 0; row < k_; ++row) {
      const int column = column_of_[std::size_t(row)];
      if (column < k_)
        east |= 1u << column;
      else
        west |= 1u << (column - far_);
    }
    const std::uint32_t columns_rank = std::min(rank_of(east, k_), rank_of(reversed(west, k_), k_));
    return columns_rank > rows_rank_ ? 2 : columns_rank == rows_rank_ ? 1 : 0;
  }

  int n_, k_, far_;
  std::array<Mask, 32> allowed_{};
  std::array<int, 32> column_of_{};
  bool folded_ = false;
  std::uint32_t rows_rank_ = 0;
  std::uint64_t nodes_ = 0;
};

// Half-turn symmetric boards, rows 0 .. n/2 - 1 placed with their images (and the centre
// queen first on an odd board); each board found is turned a quarter to see whether it stays.
class RotationSearch {
 public:
  explicit RotationSearch(int n) : n_(n), column_of_(std::size_t(n), -1) {}

  SearchRotation run() {
    Taken taken;
    if (n_ % 2 == 1) {
      taken.claim(n_ / 2, n_ / 2, n_);
      column_of_[std::size_t(n_ / 2)] = n_ / 2;
    }
    place(0, taken);
    return result_;
  }

 private:
  void place(int row, const Taken& taken) {
    if (row == n_ / 2) return found();
    for (Mask free = taken.free_in(row, n_) & (bit(n_) - 1); free != 0; free &= free - 1) {
      const int column = std::countr_zero(free);
      Taken next = taken;
      next.claim(row, column, n_);
      ++result_.nodes;
      // The image must be free of every queen so far, this one included.
      if (!next.is_free(n_ - 1 - row, n_ - 1 - column, n_)) continue;
      next.claim(n_ - 1 - row, n_ - 1 - column, n_);
      column_of_[std::size_t(row)] = column;
      column_of_[std::size_t(n_ - 1 - row)] = n_ - 1 - column;
      place(row + 1, next);
    }
  }

  // A quarter turn takes the queen on (r, c) to (c, n - 1 - r).
  void found() {
    ++result_.half_turn;
    for (int row = 0; row < n_; ++row)
      if (column_of_[std::size_t(column_of_[std::size_t(row)])] != n_ - 1 - row) return;
    ++result_.quarter_turn;
  }

  int n_;
  std::vector<int> column_of_;
  SearchRotation result_;
};

}  // namespace

SearchCount search_unit(int n, const JoinUnit& unit) {
  UnitSearch search(n, unit, unit.rows);
  const std::uint64_t weighed = search.weighed_solutions();
  return {weighed * unit.weight, search.nodes()};
}

SearchRotation search_rotation(int n) {
  if (n < 1 || n > 32) throw std::invalid_argument("search_rotation: n must be in 1..32, got " + std::to_string(n));
  return RotationSearch(n).run();
}

}  // namespace nqueens::join
