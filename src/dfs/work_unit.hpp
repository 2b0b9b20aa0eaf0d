#pragma once
// A work unit: the state of the board after its first few rows are placed. Units are the
// currency of the whole engine: the splitter makes them, the scheduler hands them to threads,
// and later features (journals, shards, MPI) address them by their index in the plan.
#include <array>
#include <cstdint>

#include "board/bitboard.hpp"
#include "nqueens/board.hpp"

namespace nqueens {

inline constexpr int kMinSplitDepth = 2;
inline constexpr int kMaxSplitDepth = 4;

//! How the completions of a unit are turned into counts.
enum class UnitKind : std::uint8_t {
  plain,   //!< symmetry none or mirror: each completion stands for `weight` boards
  corner,  //!< full symmetry, queen in the corner: each completion is a canonical board of orbit 8
  edge,    //!< full symmetry, no corner queen: a leaf check keeps canonical boards and sizes their orbit
};

struct WorkUnit {
  std::array<std::uint8_t, kMaxSplitDepth> queens{};  //!< column of the queen in each prefix row
  std::uint8_t rows = 0;                              //!< prefix length: rows 0..rows-1 are placed
  UnitKind kind = UnitKind::plain;
  std::uint8_t weight = 1;  //!< plain units only: how many boards each completion stands for
  std::uint8_t bound = 0;   //!< corner: column of the row-1 queen; edge: column of the row-0 queen
  Mask cols = 0;            //!< columns taken
  Mask left_diag = 0;       //!< squares on row `rows` attacked along down-left diagonals
  Mask right_diag = 0;      //!< squares on row `rows` attacked along down-right diagonals
};

//! Columns that the unit's symmetry rules allow on `row` (attacks are not removed here).
//! Both the splitter and the kernel use this, so a prefix and its completion obey one rule set.
Mask allowed_columns(int n, const WorkUnit& unit, int row);

//! Places a queen in column `col` on the next row of `unit` (no legality check). Past
//! kMaxSplitDepth rows only the masks and the row count change.
void place_queen(WorkUnit& unit, int col);

}  // namespace nqueens
