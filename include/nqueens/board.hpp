#pragma once
// Board sizes: the N the library counts.

namespace nqueens {

inline constexpr int kMinN = 1;   //!< the smallest board size accepted
inline constexpr int kMaxN = 32;  //!< the largest: a row's columns fit one 32-bit word

//! True when n is a board size the engine accepts.
constexpr bool valid_board_size(int n) { return n >= kMinN && n <= kMaxN; }

}  // namespace nqueens
