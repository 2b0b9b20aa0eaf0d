#include "join/quarter_slice.hpp"

#include <stdexcept>
#include <string>

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

}  // namespace

// Two passes over the same search (count, then fill) keep the slice at its own size.
QuarterSlice::QuarterSlice(int k, std::uint32_t rows) : k_(k), rows_(rows) {
  if (k < 1 || k > kMaxSliceK || rows >> k != 0)
    throw std::invalid_argument("quarter slice: k or rows out of range: k = " + std::to_string(k));
  const std::size_t column_masks = std::size_t{1} << k;
  std::vector<std::uint64_t> sizes(column_masks, 0);
  auto count = [&](const quarter_search::PartialPlacement& p) { ++sizes[p.columns]; };
  quarter_search::place_rows(k, rows, {}, count);
  offsets_.resize(column_masks + 1);
  std::uint64_t total = 0;
  for (std::size_t columns = 0; columns < column_masks; ++columns) {
    offsets_[columns] = static_cast<std::uint32_t>(total);
    total += sizes[columns];
  }
  if (total > UINT32_MAX) throw std::length_error("quarter slice: too many entries for 32-bit offsets");
  offsets_.back() = static_cast<std::uint32_t>(total);
  entries_.resize(total);
  std::vector<std::uint32_t> cursor(offsets_.begin(), offsets_.end() - 1);
  auto fill = [&](const quarter_search::PartialPlacement& p) {
    entries_[cursor[p.columns]++] = {p.sums, p.differences};
  };
  quarter_search::place_rows(k, rows, {}, fill);
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
