#pragma once
// Board-size limits and the bit layout shared by the splitter and the kernel.
#include <cstdint>

namespace nqueens {

//! One bit per column; bit c is column c. 32 columns fit, which is the largest N we accept.
using Mask = std::uint32_t;

inline constexpr int kMinN = 1;
inline constexpr int kMaxN = 32;

//! The columns of an N-wide board: the low N bits set.
constexpr Mask board_mask(int n) { return n >= 32 ? ~Mask{0} : (Mask{1} << n) - 1; }

//! Column index of a single-bit mask.
constexpr int column_of(Mask bit) { return __builtin_ctz(bit); }

//! True when n is a board size the engine accepts.
constexpr bool valid_board_size(int n) { return n >= kMinN && n <= kMaxN; }

}  // namespace nqueens
