#pragma once
// Breadth-first expansion of a batch of partial boards by one row: the kernel's inner engine.
// A depth-first search spends most of its time on mispredicted branches (one per node, about
// 15 cycles each here); expanding a whole level at once turns that into straight-line SIMD
// code: eight boards at a time, children packed with a permutation table.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "board/bitboard.hpp"
#include "nqueens/board.hpp"

namespace nqueens::detail {

//! Partial boards that all have the same rows filled, as structure-of-arrays: the attacks on
//! the next row to fill, and (when asked for) the index of the parent in the previous level.
struct Level {
  std::vector<Mask> cols, left, right;
  std::vector<std::uint32_t> parent;
  std::size_t size = 0;

  void clear() { size = 0; }
  void reserve(std::size_t count, bool with_parents);  //!< room for `count` boards plus SIMD slack
};

//! What may be placed on the row being filled: `allowed` columns; and when `force_sides` is
//! set (full symmetry's side-row rule), a board whose side columns are both still empty has no
//! child, and one with a single empty side column must fill it on this row.
struct RowRule {
  Mask allowed = 0;
  Mask sides = 0;
  bool force_sides = false;
};

//! Places one queen, in every legal way, on each board of `in`; `out` receives the children
//! in an order of the implementation's choosing (`parent` says where each came from when
//! `with_parents` is set).
void expand(const Level& in, Level& out, const RowRule& rule, bool with_parents);

//! The portable version of expand(), always compiled; expand() uses an AVX2 version instead
//! when the CPU has AVX2 (checked at run time). Tests compare the two.
void expand_scalar(const Level& in, Level& out, const RowRule& rule, bool with_parents);

//! Which version expand() and finish_two_rows() run on this CPU: "avx2" or "scalar".
const char* breadth_path();

//! A board finished by finish_two_rows(): board `board` of its input level, completed by the
//! queens (single bits) `second_last` and `last` on the two rows it lacked.
struct Leaf {
  std::uint32_t board;
  Mask second_last, last;
};

//! What finish_two_rows() found: boards with one row left, and finished boards.
struct TwoRows {
  std::uint64_t second_last = 0;
  std::uint64_t leaves = 0;
};

//! Fills the last two rows of every board of `in` (each lacks exactly two, so its last row has at
//! most one free column) without storing the boards in between, which are only counted: the two
//! bottom rows hold about a fifth of the tree's nodes (22 % at N = 15). `leaves`, when given,
//! receives every finished board.
TwoRows finish_two_rows(const Level& in, const RowRule& second_last, const RowRule& last, std::vector<Leaf>* leaves);

//! The portable version of finish_two_rows(), like expand_scalar().
TwoRows finish_two_rows_scalar(const Level& in, const RowRule& second_last, const RowRule& last,
                               std::vector<Leaf>* leaves);

//! The free columns of a board with these attacks, under `rule`.
Mask free_columns(Mask cols, Mask left, Mask right, const RowRule& rule);

//! The free columns board i of `level` has on its row under `rule`.
inline Mask free_columns(const Level& level, std::size_t i, const RowRule& rule) {
  return free_columns(level.cols[i], level.left[i], level.right[i], rule);
}

}  // namespace nqueens::detail
