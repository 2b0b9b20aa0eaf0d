#include "join/join_plan.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "join/join_layout.hpp"

namespace nqueens::join {

namespace {

std::uint32_t reverse_rows(std::uint32_t rows, int n) {
  std::uint32_t reversed = 0;
  for (std::uint32_t rest = rows; rest != 0; rest &= rest - 1) {
    reversed |= std::uint32_t{1} << (n - 1 - std::countr_zero(rest));
  }
  return reversed;
}

// The north-south reflection maps R to its reversal and the east-west one to its complement
// (both keep the free rows free when the middle row is the only one removed). The smallest
// member of {R, rev R, comp R, rev comp R} stands for the orbit.
struct Orbit {
  std::uint32_t representative;
  std::uint8_t size;
};

Orbit reflection_orbit(std::uint32_t rows, int n, std::uint32_t free) {
  const std::uint32_t complement = free & ~rows;
  std::array<std::uint32_t, 4> members = {rows, reverse_rows(rows, n), complement, reverse_rows(complement, n)};
  std::sort(members.begin(), members.end());
  const auto distinct = std::unique(members.begin(), members.end()) - members.begin();
  return {members[0], static_cast<std::uint8_t>(distinct)};
}

// Calls visit(R) for every R made of `count` rows of `free`, in increasing order (Gosper's
// successor on the free rows' ranks, then each rank mapped back to its row).
template <typename Visit>
void for_each_row_set(std::uint32_t free, int count, Visit visit) {
  const int slots = std::popcount(free);
  std::array<int, 32> row_of_rank{};
  int rank = 0;
  for (std::uint32_t rest = free; rest != 0; rest &= rest - 1)
    row_of_rank[std::size_t(rank++)] = std::countr_zero(rest);
  const std::uint64_t end = std::uint64_t{1} << slots;
  for (std::uint64_t ranks = (std::uint64_t{1} << count) - 1; ranks < end;) {
    std::uint32_t rows = 0;
    for (std::uint64_t rest = ranks; rest != 0; rest &= rest - 1) {
      rows |= std::uint32_t{1} << row_of_rank[std::size_t(std::countr_zero(rest))];
    }
    visit(rows);
    const std::uint64_t low_filled = ranks | (ranks - 1);
    ranks = (low_filled + 1) | (((~low_filled & (low_filled + 1)) - 1) >> (std::countr_zero(ranks) + 1));
  }
}

void add_folded_units(int n, JoinCase kind, std::vector<JoinUnit>& units) {
  const std::uint32_t free = free_rows(n, kind, 0);
  for_each_row_set(free, n / 2, [&](std::uint32_t rows) {
    const Orbit orbit = reflection_orbit(rows, n, free);
    if (orbit.representative == rows) units.push_back({kind, 0, 0, rows, orbit.size});
  });
}

// Off centre, (a, b) ranges over 0 < a < b <= k: each solution has exactly one image there
// under the square's eight symmetries, and no symmetry fixes (a, b), so R is not folded. A unit
// takes R's north rows r (any but none: the south has only k - 1 free rows) and every south
// part that completes it, which keeps the two north slices of its row sets the same.
void add_off_centre_units(int n, std::vector<JoinUnit>& units) {
  const int k = n / 2;
  for (int a = 1; a < k; ++a)
    for (int b = a + 1; b <= k; ++b)
      for (std::uint32_t north = 1; north < (std::uint32_t{1} << k); ++north)
        units.push_back({JoinCase::off_centre, static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b), north, 8});
}

std::size_t off_centre_unit_count(int n) {
  const std::size_t k = static_cast<std::size_t>(n / 2);
  return k * (k - 1) / 2 * ((std::size_t{1} << k) - 1);
}

class Fnv1a {
 public:
  void add(std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      hash_ ^= (value >> (8 * i)) & 0xffu;
      hash_ *= 0x100000001b3ull;
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::string unsupported_reason(int n) {
  const std::string board = "n = " + std::to_string(n);
  if (n < kMinJoinN) return board + " is too small to split into half-boards (the join needs n >= 4)";
  if (n > kMaxJoinN) return board + " is too large: the join's row sets are 32-bit masks (n <= 32)";
  return "";
}

// The units split() makes, counted without making them: the folded units are the row sets that
// stand for their reflection orbit, the off-centre ones 2^k - 1 per (a, b).
std::size_t unit_count(int n) {
  if (!unsupported_reason(n).empty()) return 0;
  const JoinCase folded = n % 2 == 0 ? JoinCase::even : JoinCase::centre;
  const std::uint32_t free = free_rows(n, folded, 0);
  std::size_t count = 0;
  for_each_row_set(free, n / 2, [&](std::uint32_t rows) {
    if (reflection_orbit(rows, n, free).representative == rows) ++count;
  });
  if (n % 2 == 1) count += off_centre_unit_count(n);
  return count;
}

std::vector<std::uint32_t> row_sets(int n, const JoinUnit& unit) {
  if (unit.kind != JoinCase::off_centre) return {unit.rows};
  const int k = n / 2;
  const std::uint32_t south = free_rows(n, unit.kind, unit.b) & ~((std::uint32_t{1} << k) - 1);
  std::vector<std::uint32_t> sets;
  const int needed = k - std::popcount(unit.rows);
  if (needed == 0) return {unit.rows};
  if (needed <= std::popcount(south))
    for_each_row_set(south, needed, [&](std::uint32_t rows) { sets.push_back(unit.rows | rows); });
  return sets;
}

JoinPlan split(int n) {
  if (const std::string reason = unsupported_reason(n); !reason.empty()) throw std::invalid_argument(reason);
  JoinPlan plan;
  plan.n = n;
  if (n % 2 == 0) {
    add_folded_units(n, JoinCase::even, plan.units);
  } else {
    add_folded_units(n, JoinCase::centre, plan.units);
    add_off_centre_units(n, plan.units);
  }
  return plan;
}

std::uint64_t fingerprint(const JoinPlan& plan) {
  Fnv1a hash;
  hash.add(static_cast<std::uint32_t>(plan.n), 4);
  for (const JoinUnit& unit : plan.units) {
    hash.add(static_cast<std::uint8_t>(unit.kind), 1);
    hash.add(unit.a, 1);
    hash.add(unit.b, 1);
    hash.add(unit.rows, 4);
    hash.add(unit.weight, 1);
  }
  return hash.value();
}

}  // namespace nqueens::join
