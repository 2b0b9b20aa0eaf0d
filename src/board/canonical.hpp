#pragma once
// Where a complete board stands among its images under the 8 symmetries of the square.
#include <cstdint>
#include <span>

namespace nqueens {

struct Orbit {
  bool canonical = false;  //!< the board is the least of its images (columns read row by row)
  int size = 0;            //!< how many distinct boards its images make: 1, 2, 4 or 8
};

//! `columns[r]` is the column of the queen on row r. The board must be a permutation.
Orbit classify(std::span<const std::uint8_t> columns);

}  // namespace nqueens
