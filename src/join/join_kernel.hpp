#pragma once
// Counts one unit: enumerate both halves' keys, then count the disjoint (east, west) pairs.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "join/diagonal_fold.hpp"
#include "join/disjoint_count.hpp"
#include "join/half_boards.hpp"
#include "join/join_plan.hpp"
#include "join/pair_matcher.hpp"
#include "join/slice_cache.hpp"
#include "join/south_key_cache.hpp"

namespace nqueens::join {

struct JoinCount {
  //! Compatible (east, west) pairs, each weighted by the diagonal fold (diagonal_fold.hpp) in
  //! the even and centre cases; not yet multiplied by the unit's weight.
  std::uint64_t pairs = 0;
  std::uint64_t halves = 0;  //!< east + west halves enumerated
};

//! The parts of a row set cut into `shares` east shares (JoinCounter::count_part): one where it is
//! not cut, else the shares and the west side's part.
inline std::size_t parts_per_row_set(std::size_t shares) { return shares > 1 ? shares + 1 : 1; }

//! The most units JoinCounter::count_together takes at once (the engine's batches).
inline constexpr std::size_t kMostUnitsTogether = 64;
//! What count_together keeps per row set of its units.
inline constexpr std::size_t kBytesPerRowSetTogether = 16;

//! Owned by one worker thread; its buffers grow to the largest unit seen and are then reused,
//! so a unit allocates nothing once they have grown. The slices come from a cache shared with
//! the other threads: a unit's counts are the same whatever the cache holds.
class JoinCounter {
 public:
  //! `block_bytes`: how much of the cache count_together() may fill with one block of south
  //! slices (the thread's share, with room left for the north ones). `halves_at_once`: the most
  //! halves a side holds at once (JoinMemory); a larger side is enumerated a part at a time.
  //! `elsewhere`: not null, the matcher every row set's pairs go to instead of this counter's own
  //! (another engine's device); its pairs are then not in the JoinCounts returned, but in what
  //! it reports for each unit's slot: the unit's index in count_together()'s `units`, 0 for count().
  explicit JoinCounter(SliceCache& slices, MatchPath path = best_match_path(), std::uint64_t block_bytes = UINT64_MAX,
                       std::uint64_t halves_at_once = UINT64_MAX, PairMatcher* elsewhere = nullptr);
  // Its enumerators read its south key caches.
  JoinCounter(const JoinCounter&) = delete;
  JoinCounter& operator=(const JoinCounter&) = delete;
  JoinCount count(const JoinUnit& unit);
  //! counts[i] = count(units[i]), counted together: their row sets ordered by their south
  //! slices, and taken a block of those at a time, each unit's row sets of the block in turn. A
  //! cache that cannot hold the slices one unit reads then builds each south slice once for all
  //! the units, not once per unit; the north slices, few and shared, stay in it.
  void count_together(std::span<const JoinUnit> units, std::span<JoinCount> counts);
  //! Brings the unit's four slices into the cache (as far as its budget keeps them) and, where
  //! the thread keeps south keys (caches_south_keys), filters them: what a run shares between
  //! neighbouring units, so that a unit timed alone after it takes what it takes in a run.
  void prepare(const JoinUnit& unit);
  //! South row sets whose keys this counter has filtered for its caches (0 where it keeps none).
  std::uint64_t south_row_sets_filtered() const { return east_south_keys_.filtered() + west_south_keys_.filtered(); }
  //! Part `index` of the unit cut into row sets (row_sets(n, unit)), and with `shares` > 1 each
  //! row set into parts_per_row_set(shares) parts: its east side's shares (SideShare), each
  //! matched against the whole west side, then the shared part: the west side's enumeration and
  //! the east side's quadrant keys. Exact parts: their pairs and halves add up to count()'s (the
  //! shared part counts no pairs). prepare_part() is prepare() for that row set's slices only,
  //! and for an east share it makes the shared part too, untimed, unless this counter holds it
  //! already: the shared part is what times it, so that the parts' times add up to the row
  //! set's rather than take it once a share. A west side larger than one part (halves_at_once)
  //! is enumerated again by every share, as count() enumerates it again for every part of the
  //! east side. Not with a matcher elsewhere.
  JoinCount count_part(const JoinUnit& unit, std::size_t index, std::size_t shares = 1);
  void prepare_part(const JoinUnit& unit, std::size_t index, std::size_t shares = 1);

 private:
  // What a row set's count reads: its layout, fold and four slices, pinned.
  struct RowSetRead {
    UnitLayout layout;
    std::optional<DiagonalFold> fold;
    SliceView east_north, east_south, west_north, west_south;
    const DiagonalFold* folded() const { return fold ? &*fold : nullptr; }
  };
  RowSetRead read_row_set(const JoinUnit& row_set);
  JoinCount count_row_set(const JoinUnit& unit, SideShare east_share = {});
  //! The part a row set's east shares share: loads the east side's quadrant keys (kept by
  //! east_halves_) and enumerates the west side into west_keys_, where it comes in one part
  //! keeping it there for the shares (held_west_). Returns the west side's halves, no pairs.
  JoinCount count_shared_part(const JoinUnit& row_set);
  bool holds_west(const JoinUnit& row_set) const;
  void prepare_row_set(const JoinUnit& row_set);
  std::uint64_t pairs(std::span<const std::uint64_t> east, std::span<const std::uint64_t> west, int key_bits);
  //! The pairs of a row set's halves, folded by `fold` (the even and centre cases) or not.
  JoinCount count_sides(const RowSetRead& read, SideShare east_share, bool west_held);

  //! The slice of `rows` for one of the four quadrant positions, kept pinned from the last row
  //! set that used it: consecutive row sets share slices, and the cache's lock is shared too.
  const SliceCache::Pin& pinned(std::size_t position, std::uint32_t rows);

  // One row set of a unit counted together with others: what its south quadrants read.
  struct SouthRead {
    std::uint32_t east_south, west_south;
    std::uint32_t unit, rows;
    auto south() const { return std::pair{east_south, west_south}; }
  };
  std::size_t block_end(std::size_t begin) const;  // into together_, the sorted reads

  SliceCache& slices_;
  std::uint64_t block_bytes_;
  std::uint64_t halves_at_once_;
  std::vector<SouthRead> together_;
  std::array<SliceCache::Pin, 4> pins_;  // east north, east south, west north, west south
  std::array<std::uint32_t, 4> pinned_rows_{};
  // When the cache holds the whole table, every slice this thread has used, by row set: then it
  // takes the cache's lock once per slice, not once per row set.
  std::vector<SliceCache::Pin> kept_;
  bool backward_ = false;  // the direction of the next unit's row sets (count())
  PairMatcher* elsewhere_;
  std::size_t slot_ = 0;  // the unit being counted, for elsewhere_
  HalfEnumerator east_halves_, west_halves_;
  SouthKeyCache east_south_keys_, west_south_keys_;  // where caches_south_keys(n)
  KeyBuffer east_keys_, west_keys_;
  // The row set whose whole west side west_keys_ holds for its east shares, and its ties.
  std::optional<JoinUnit> held_west_;
  std::size_t held_west_ties_ = 0;
  DisjointCounter matcher_;
};

}  // namespace nqueens::join
