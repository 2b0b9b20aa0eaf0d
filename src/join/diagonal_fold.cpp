#include "join/diagonal_fold.hpp"

#include <algorithm>

namespace nqueens::join {

std::uint32_t reverse_bits(std::uint32_t x, int k) {
  std::uint32_t reversed = 0;
  for (int bit = 0; bit < k; ++bit) reversed |= ((x >> bit) & 1u) << (k - 1 - bit);
  return reversed;
}

std::uint32_t complement_rank(std::uint32_t x, int k) {
  const std::uint32_t all = (std::uint32_t{1} << k) - 1;
  return std::min(x, ~x & all);
}

std::uint32_t SideFold::value(std::uint32_t columns) const {
  return complement_rank(reversed ? reverse_bits(columns, k) : columns, k);
}

// R's north rows and reversed south rows stand where C's east and reversed west columns do.
DiagonalFold diagonal_fold(const UnitLayout& layout) {
  const int k = layout.k;
  const std::uint32_t rank =
      std::min(complement_rank(layout.east.north_rows, k), complement_rank(reverse_bits(layout.east.south_rows, k), k));
  return {{k, false, rank}, {k, true, rank}};
}

}  // namespace nqueens::join
