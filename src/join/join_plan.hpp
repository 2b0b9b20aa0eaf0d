#pragma once
// The join engine's work units. A solution of an even board has exactly n/2 queens in the east
// columns; the set R of their rows splits the count into units, one per R up to the board's
// reflections. Odd boards first fix the middle row and column (centre queen, or an off-centre
// pair of queens folded by the square's eight symmetries), then split the same way.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nqueens::join {

enum class JoinCase : std::uint8_t { even, centre, off_centre };

struct JoinUnit {
  JoinCase kind = JoinCase::even;
  std::uint8_t a = 0, b = 0;  //!< off_centre: middle-row queen at column k+a, middle-column queen at row k+b
  std::uint32_t rows = 0;     //!< R: bit r set when row r's queen is in the east half (original row numbers)
  std::uint8_t weight = 1;    //!< solutions each counted pair stands for
};

struct JoinPlan {
  int n = 0;
  std::vector<JoinUnit> units;  //!< deterministic order: same n, same list
};

inline constexpr int kMinJoinN = 4;
//! Above this the quarter table is refused (see unsupported_reason).
inline constexpr std::uint64_t kMaxQuarterTableBytes = std::uint64_t{2} << 30;

//! "" when the join can count n; otherwise a one-line reason.
std::string unsupported_reason(int n);

//! Units for n: even n, one per R representative; odd n, the centre units (R representatives)
//! then the off-centre ones by (a, b, R). Throws std::invalid_argument when n is unsupported.
JoinPlan split(int n);

//! split(n).units.size(), counted without making the units (tens of milliseconds at n = 23, where
//! the plan takes gigabytes); 0 when n is unsupported.
std::size_t unit_count(int n);

//! 64-bit FNV-1a over n and every unit's fields, in order.
std::uint64_t fingerprint(const JoinPlan& plan);

//! A cheap, deterministic guess of a unit's work (pair tests plus halves), only for ordering.
std::uint64_t estimated_cost(const JoinPlan& plan, const JoinUnit& unit);
//! The halves each side of a unit is expected to enumerate (the terms of estimated_cost): what a
//! counter's key buffers grow to, for planning a run's memory.
struct SideEstimate {
  double east = 0;
  double west = 0;
};
SideEstimate estimated_sides(const JoinPlan& plan, const JoinUnit& unit);

//! estimated_cost of every unit, in the plan's order, computed in parallel.
std::vector<std::uint64_t> estimated_costs(const JoinPlan& plan);

}  // namespace nqueens::join
