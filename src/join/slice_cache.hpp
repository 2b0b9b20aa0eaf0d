#pragma once
// The quarter-table slices of one n, shared by the worker threads and kept under a memory
// budget. A unit pins its four quadrants' slices while it counts, so they are never freed under
// it; beyond the budget the least recently used unpinned slices are dropped, and built again if a
// later unit needs them. Two threads that want the same slice at once build it once.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "join/half_boards.hpp"
#include "join/quarter_slice.hpp"

namespace nqueens::join {

//! A slice and, where `with_keys`, its entries' keys in the four quadrants.
struct LoadedSlice {
  LoadedSlice(int n, std::uint32_t rows, bool with_keys);
  std::size_t memory_bytes() const;
  //! memory_bytes() of a slice of `rows` with `entries` placements (placements_per_row_set),
  //! before it is built.
  static std::uint64_t expected_bytes(int n, std::uint32_t rows, std::uint64_t entries, bool with_keys);

  QuarterSlice slice;
  std::optional<QuadrantKeyTables> keys;
};

class SliceCache {
 public:
  //! Holds a slice in memory for as long as it lives.
  using Pin = std::shared_ptr<const LoadedSlice>;

  //! `budget_bytes`: the most the cached slices may hold while none is pinned (pinned slices
  //! stay however many there are; the engine sizes the budget so that they fit).
  SliceCache(int n, std::uint64_t budget_bytes);

  int n() const { return n_; }
  std::uint64_t budget_bytes() const { return budget_; }
  //! Whether the budget holds every slice of n: then nothing is ever evicted, and a caller may
  //! keep pins as long as it likes at no cost in memory.
  bool holds_whole_table() const { return holds_whole_table_; }
  //! What the slice of `rows` takes in the cache, known before it is built.
  std::uint64_t slice_bytes(std::uint32_t rows) const {
    return LoadedSlice::expected_bytes(n_, rows, placements_[rows], keys_);
  }
  //! The slice of the quadrant row set `rows`, built now if it is not held. Thread-safe.
  Pin get(std::uint32_t rows);

  std::uint64_t builds() const { return builds_.load(); }          //!< slices built, rebuilds included
  std::uint64_t peak_bytes() const { return peak_bytes_.load(); }  //!< most the held slices took at once
  std::uint64_t held_bytes();                                      //!< what the held slices take now

  //! Whether this cache's slices are those of `other`: the same k (N = 2k and 2k + 1 read the
  //! same quarter table) and neither with quadrant keys, which depend on n.
  bool same_slices(const SliceCache& other) const { return n_ / 2 == other.n_ / 2 && !keys_ && !other.keys_; }
  //! Takes over every slice `earlier` holds (a cache of the same slices: same_slices), as if
  //! built here, then drops the least recently used beyond this budget. No thread may use either
  //! cache meanwhile. Throws std::logic_error for a cache of other slices.
  void take_slices(SliceCache& earlier);
  //! Drops the least recently used unpinned slices until the held ones take at most `bytes`:
  //! what a run leaves for the next N of its command (engine/kept_tables.hpp).
  void keep_at_most(std::uint64_t bytes);

  //! Slices every cache of this process has built: a run that takes another's builds fewer.
  static std::uint64_t built_in_process();

 private:
  struct Slot {
    std::once_flag built;
    Pin slice;
    std::size_t bytes = 0;
    bool counted = false;  // its bytes are in bytes_ (guarded by mutex_)
    std::list<std::uint32_t>::iterator recent;
  };
  void evict_beyond(std::uint64_t bytes);  // with mutex_ held

  int n_;
  std::uint64_t budget_;
  bool keys_;  // whether slices carry their quadrant keys (slices_carry_keys)
  bool holds_whole_table_;
  const std::vector<std::uint64_t>& placements_;  // per row set (placements_per_row_set)
  std::mutex mutex_;
  std::vector<std::shared_ptr<Slot>> slots_;  // by row set; null when not held
  std::list<std::uint32_t> recent_;           // held row sets, most recently used first
  std::uint64_t bytes_ = 0;
  std::atomic<std::uint64_t> builds_{0}, peak_bytes_{0};
};

}  // namespace nqueens::join
