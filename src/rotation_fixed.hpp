#pragma once
// The solutions that a rotation of the board maps to themselves. The join engine counts all
// solutions without classifying any of them, so the number of solutions up to rotation and
// reflection comes from Burnside's lemma instead: unique = (total + S180 + 2 S90) / 8, as no
// solution of n > 1 is its own mirror image. These two counts need searches of their own, far
// smaller than the full count: a symmetric solution is fixed by half or a quarter of its queens.
#include <cstdint>

namespace nqueens {

struct RotationFixed {
  std::uint64_t half_turn = 0;     //!< S180: solutions equal to their 180-degree rotation
  std::uint64_t quarter_turn = 0;  //!< S90: solutions equal to their 90-degree rotation (in S180 too)
  std::uint64_t nodes = 0;         //!< queen orbits placed by the two searches
};

//! Both counts for an n x n board, n in 1..32; throws std::invalid_argument otherwise.
RotationFixed count_rotation_fixed(int n);

}  // namespace nqueens
