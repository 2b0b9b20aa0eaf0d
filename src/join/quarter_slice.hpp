#pragma once
// One slice of the quarter table: every placement of queens on a k x k quadrant whose occupied
// rows are exactly one row set, grouped by column set, in the table's entry format. A unit reads
// only the slices of its four quadrants' row sets, so the join builds slices on demand
// (slice_cache.hpp) instead of the whole table, whose size grows ninefold per k.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "join/quarter_table.hpp"

namespace nqueens::join {

//! Largest k a slice is built for: its entries' diagonal masks (2k - 1 bits) are 32-bit.
inline constexpr int kMaxSliceK = 16;

class QuarterSlice {
 public:
  //! Built by a search over the rows of `rows` (a k-bit mask), on the calling thread.
  QuarterSlice(int k, std::uint32_t rows);

  int k() const { return k_; }
  std::uint32_t rows() const { return rows_; }
  //! The placements whose occupied columns are `columns` (a k-bit mask); empty unless it has as
  //! many bits as rows().
  std::span<const QuarterEntry> group(std::uint32_t columns) const {
    return {entries_.data() + offsets_[columns], entries_.data() + offsets_[columns + 1]};
  }
  //! The k-bit column sets with as many bits as rows(), ascending: the keys of the groups.
  std::span<const std::uint32_t> column_sets() const { return column_sets_; }
  //! Every entry, group after group: group(columns) is a subspan of this.
  std::span<const QuarterEntry> entries() const { return entries_; }
  //! Where each group starts within entries(), indexed by column set (2^k + 1 starts, the last
  //! one the end): what a device reads to find a group (gpu/pairing_spec.hpp).
  std::span<const std::uint32_t> group_starts() const { return offsets_; }
  std::size_t memory_bytes() const;

 private:
  int k_;
  std::uint32_t rows_;
  std::vector<std::uint32_t> offsets_;  // 2^k + 1 group starts, indexed by column set
  std::vector<QuarterEntry> entries_;
  std::vector<std::uint32_t> column_sets_;
};

//! A slice's memory_bytes() for a row set of `size` rows and `entries` placements, before it is
//! built (placements_per_row_set gives the entries).
std::uint64_t slice_bytes(int k, int size, std::uint64_t entries);

//! The placements a slice of `rows` holds, counted without building it: the slice's search, with
//! the last row's free columns counted at once rather than visited. A memory plan sizes every
//! slice of n this way (6.4e9 placements at n = 26 and 27).
std::uint64_t count_placements(int k, std::uint32_t rows);

namespace quarter_search {

struct PartialPlacement {
  std::uint32_t columns = 0;
  std::uint32_t sums = 0;
  std::uint32_t differences = 0;
};

// Places one queen on each row of `rows` (lowest first), calling visit(placement) for every
// non-attacking completion. Recursion depth is at most k.
template <typename Visit>
void place_rows(int k, std::uint32_t rows, PartialPlacement placed, Visit& visit) {
  if (rows == 0) {
    visit(placed);
    return;
  }
  const int row = std::countr_zero(rows);
  const std::uint32_t rest = rows & (rows - 1);
  for (int column = 0; column < k; ++column) {
    const std::uint32_t column_bit = 1u << column;
    const std::uint32_t sum_bit = 1u << (row + column);
    const std::uint32_t difference_bit = 1u << (row - column + k - 1);
    if ((placed.columns & column_bit) || (placed.sums & sum_bit) || (placed.differences & difference_bit)) continue;
    place_rows(k, rest, {placed.columns | column_bit, placed.sums | sum_bit, placed.differences | difference_bit},
               visit);
  }
}

}  // namespace quarter_search

}  // namespace nqueens::join
