#include "join/join_kernel.hpp"

#include <algorithm>
#include <utility>

#include "join/join_layout.hpp"

namespace nqueens::join {

JoinCounter::JoinCounter(SliceCache& slices, MatchPath path, std::uint64_t block_bytes, std::uint64_t halves_at_once,
                         PairMatcher* elsewhere)
    : slices_(slices),
      block_bytes_(block_bytes),
      halves_at_once_(halves_at_once),
      elsewhere_(elsewhere),
      matcher_(path) {
  if (caches_south_keys(slices.n())) {
    east_halves_.keep_south_keys(&east_south_keys_);
    west_halves_.keep_south_keys(&west_south_keys_);
  }
}

void JoinCounter::prepare(const JoinUnit& unit) {
  for (const std::uint32_t rows : row_sets(slices_.n(), unit)) prepare_row_set(with_rows(unit, rows));
}

void JoinCounter::prepare_part(const JoinUnit& unit, std::size_t index, std::size_t shares) {
  const std::size_t per = parts_per_row_set(shares);
  const JoinUnit row_set = with_rows(unit, row_sets(slices_.n(), unit).at(index / per));
  prepare_row_set(row_set);
  if (index % per < shares && per > 1 && !holds_west(row_set)) count_shared_part(row_set);
}

// Where the thread keeps south keys per pair of fixed queens, they are filtered here too: a run
// filters each south row set once for the tens of units of its pair that follow each other
// (join_engine.cpp's order), so a unit timed on its own would otherwise pay for a filtering that
// the run shares (and `plan` priced n = 17 at 1.6 times its count).
void JoinCounter::prepare_row_set(const JoinUnit& row_set) {
  const UnitLayout layout = layout_of(slices_.n(), row_set);
  for (auto [side, cache] : {std::pair{&layout.east, &east_south_keys_}, std::pair{&layout.west, &west_south_keys_}}) {
    slices_.get(side->north_rows);
    const SliceCache::Pin south = slices_.get(side->south_rows);
    if (caches_south_keys(slices_.n()) && HalfEnumerator::has_halves(*side))
      cache->keys(SliceView{south->slice, south->keys ? &*south->keys : nullptr}, layout, side->south);
  }
}

JoinCount JoinCounter::count_part(const JoinUnit& unit, std::size_t index, std::size_t shares) {
  slot_ = 0;
  const std::size_t per = parts_per_row_set(shares);
  const JoinUnit row_set = with_rows(unit, row_sets(slices_.n(), unit).at(index / per));
  if (per == 1) return count_row_set(row_set);
  if (index % per == shares) {
    east_halves_.forget_quadrants();  // timed as the shares' preparation made it
    return count_shared_part(row_set);
  }
  return count_row_set(row_set, {index % per, shares});
}

bool JoinCounter::holds_west(const JoinUnit& row_set) const {
  return held_west_ && held_west_->kind == row_set.kind && held_west_->a == row_set.a && held_west_->b == row_set.b &&
         held_west_->rows == row_set.rows;
}

JoinCount JoinCounter::count_shared_part(const JoinUnit& row_set) {
  const RowSetRead read = read_row_set(row_set);
  const DiagonalFold* fold = read.folded();
  east_halves_.load(read.east_north, read.east_south, read.layout, read.layout.east, fold ? &fold->east : nullptr,
                    halves_at_once_, {}, true);
  west_halves_.load(read.west_north, read.west_south, read.layout, read.layout.west, fold ? &fold->west : nullptr,
                    halves_at_once_);
  held_west_ties_ = west_halves_.next_part(west_keys_);
  held_west_ = west_halves_.exhausted() ? std::optional{row_set} : std::nullopt;
  JoinCount halves;
  for (halves.halves = west_keys_.size(); !west_halves_.exhausted();) {
    west_halves_.next_part(west_keys_);
    halves.halves += west_keys_.size();
  }
  return halves;
}

std::uint64_t JoinCounter::pairs(std::span<const std::uint64_t> east, std::span<const std::uint64_t> west,
                                 int key_bits) {
  if (east.empty() || west.empty()) return 0;
  return count_disjoint_pairs(matcher_, east, west, key_bits);
}

// Each side's halves come a part at a time, one part unless the side has more than
// halves_at_once_ (from n = 26 the largest units have hundreds of millions), and every east part
// meets every west part: the pairs add up to the same count, and each half is counted once. With
// a fold, a part's halves come as [rank equal | rank above]: the two parts of a weighted count.
// `west_held`: west_keys_ holds the whole west side already (count_shared_part()), with its ties.
JoinCount JoinCounter::count_sides(const RowSetRead& read, SideShare east_share, bool west_held) {
  const UnitLayout& layout = read.layout;
  const DiagonalFold* fold = read.folded();
  if (elsewhere_ && elsewhere_->builds_halves()) {  // its halves and pairs both come from the matcher
    elsewhere_->match_slices(slot_, {read.east_north.slice, read.east_south.slice, read.west_north.slice,
                                     read.west_south.slice, layout, fold});
    return {};
  }
  east_halves_.load(read.east_north, read.east_south, layout, layout.east, fold ? &fold->east : nullptr,
                    halves_at_once_, east_share);
  if (!west_held) {
    held_west_.reset();  // west_keys_ is about to hold another row set's
    west_halves_.load(read.west_north, read.west_south, layout, layout.west, fold ? &fold->west : nullptr,
                      halves_at_once_);
  }
  JoinCount result;
  std::size_t east_ties = 0, west_ties = west_held ? held_west_ties_ : 0;
  const auto match = [&] {
    const auto east = east_keys_.keys(), west = west_keys_.keys();
    if (elsewhere_) {
      elsewhere_->match(slot_, {east.first(east_ties), east.subspan(east_ties)},
                        {west.first(west_ties), west.subspan(west_ties)}, fold ? kFoldWeights : kOnePart,
                        layout.key_bits());
      return;
    }
    result.pairs += fold ? count_weighted_disjoint_pairs(matcher_, {east.first(east_ties), east.subspan(east_ties)},
                                                         {west.first(west_ties), west.subspan(west_ties)}, kFoldWeights,
                                                         layout.key_bits())
                         : pairs(east, west, layout.key_bits());
  };
  for (bool first = true; first || !east_halves_.exhausted(); first = false) {
    east_ties = east_halves_.next_part(east_keys_);
    result.halves += east_keys_.size();
    if (west_held) {
      match();
      continue;
    }
    west_halves_.rewind();
    std::size_t west_parts = 0;
    do {
      west_ties = west_halves_.next_part(west_keys_);
      ++west_parts;
      if (first) result.halves += west_keys_.size();
      match();
    } while (!west_halves_.exhausted());
    west_held = west_parts == 1;
  }
  return result;
}

// An off-centre unit reads the south slices of every row set of its north rows, and the next
// unit most often the same ones. Read in the same order each time, a cache too small for them
// all would have dropped each slice just before it is wanted again; read forward and backward
// in turn, the next unit starts with what the last one read last. The sum is the same either way.
JoinCount JoinCounter::count(const JoinUnit& unit) {
  std::vector<std::uint32_t> sets = row_sets(slices_.n(), unit);
  if (backward_) std::reverse(sets.begin(), sets.end());
  backward_ = !backward_;
  slot_ = 0;
  JoinCount total;
  for (const std::uint32_t rows : sets) {
    const JoinCount counted = count_row_set(with_rows(unit, rows));
    total.pairs += counted.pairs;
    total.halves += counted.halves;
  }
  return total;
}

void JoinCounter::count_together(std::span<const JoinUnit> units, std::span<JoinCount> counts) {
  static_assert(sizeof(SouthRead) == kBytesPerRowSetTogether);
  together_.clear();
  for (std::uint32_t i = 0; i < units.size(); ++i) {
    counts[i] = {};
    for (const std::uint32_t rows : row_sets(slices_.n(), units[i])) {
      const UnitLayout layout = layout_of(slices_.n(), with_rows(units[i], rows));
      together_.push_back({layout.east.south_rows, layout.west.south_rows, i, rows});
    }
  }
  const auto by_south = [](const SouthRead& a, const SouthRead& b) { return a.south() < b.south(); };
  const auto by_unit = [](const SouthRead& a, const SouthRead& b) { return a.unit < b.unit; };
  std::stable_sort(together_.begin(), together_.end(), by_south);
  for (std::size_t begin = 0; begin < together_.size();) {
    const std::size_t end = block_end(begin);
    // Each unit's reads of the block together: its north quadrants are loaded once per block.
    std::stable_sort(together_.begin() + static_cast<std::ptrdiff_t>(begin),
                     together_.begin() + static_cast<std::ptrdiff_t>(end), by_unit);
    for (std::size_t i = begin; i < end; ++i) {
      const SouthRead& read = together_[i];
      slot_ = read.unit;
      const JoinCount counted = count_row_set(with_rows(units[read.unit], read.rows));
      counts[read.unit].pairs += counted.pairs;
      counts[read.unit].halves += counted.halves;
    }
    begin = end;
  }
}

// The reads from `begin` on whose distinct south slices fit block_bytes_ (at least one pair).
std::size_t JoinCounter::block_end(std::size_t begin) const {
  std::uint64_t bytes = 0;
  std::size_t end = begin;
  while (end < together_.size()) {
    const auto south = together_[end].south();
    const std::uint64_t pair = slices_.slice_bytes(south.first) + slices_.slice_bytes(south.second);
    if (end > begin && bytes + pair > block_bytes_) break;
    bytes += pair;
    while (end < together_.size() && together_[end].south() == south) ++end;
  }
  return end;
}

// A pin is dropped before its replacement is got, so a thread never holds more than four
// unless the cache holds every slice anyway.
const SliceCache::Pin& JoinCounter::pinned(std::size_t position, std::uint32_t rows) {
  if (slices_.holds_whole_table()) {
    if (kept_.empty()) kept_.resize(std::size_t{1} << (slices_.n() / 2));
    SliceCache::Pin& kept = kept_[rows];
    if (!kept) kept = slices_.get(rows);
    return kept;
  }
  SliceCache::Pin& pin = pins_[position];
  if (!pin || pinned_rows_[position] != rows) {
    pin.reset();
    pin = slices_.get(rows);
    pinned_rows_[position] = rows;
  }
  return pin;
}

JoinCounter::RowSetRead JoinCounter::read_row_set(const JoinUnit& row_set) {
  const UnitLayout layout = layout_of(slices_.n(), row_set);
  // All four pinned before either side is enumerated, and held until the next row set needs others.
  const SliceCache::Pin& east_north = pinned(0, layout.east.north_rows);
  const SliceCache::Pin& east_south = pinned(1, layout.east.south_rows);
  const SliceCache::Pin& west_north = pinned(2, layout.west.north_rows);
  const SliceCache::Pin& west_south = pinned(3, layout.west.south_rows);
  const auto view = [](const SliceCache::Pin& pin) { return SliceView{pin->slice, pin->keys ? &*pin->keys : nullptr}; };
  // The off-centre units fix two queens that the diagonal reflection moves: they are not folded.
  return {layout,           row_set.kind == JoinCase::off_centre ? std::nullopt : std::optional{diagonal_fold(layout)},
          view(east_north), view(east_south),
          view(west_north), view(west_south)};
}

JoinCount JoinCounter::count_row_set(const JoinUnit& unit, SideShare east_share) {
  return count_sides(read_row_set(unit), east_share, east_share.of > 1 && holds_west(unit));
}

}  // namespace nqueens::join
