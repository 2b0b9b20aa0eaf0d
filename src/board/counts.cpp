// The count arithmetic every stage shares: a unit's tally, exact sums that refuse to wrap, the
// unique count derived from the orbit counts.
#include "nqueens/counts.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace nqueens {

namespace {

void add_checked(Count& sum, Count value) {
  if (__builtin_add_overflow(sum, value, &sum)) throw std::overflow_error("count overflowed 128 bits");
}

}  // namespace

Tally& Tally::operator+=(const Tally& other) {
  total += other.total;
  for (std::size_t i = 0; i < orbits.size(); ++i) orbits[i] += other.orbits[i];
  nodes += other.nodes;
  return *this;
}

Totals& Totals::operator+=(const Tally& unit) {
  Totals other;
  other.total = unit.total;
  for (std::size_t i = 0; i < orbits.size(); ++i) other.orbits[i] = unit.orbits[i];
  other.nodes = unit.nodes;
  return *this += other;
}

// Adds into a copy first, so that an overflow leaves *this as it was.
Totals& Totals::operator+=(const Totals& other) {
  Totals sum = *this;
  add_checked(sum.total, other.total);
  for (std::size_t i = 0; i < orbits.size(); ++i) add_checked(sum.orbits[i], other.orbits[i]);
  add_checked(sum.nodes, other.nodes);
  *this = sum;
  return *this;
}

// Orbit counts scaled by their orbit sizes, every step checked like the sums themselves.
Count Totals::quarter_turn_fixed() const {
  Count sum = orbits[0];
  add_checked(sum, orbits[1]);
  add_checked(sum, orbits[1]);
  return sum;
}

Count Totals::half_turn_fixed() const {
  Count sum = quarter_turn_fixed();
  for (int i = 0; i < 4; ++i) add_checked(sum, orbits[2]);
  return sum;
}

// Each orbit of 8 boards holds one canonical board; the smaller orbits are counted directly.
Count Totals::unique() const {
  const Count symmetric = half_turn_fixed();
  if (total < symmetric || (total - symmetric) % 8 != 0)
    throw std::logic_error("the totals are inconsistent: " + to_string(total) + " solutions, " + to_string(symmetric) +
                           " of them rotation-symmetric");
  return orbits[0] + orbits[1] + orbits[2] + (total - symmetric) / 8;
}

std::string to_string(Count value) {
  if (value == 0) return "0";
  std::string digits;
  for (; value != 0; value /= 10) digits.push_back(static_cast<char>('0' + static_cast<int>(value % 10)));
  std::reverse(digits.begin(), digits.end());
  return digits;
}

bool fits_u64(Count value) { return value <= UINT64_MAX; }

}  // namespace nqueens
