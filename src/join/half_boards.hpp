#pragma once
// Enumerates one side of a unit: every placement of the half's queens, built by pairing a
// north quadrant placement with a south one from their quarter-table slices, reduced to its key (the
// crossing diagonals it occupies). Two halves of a unit fit together iff their keys are disjoint.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/zeroed_array.hpp"
#include "join/diagonal_fold.hpp"
#include "join/join_layout.hpp"
#include "join/quarter_slice.hpp"

namespace nqueens::join {

//! A growable key array that keeps its storage between units, so that once it has grown a
//! unit allocates nothing.
class KeyBuffer {
 public:
  void clear() { size_ = 0; }
  //! Room for `extra` more keys past the current end; write there, then commit(). The storage
  //! grows by doubling, but not past max(size() + extra, most): a thread's buffers stay within
  //! what the run's memory plan gave them.
  std::uint64_t* make_room(std::size_t extra, std::size_t most = SIZE_MAX) {
    if (storage_.size() < size_ + extra) storage_.resize(std::max(size_ + extra, std::min(2 * storage_.size(), most)));
    return storage_.data() + size_;
  }
  void commit(std::size_t written) { size_ += written; }
  std::span<const std::uint64_t> keys() const { return {storage_.data(), size_}; }
  std::size_t size() const { return size_; }

 private:
  std::vector<std::uint64_t> storage_;
  std::size_t size_ = 0;
};

//! The key of every entry of a slice in each of a board's four quadrants, parallel to the
//! slice's entries: built with the slice at odd n, so that a unit's quadrant keys are a masked
//! copy rather than computed again for each of the many off-centre units that use them.
class QuadrantKeyTables {
 public:
  QuadrantKeyTables(std::span<const QuarterEntry> entries, int n);
  //! The keys of `quadrant`'s entries (a quadrant of any unit layout of this n).
  std::span<const std::uint64_t> of(const Quadrant& quadrant) const {
    return {keys_.data() + position(quadrant) * entries_, entries_};
  }
  std::size_t memory_bytes() const { return keys_.size() * sizeof(std::uint64_t); }

 private:
  static std::size_t position(const Quadrant& quadrant) {
    return (quadrant.row0 != 0 ? 1u : 0u) + (quadrant.col0 != 0 ? 2u : 0u);
  }
  std::size_t entries_;
  // Four runs of entries_ keys, by position(): north-east, south-east, north-west, south-west.
  // Not a vector: its pages are first written by the parallel fill, not zeroed up front.
  ZeroedArray<std::uint64_t> keys_;
};

//! Whether a QuadrantKeyTables for n is worth its memory: odd n (many units share each quadrant
//! row set) with the tables at most four times a quarter table of 7.5 M entries (k = 10), on a
//! CPU that computes a unit's keys one entry at a time. One with AVX-512 computes eight at once
//! about as fast as it would copy them from the tables, which make the slices five times larger
//! (docs/data/comparisons.md, "The quarter table without keys").
bool wants_quadrant_key_tables(int n);

//! Whether a unit's keys are computed from the slice's entries eight at a time (AVX-512).
bool computes_keys_in_vectors();

struct QuadrantView;  // how a quadrant's diagonals map to a half's key (half_boards.cpp)
class SouthKeyCache;  // south_key_cache.hpp

//! One quadrant's keys for one unit, grouped by the quadrant's column set.
class QuadrantKeys {
 public:
  //! Keeps the entries of `slice` whose column set is one of `sets` (column sets of the slice)
  //! and that attack none of the layout's fixed queens, as keys of the half. `precomputed` (may
  //! be null) supplies the entries' keys.
  void load(const QuarterSlice& slice, const QuadrantKeyTables* precomputed, const UnitLayout& layout,
            const Quadrant& quadrant, std::span<const std::uint32_t> sets);
  //! The kept keys with column set `set` (one of the loaded `sets`).
  std::span<const std::uint64_t> of(std::uint32_t set) const {
    return {keys_.data() + ranges_[set].begin, keys_.data() + ranges_[set].end};
  }
  //! Where a column set's kept keys begin and end.
  struct Range {
    std::uint32_t begin, end;
  };
  //! What of() reads: the kept keys, and each column set's range in them.
  struct Groups {
    const std::uint64_t* keys;
    const Range* ranges;
  };
  Groups groups() const { return {keys_.data(), ranges_.data()}; }

 private:
  void filter_in_one_run(const QuarterSlice& slice, const QuadrantView& view, std::span<const std::uint32_t> sets);
  //! Keys kept among the first `entries` entries of the last filter_in_one_run().
  std::uint32_t kept_before(std::size_t entries) const {
    const unsigned earlier_lanes = (1u << (entries % 8)) - 1;
    return kept_before_[entries / 8] +
           static_cast<std::uint32_t>(std::popcount(kept_masks_[entries / 8] & earlier_lanes));
  }

