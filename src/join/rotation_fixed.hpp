#pragma once
// Solutions that a rotation maps onto themselves. Burnside's lemma turns the full count into
// the count up to rotation and reflection: unique = (total + S180 + 2 * S90) / 8, the
// reflections fixing no solution for n > 1. These boards are rare and a search that places
// a queen together with all its rotated images finds them in a sliver of the full count's time.
#include <cstdint>

namespace nqueens {

struct RotationFixed {
  std::uint64_t half_turn = 0;     // S180: solutions equal to their 180-degree rotation
  std::uint64_t quarter_turn = 0;  // S90: solutions equal to their 90-degree rotation (counted in half_turn too)
  std::uint64_t nodes = 0;         // queens placed by the searches, each with its 2 or 4 images counted once
};

//! Both counts for the n x n board; n in 1..32, std::invalid_argument otherwise.
RotationFixed count_rotation_fixed(int n);

}  // namespace nqueens
