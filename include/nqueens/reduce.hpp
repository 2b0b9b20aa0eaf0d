#pragma once
// The reduction: per-thread totals summed exactly, once, at the end of a run.
#include <array>
#include <span>
#include <string>

#include "nqueens/kernel.hpp"

namespace nqueens {

//! An exact count. A000170 passes 2^64 at N = 29, so sums across units are 128 bits wide.
__extension__ using Count = unsigned __int128;

struct Totals {
  Count total = 0;                //!< all solutions
  std::array<Count, 4> orbits{};  //!< full mode: canonical boards of orbit 1, 2, 4, 8
  Count nodes = 0;                //!< queens placed by the search

  Totals& operator+=(const Tally& unit);
  Totals& operator+=(const Totals& other);
  Count unique() const;  //!< solutions up to rotation and reflection (full mode only)
  friend bool operator==(const Totals&, const Totals&) = default;
};

//! Sums per-thread totals. Every add is checked: a wrap-around throws std::overflow_error
//! rather than print a wrong number (and leaves the left-hand Totals unchanged).
Totals reduce(std::span<const Totals> per_thread);

//! Decimal digits of a count (fmt and iostreams do not print 128-bit integers portably).
std::string to_string(Count value);

//! The count as a uint64 if it fits.
bool fits_u64(Count value);

}  // namespace nqueens
