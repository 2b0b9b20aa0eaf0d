#pragma once
// The south quadrants' keys of off-centre units, filtered against their two fixed queens once
// per pair of fixed queens rather than once per row set. At odd n the units of one pair (a, b)
// differ only in their north rows, and each south row set comes back in many of them: filtering
// it again for each cost as much as pairing its keys.
#include <cstdint>
#include <vector>

#include "join/half_boards.hpp"
#include "join/join_layout.hpp"

namespace nqueens::join {

//! Whether a thread's enumerators keep their south quadrants' keys (south_key_cache_bytes each):
//! at odd n up to k = 9, where the cache is at most a quarter table's keys (about 9 MB) and
//! its row sets come back in tens of units.
bool caches_south_keys(int n);

//! What one SouthKeyCache of n can hold at most: every row set's filtered keys and groups,
//! for a quarter table of `table_entries` placements.
std::uint64_t south_key_cache_bytes(int n, std::uint64_t table_entries);

class SouthKeyCache {
 public:
  //! The keys of `south`'s entries in `quadrant` that attack none of `layout`'s fixed queens,
  //! grouped by every column set (an empty group for a set the slice lacks): loaded on first
  //! use since the fixed queens or the quadrant last changed, then kept.
  const QuadrantKeys& keys(const SliceView& south, const UnitLayout& layout, const Quadrant& quadrant);
  //! How many row sets' keys it has filtered since it was made (each load on a miss).
  std::uint64_t filtered() const { return filtered_; }

 private:
  struct Source {
    std::uint64_t forbidden_sums = 0, forbidden_differences = 0;
    Quadrant quadrant;
    int k = 0;
    bool operator==(const Source&) const = default;
  };
  Source source_;
  std::vector<QuadrantKeys> by_rows_;  // by the south row set's k-bit mask
  std::vector<bool> loaded_;
  std::vector<std::uint32_t> all_sets_;
  std::uint64_t filtered_ = 0;
};

}  // namespace nqueens::join
