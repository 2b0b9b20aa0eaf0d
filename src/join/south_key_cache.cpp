#include "join/south_key_cache.hpp"

#include <algorithm>

namespace nqueens::join {

bool caches_south_keys(int n) { return n % 2 == 1 && n / 2 <= 9; }

// Per row set: its entries' keys with a vector's slack and the one-pass filter's masks and
// counts (QuadrantKeys), and a start and an end for each of the 2^k column sets.
std::uint64_t south_key_cache_bytes(int n, std::uint64_t table_entries) {
  if (!caches_south_keys(n)) return 0;
  const std::uint64_t row_sets = std::uint64_t{1} << (n / 2);
  const std::uint64_t per_entry = (8 * sizeof(std::uint64_t) + sizeof(std::uint8_t) + sizeof(std::uint32_t)) / 8 + 1;
  const std::uint64_t per_row_set = 2 * row_sets * sizeof(std::uint32_t) + 16 * sizeof(std::uint64_t);
  return table_entries * per_entry + row_sets * per_row_set;
}

const QuadrantKeys& SouthKeyCache::keys(const SliceView& south, const UnitLayout& layout, const Quadrant& quadrant) {
  const Source source{layout.forbidden_sums, layout.forbidden_differences, quadrant, layout.k};
  const std::size_t row_sets = std::size_t{1} << layout.k;
  if (source != source_ || by_rows_.size() != row_sets) {
    source_ = source;
    by_rows_.resize(row_sets);
    loaded_.assign(row_sets, false);
    all_sets_.resize(row_sets);
    for (std::uint32_t set = 0; set < row_sets; ++set) all_sets_[set] = set;
  }
  const std::uint32_t rows = south.slice.rows();
  QuadrantKeys& keys = by_rows_[rows];
  if (!loaded_[rows]) {
    // Every column set, the slice's and the others: a side asks for any set within its columns.
    keys.load(south.slice, south.keys, layout, quadrant, all_sets_);
    loaded_[rows] = true;
    ++filtered_;
  }
  return keys;
}

}  // namespace nqueens::join
