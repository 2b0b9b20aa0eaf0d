#include "join/quarter_table.hpp"

#include <array>
#include <bit>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/parallel_each.hpp"
#include "engine/setup_stop.hpp"
#include "join/quarter_slice.hpp"

namespace nqueens::join {

namespace {

using quarter_search::PartialPlacement;
using quarter_search::place_rows;

void check_k(int k) {
  if (k < 1 || k > kMaxQuarterK) throw std::invalid_argument("quarter table: k out of range: " + std::to_string(k));
}

std::size_t group_index(int k, std::uint32_t rows, std::uint32_t columns) {
  return (static_cast<std::size_t>(rows) << k) | columns;
}

}  // namespace

QuarterTable::QuarterTable(int k) : k_(k) {
  check_k(k);
  const std::uint32_t row_sets = 1u << k;
  // Two passes over the same enumeration (count, then fill) keep the peak memory at the
  // table's own size. Each row set owns a contiguous slice of offsets, so tasks never share.
  std::vector<std::uint32_t> sizes(group_index(k, row_sets, 0), 0);
  detail::parallel_each(row_sets, [&](std::uint32_t rows) {
    auto count = [&](const PartialPlacement& p) { ++sizes[group_index(k, rows, p.columns)]; };
    place_rows(k, rows, {}, count);
  });
  offsets_.resize(sizes.size() + 1);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    offsets_[i] = static_cast<std::uint32_t>(total);
    total += sizes[i];
  }
  if (total > UINT32_MAX) throw std::length_error("quarter table: too many entries for 32-bit offsets");
  offsets_.back() = static_cast<std::uint32_t>(total);
  entries_.resize(total);
  detail::parallel_each(row_sets, [&](std::uint32_t rows) {
    std::vector<std::uint32_t> cursor(offsets_.begin() + static_cast<std::ptrdiff_t>(group_index(k, rows, 0)),
                                      offsets_.begin() + static_cast<std::ptrdiff_t>(group_index(k, rows + 1, 0)));
    auto fill = [&](const PartialPlacement& p) { entries_[cursor[p.columns]++] = {p.sums, p.differences}; };
    place_rows(k, rows, {}, fill);
  });
  column_sets_by_size_.resize(static_cast<std::size_t>(k) + 1);
  for (std::uint32_t columns = 0; columns < row_sets; ++columns) {
    column_sets_by_size_[static_cast<std::size_t>(std::popcount(columns))].push_back(columns);
  }
}

std::size_t QuarterTable::memory_bytes() const {
  std::size_t column_set_bytes = 0;
  for (const auto& sets : column_sets_by_size_) column_set_bytes += sets.capacity() * sizeof(std::uint32_t);
  return offsets_.capacity() * sizeof(std::uint32_t) + entries_.capacity() * sizeof(QuarterEntry) + column_set_bytes;
}

std::uint64_t estimated_quarter_entries(int k) {
  // Counted by this table's own enumeration; above the last one each k multiplies the count
  // by about 9 (the ratio is 8.9 from k = 10 to 11 and still growing).
  static constexpr std::array<std::uint64_t, 12> kKnown = {1,    2,     5,      18,     87,      462,
                                                           2635, 16870, 118969, 915442, 7535369, 66807234};
  if (k < 0) return 0;
  if (k < static_cast<int>(kKnown.size())) return kKnown[static_cast<std::size_t>(k)];
  std::uint64_t entries = kKnown.back();
  for (int i = static_cast<int>(kKnown.size()); i <= k; ++i) entries *= 9;
  return entries;
}

std::uint64_t estimated_quarter_bytes(int k) {
  const std::uint64_t offsets = (std::uint64_t{1} << (2 * k)) + 1;
  return offsets * sizeof(std::uint32_t) + estimated_quarter_entries(k) * sizeof(QuarterEntry);
}

const std::vector<std::uint64_t>& placements_per_row_set(int k) {
  if (k < 1 || k > kMaxSliceK) throw std::invalid_argument("quarter slices: k out of range: " + std::to_string(k));
  static std::mutex mutex;
  static std::map<int, std::vector<std::uint64_t>> cache;
  const std::scoped_lock lock(mutex);
  if (const auto found = cache.find(k); found != cache.end()) return found->second;
  detail::setup_phase("counting quarter placements per row set");
  // Filled before it is cached: a stopped setup (Cancelled) leaves nothing half-counted behind.
  std::vector<std::uint64_t> counts(std::size_t{1} << k, 0);
  detail::parallel_each(std::uint32_t{1} << k, [&](std::uint32_t rows) { counts[rows] = count_placements(k, rows); });
  return cache.emplace(k, std::move(counts)).first->second;
}

}  // namespace nqueens::join
