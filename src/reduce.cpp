#include "nqueens/reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace nqueens {

namespace {

void add_checked(Count& sum, Count value) {
  if (__builtin_add_overflow(sum, value, &sum)) throw std::overflow_error("count overflowed 128 bits");
}

}  // namespace

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

Count Totals::unique() const {
  Count sum = 0;
  for (Count c : orbits) add_checked(sum, c);
  return sum;
}

Totals reduce(std::span<const Totals> per_thread) {
  Totals sum;
  for (const Totals& t : per_thread) sum += t;
  return sum;
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