  std::vector<std::uint64_t> keys_;  // sized to the largest row set seen, never shrunk
  // Per column mask, into keys_: a begin and its end side by side, so that pair_whole_side()
  // reads one cache line per column set, not two: at odd n the south ranges come from a cache of
  // every row set's (south_key_cache.hpp), 4 KiB a row set at k = 9, seldom near the core.
  std::vector<Range> ranges_;
  // Per eight entries of a run filtered in one pass: the kept ones' mask, how many were kept before.
  std::vector<std::uint8_t> kept_masks_;
  std::vector<std::uint32_t> kept_before_;
};

//! A north quadrant's keys of one column set, to be paired with the south's keys of the rest
//! of the side's columns.
struct Pairing {
  const std::uint64_t* north;
  const std::uint64_t* south;
  std::uint32_t north_size, south_size;
};

namespace detail {

//! Writes n | s for every north key n and south key s of each pairing with n & s == 0, pairing
//! after pairing, north key by north key, in south order; returns how many. `out` has room for
//! every pair and 8 keys more. The fastest path this CPU runs (AVX-512 or scalar).
std::size_t append_pairings(std::span<const Pairing> pairings, std::uint64_t* out);

}  // namespace detail

//! A quadrant's slice and, where they were built, its entries' keys (may be null).
struct SliceView {
  const QuarterSlice& slice;
  const QuadrantKeyTables* keys = nullptr;
};

class HalfEnumerator {
 public:
  //! Replaces the contents of `keys` with the key of every half of `side`, from the slices of
  //! its north and south row sets. Precomputed keys make loading the quadrants cheaper; the
  //! keys are the same either way.
  void enumerate(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side, KeyBuffer& keys);
  //! As enumerate(), but only the halves whose north columns rank at least `fold.rank`
  //! (diagonal_fold.hpp): those that rank equal to it first. Returns how many those are.
  std::size_t enumerate_folded(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side,
                               const SideFold& fold, KeyBuffer& keys);

  //! The side's halves a part at a time, for a side too large to hold whole: loads the
  //! quadrants' keys and picks the side's north column sets (with a fold, those ranking at
  //! least its rank, the tied ones first), ready for next_part().
  void load(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side, const SideFold* fold,
            std::uint64_t most_halves);
  //! Replaces the contents of `keys` with the next part of the side's halves since the last
  //! load() or rewind(): at most `most_halves` of them (a part closes before the north key whose
  //! south matches could take it past that), in the order enumerate() gives them. Returns how
  //! many of them rank equal to the fold's rank, which come first (all of them without a fold).
  //! The first call after a load() or rewind() always makes a part, maybe an empty one.
  std::size_t next_part(KeyBuffer& keys);
  //! Whether every part since the last load() or rewind() has been made.
  bool exhausted() const { return set_ == north_sets_.size(); }
  void rewind() { set_ = key_ = 0; }
  //! The next load() loads its north quadrant's keys even where it loaded the same ones last.
  void forget_quadrants() { north_source_ = {}; }
  //! From now on, the south quadrant's keys come from `cache` (not owned; null: loaded for
  //! each row set). The halves are the same either way.
  void keep_south_keys(SouthKeyCache* cache) { south_cache_ = cache; }
  //! Whether a side of that layout has any halves: its quadrants' queens fill its columns.
  static bool has_halves(const SideLayout& side);

 private:
  // What the north quadrant's keys were last loaded from: a unit's row sets often share their
  // north rows (an off-centre unit's all do), and then the same keys need not be loaded again.
  struct NorthSource {
    const QuarterSlice* slice = nullptr;
    std::uint32_t rows = 0, columns = 0;
    Quadrant quadrant;
    std::uint64_t forbidden_sums = 0, forbidden_differences = 0;
    const QuadrantKeyTables* keys = nullptr;
    std::vector<std::uint32_t> sets;
    bool operator==(const NorthSource&) const = default;
  };

  void choose_north_sets(const SliceView& north, const SideLayout& side, const SideFold* fold);
  void load_quadrants(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side);

  bool pair_whole_side();
  std::size_t append_whole_side(KeyBuffer& keys);

  // What north_sets_ and south_sets_ were chosen for, when without a fold.
  struct UnfoldedSets {
    int k = 0, north_queens = 0;
    std::uint32_t columns = 0;
    bool operator==(const UnfoldedSets&) const = default;
  };

  QuadrantKeys north_, south_;
  SouthKeyCache* south_cache_ = nullptr;
  const QuadrantKeys* cached_south_ = nullptr;  // the cache's keys of this row set, when from the cache
  const QuadrantKeys& south_quadrant() const { return cached_south_ ? *cached_south_ : south_; }
  std::optional<UnfoldedSets> unfolded_sets_;
  std::vector<Pairing> pairings_;  // pair_whole_side()'s first pairing_count_, the tied sets' first
  std::size_t pairing_count_ = 0, tied_pairings_ = 0;
  std::uint64_t whole_side_bound_ = 0;                  // the most halves pairings_ make
  std::vector<std::uint32_t> north_sets_, south_sets_;  // the column sets a side pairs, in order
  std::size_t tied_sets_ = 0;                           // the first of north_sets_ rank equal
  std::uint64_t most_halves_ = UINT64_MAX;              // a part's most halves
  std::size_t set_ = 0, key_ = 0;                       // where the next part starts: set, north key
  NorthSource north_source_;
};

}  // namespace nqueens::join
