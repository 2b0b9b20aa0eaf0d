// The reduction: the per-thread totals of a run summed once, exactly (every add checked by
// Totals, nqueens/counts.hpp).
#include "nqueens/counts.hpp"

namespace nqueens {

Totals reduce(std::span<const Totals> per_thread) {
  Totals sum;
  for (const Totals& t : per_thread) sum += t;
  return sum;
}

}  // namespace nqueens
