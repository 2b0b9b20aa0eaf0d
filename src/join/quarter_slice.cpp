#include "join/quarter_slice.hpp"

#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

namespace nqueens::join {

namespace {

std::uint64_t binomial(int n, int r) {
  std::uint64_t value = 1;
  for (int i = 1; i <= r; ++i) value = value * std::uint64_t(n - r + i) / std::uint64_t(i);
  return value;
}

// Reserved exactly, so that slice_bytes() is exact too.
std::vector<std::uint32_t> column_sets_of_size(int k, int size) {
  std::vector<std::uint32_t> sets;
  sets.reserve(binomial(k, size));
  for (std::uint32_t columns = 0; columns < (std::uint32_t{1} << k); ++columns)
    if (std::popcount(columns) == size) sets.push_back(columns);
  return sets;
}

// A slice's placements, found by a bitmask search that takes each row's free columns at once:
// place_rows (quarter_slice.hpp), which tries every column, stays the plain reference the tests
// hold this one to. A thread's slices are often rebuilt under a small cache, so this is hot.
class SliceSearch {
 public:
  struct Found {
    std::uint32_t columns, sums, differences;
  };

  SliceSearch(int k, std::vector<Found>& found) : k_(k), full_((std::uint32_t{1} << k) - 1), found_(found) {}

  // `reversed` holds bit c - r + k - 1 for each queen (r, c): the differences mirrored, so that a
  // row's attacked columns are one shift of it, as they are of the sums.
  void place(std::uint32_t rows, std::uint32_t columns, std::uint32_t sums, std::uint32_t differences,
             std::uint32_t reversed) {
    if (rows == 0) {
      found_.push_back({columns, sums, differences});
      return;
    }
    const int row = std::countr_zero(rows);
    const std::uint32_t rest = rows & (rows - 1);
    std::uint32_t free = full_ & ~(columns | sums >> row | reversed >> (k_ - 1 - row));
    for (; free != 0; free &= free - 1) {
      const int column = std::countr_zero(free);
      place(rest, columns | 1u << column, sums | 1u << (row + column), differences | 1u << (row - column + k_ - 1),
            reversed | 1u << (column - row + k_ - 1));
    }
  }

 private:
  int k_;
  std::uint32_t full_;
  std::vector<Found>& found_;
};

// SliceSearch's masks, counting: the last row adds its free columns.
std::uint64_t count_from(int k, std::uint32_t rows, std::uint32_t columns, std::uint32_t sums, std::uint32_t reversed) {
  const int row = std::countr_zero(rows);
  const std::uint32_t rest = rows & (rows - 1);
  std::uint32_t free = ((std::uint32_t{1} << k) - 1) & ~(columns | sums >> row | reversed >> (k - 1 - row));
  if (rest == 0) return static_cast<std::uint64_t>(std::popcount(free));
  std::uint64_t placements = 0;
  for (; free != 0; free &= free - 1) {
    const int column = std::countr_zero(free);
    placements += count_from(k, rest, columns | 1u << column, sums | 1u << (row + column),
                             reversed | 1u << (column - row + k - 1));
  }
  return placements;
}

}  // namespace

std::uint64_t count_placements(int k, std::uint32_t rows) {
  if (k < 1 || k > kMaxSliceK || rows >> k != 0)
    throw std::invalid_argument("quarter slice: k or rows out of range: k = " + std::to_string(k));
  return rows == 0 ? 1 : count_from(k, rows, 0, 0, 0);
}

// One search into a scratch list, then a counting sort by column set: the slice is sized exactly.
QuarterSlice::QuarterSlice(int k, std::uint32_t rows) : k_(k), rows_(rows) {
  if (k < 1 || k > kMaxSliceK || rows >> k != 0)
    throw std::invalid_argument("quarter slice: k or rows out of range: k = " + std::to_string(k));
  thread_local std::vector<SliceSearch::Found> found;
  found.clear();
  SliceSearch(k, found).place(rows, 0, 0, 0, 0);
  if (found.size() > UINT32_MAX) throw std::length_error("quarter slice: too many entries for 32-bit offsets");
  const std::size_t column_masks = std::size_t{1} << k;
  offsets_.assign(column_masks + 1, 0);
  for (const SliceSearch::Found& placement : found) ++offsets_[placement.columns + 1];
  for (std::size_t columns = 0; columns < column_masks; ++columns) offsets_[columns + 1] += offsets_[columns];
  entries_.resize(found.size());
  std::vector<std::uint32_t> cursor(offsets_.begin(), offsets_.end() - 1);
  for (const SliceSearch::Found& placement : found)
    entries_[cursor[placement.columns]++] = {placement.sums, placement.differences};
  column_sets_ = column_sets_of_size(k, std::popcount(rows));
}

std::size_t QuarterSlice::memory_bytes() const {
  return sizeof(*this) + offsets_.capacity() * sizeof(std::uint32_t) + entries_.capacity() * sizeof(QuarterEntry) +
         column_sets_.capacity() * sizeof(std::uint32_t);
}

std::uint64_t slice_bytes(int k, int size, std::uint64_t entries) {
  return sizeof(QuarterSlice) + ((std::uint64_t{1} << k) + 1 + binomial(k, size)) * sizeof(std::uint32_t) +
         entries * sizeof(QuarterEntry);
}

}  // namespace nqueens::join
