#include "nqueens/reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace nqueens {

namespace {

void add_checked(Count& sum, Count value) {
  if (__builtin_add_overflow(sum, value, &sum))
    throw std::overflow_error("count overflowed 128 bits");
}

}  // namespace

Totals& Totals::operator+=(const Tally& unit) {
  add_checked(total, unit.total);
  for (std::size_t i = 0; i < orbits.size(); ++i) add_checked(orbits[i], unit.orbits[i]);
  add_checked(nodes, unit.nodes);
  return *this;
}

Totals& Totals::operator+=(const Totals& other) {
  add_checked(total, other.total);
  for (std::size_t i = 0; i < orbits.size(); ++i) add_checked(orbits[i], other.orbits[i]);
  add_checked(nodes, other.nodes);
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
