#pragma once
// The reduction: per-thread totals summed exactly, once, at the end of a run.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "nqueens/export.hpp"

namespace nqueens {

//! What one unit contributes. 64 bits suffice per unit: even at N = 32 a single unit would
//! need centuries of search to pass 2^64 completions. Sums across units use `Totals`.
struct NQUEENS_EXPORT Tally {
  std::uint64_t total = 0;                //!< boards this unit stands for, weights applied
  std::array<std::uint64_t, 4> orbits{};  //!< full mode: canonical boards of orbit 1, 2, 4, 8
  std::uint64_t nodes = 0;                //!< queens placed by the search

  //! Adds another unit's counts: what a unit split in parts sums to.
  Tally& operator+=(const Tally& other);
  //! Equal counts, field by field.
  friend bool operator==(const Tally&, const Tally&) = default;
};

//! Index into Tally::orbits for an orbit of `size` boards (1, 2, 4 or 8).
constexpr std::size_t orbit_slot(int size) { return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3; }

//! An exact count. A000170 passes 2^64 at N = 29, so sums across units are 128 bits wide.
__extension__ using Count = unsigned __int128;

//! The counts of many units summed, each 128 bits wide.
struct NQUEENS_EXPORT Totals {
  Count total = 0;                //!< all solutions
  std::array<Count, 4> orbits{};  //!< full mode: canonical boards of orbit 1, 2, 4, 8
  Count nodes = 0;                //!< queens placed by the search

  //! Adds a unit's counts; throws std::overflow_error on a wrap-around, this left unchanged.
  Totals& operator+=(const Tally& unit);
  //! Adds other totals, checked the same way.
  Totals& operator+=(const Totals& other);
  //! Solutions up to rotation and reflection (full mode only). The orbit-8 class is derived,
  //! not summed, as (total - o1 - 2 o2 - 4 o4) / 8: the DFS engine fills every slot and the
  //! join engine only the rotation-symmetric ones, and the formula is exact for both.
  Count unique() const;
  Count half_turn_fixed() const;     //!< S180: solutions equal to their half-turn image
  Count quarter_turn_fixed() const;  //!< S90: solutions equal to their quarter-turn image
  //! Equal counts, field by field.
  friend bool operator==(const Totals&, const Totals&) = default;
};

//! Sums per-thread totals. Every add is checked: a wrap-around throws std::overflow_error
//! rather than print a wrong number (and leaves the left-hand Totals unchanged).
NQUEENS_EXPORT Totals reduce(std::span<const Totals> per_thread);

//! Decimal digits of a count (fmt and iostreams do not print 128-bit integers portably).
NQUEENS_EXPORT std::string to_string(Count value);

//! The count as a uint64 if it fits.
NQUEENS_EXPORT bool fits_u64(Count value);

}  // namespace nqueens
