#pragma once
// The bit layout the splitter, the kernels and the solution lister share: a row's columns as the
// bits of one word. Internal: the public board.hpp says only which board sizes are accepted.
#include <cstdint>

namespace nqueens {

//! One bit per column; bit c is column c. 32 columns fit, which is the largest N we accept.
using Mask = std::uint32_t;

//! The columns of an N-wide board: the low N bits set.
constexpr Mask board_mask(int n) { return n >= 32 ? ~Mask{0} : (Mask{1} << n) - 1; }

//! Column index of a single-bit mask.
constexpr int column_of(Mask bit) { return __builtin_ctz(bit); }

}  // namespace nqueens
