#pragma once
// The join engine's work units. A solution of an even board has exactly n/2 queens in the east
// columns; the set R of their rows splits the count into units, one per R up to the board's
// reflections. Odd boards first fix the middle row and column (centre queen, or an off-centre
// pair of queens folded by the square's eight symmetries), then split the same way; off centre,
// one unit takes every R with the same north rows, so that the units are not too many and too
// small (at n = 19, 18,396 units rather than 887,076).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nqueens::join {

enum class JoinCase : std::uint8_t { even, centre, off_centre };

struct JoinUnit {
  JoinCase kind = JoinCase::even;
  std::uint8_t a = 0, b = 0;  //!< off_centre: middle-row queen at column k+a, middle-column queen at row k+b
  //! R: bit r set when row r's queen is in the east half (original row numbers). Off centre,
  //! only R's north rows (below k): the unit counts every R that has them (row_sets()).
  std::uint32_t rows = 0;
  std::uint8_t weight = 1;  //!< solutions each counted pair stands for
};

//! The row sets R a unit counts, ascending: its own R, or off centre every R whose north rows
//! are the unit's, with the rest of its k rows from the free south ones.
std::vector<std::uint32_t> row_sets(int n, const JoinUnit& unit);
//! The unit as it counts one of its row sets: what layout_of() takes.
inline JoinUnit with_rows(const JoinUnit& unit, std::uint32_t rows) {
  return {unit.kind, unit.a, unit.b, rows, unit.weight};
}

struct JoinPlan {
  int n = 0;
  std::vector<JoinUnit> units;  //!< deterministic order: same n, same list
};

inline constexpr int kMinJoinN = 4;
//! The largest n the join splits: a unit's row set R is a 32-bit mask (join_layout.hpp). Its
//! keys would reach one further: 2(2k - 1) crossing diagonals fit 64 bits up to n = 33.
inline constexpr int kMaxJoinN = 32;

//! "" when the join can count n; otherwise a one-line reason.
std::string unsupported_reason(int n);

//! Units for n: even n, one per R representative; odd n, the centre units (R representatives)
//! then the off-centre ones by (a, b, R's north rows). Throws std::invalid_argument when n is
//! unsupported.
JoinPlan split(int n);

//! split(n).units.size(), counted without making the units; 0 when n is unsupported.
std::size_t unit_count(int n);

//! 64-bit FNV-1a over n and every unit's fields, in order.
std::uint64_t fingerprint(const JoinPlan& plan);

}  // namespace nqueens::join
