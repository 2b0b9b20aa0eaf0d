#pragma once
// Enumerates one side of a unit: every placement of the half's queens, built by pairing a
// north quadrant placement with a south one from the quarter table, reduced to its key (the
// crossing diagonals it occupies). Two halves of a unit fit together iff their keys are disjoint.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "join/join_layout.hpp"
#include "join/quarter_table.hpp"

namespace nqueens::join {

//! A growable key array that keeps its storage between units, so that once it has grown a
//! unit allocates nothing.
class KeyBuffer {
 public:
  void clear() { size_ = 0; }
  //! Room for `extra` more keys past the current end; write there, then commit().
  std::uint64_t* make_room(std::size_t extra) {
    if (storage_.size() < size_ + extra) storage_.resize(std::max(size_ + extra, 2 * storage_.size()));
    return storage_.data() + size_;
  }
  void commit(std::size_t written) { size_ += written; }
  std::span<const std::uint64_t> keys() const { return {storage_.data(), size_}; }
  std::size_t size() const { return size_; }

 private:
  std::vector<std::uint64_t> storage_;
  std::size_t size_ = 0;
};

//! One quadrant's keys for one unit, grouped by the quadrant's column set.
class QuadrantKeys {
 public:
  //! Keeps the entries of row set `rows` whose columns lie in `columns` and that attack none of
  //! the layout's fixed queens, as keys of the half.
  void load(const QuarterTable& table, const UnitLayout& layout, const Quadrant& quadrant, std::uint32_t rows,
            std::uint32_t columns);
  //! The kept keys with column set `set` (one of the loaded row set's size, within `columns`).
  std::span<const std::uint64_t> of(std::uint32_t set) const {
    return {keys_.data() + starts_[set], keys_.data() + ends_[set]};
  }

 private:
  std::vector<std::uint64_t> keys_;           // sized to the largest row set seen, never shrunk
  std::vector<std::uint32_t> starts_, ends_;  // per column mask, into keys_
};

class HalfEnumerator {
 public:
  //! Replaces the contents of `keys` with the key of every half of `side`.
  void enumerate(const QuarterTable& table, const UnitLayout& layout, const SideLayout& side, KeyBuffer& keys);

 private:
  QuadrantKeys north_, south_;
};

}  // namespace nqueens::join
