#pragma once
// The quarter table: every placement of 0..k non-attacking queens on a k x k board (at most one
// per row and column), grouped by (row set, column set). One table serves all four quadrants
// of a board split in halves, because a quadrant only differs from another by a translation.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::join {

//! One placement, kept only as its diagonals in local coordinates: bit r + c of `sums` and bit
//! r - c + k - 1 of `differences` for each queen (r, c), 2k - 1 bits each.
struct QuarterEntry {
  std::uint32_t sums = 0;
  std::uint32_t differences = 0;
};

class QuarterTable {
 public:
  //! Built once, in parallel; read-only afterwards, so threads can share it freely.
  explicit QuarterTable(int k);

  int k() const { return k_; }
  //! The placements whose occupied rows are `rows` and occupied columns are `columns` (k-bit
  //! masks); empty unless both have the same number of bits.
  std::span<const QuarterEntry> group(std::uint32_t rows, std::uint32_t columns) const {
    const std::size_t index = (static_cast<std::size_t>(rows) << k_) | columns;
    return {entries_.data() + offsets_[index], entries_.data() + offsets_[index + 1]};
  }
  //! The k-bit column sets with `size` bits, ascending: the keys a quadrant's groups come under.
  std::span<const std::uint32_t> column_sets(int size) const {
    return column_sets_by_size_[static_cast<std::size_t>(size)];
  }
  std::size_t entry_count() const { return entries_.size(); }
  //! Every entry, group after group: group(rows, columns) is a subspan of this.
  std::span<const QuarterEntry> entries() const { return entries_; }
  std::size_t memory_bytes() const;

 private:
  int k_;
  std::vector<std::uint32_t> offsets_;  // 4^k + 1 group starts, indexed by rows << k | columns
  std::vector<QuarterEntry> entries_;
  std::vector<std::vector<std::uint32_t>> column_sets_by_size_;  // k + 1 lists
};

//! Largest k a table is built for: the entry offsets are 32-bit and the masks 2k - 1 bits.
inline constexpr int kMaxQuarterK = 15;

//! The table's size for k without building it: exact where known, extrapolated above.
std::uint64_t estimated_quarter_entries(int k);
std::uint64_t estimated_quarter_bytes(int k);

//! Placements per row set (entries summed over column sets), 2^k values: the row-set marginal
//! of the group sizes, computed once per k and cached, for cheap cost estimates.
const std::vector<std::uint64_t>& placements_per_row_set(int k);

}  // namespace nqueens::join
