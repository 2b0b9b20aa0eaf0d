#include "join/join_kernel.hpp"

#include "join/join_layout.hpp"

namespace nqueens::join {

JoinCounter::JoinCounter(SliceCache& slices, MatchPath path) : slices_(slices), matcher_(path) {}

void JoinCounter::prepare(const JoinUnit& unit) {
  const UnitLayout layout = layout_of(slices_.n(), unit);
  for (const SideLayout& side : {layout.east, layout.west}) {
    slices_.get(side.north_rows);
    slices_.get(side.south_rows);
  }
}

JoinCount JoinCounter::count(const JoinUnit& unit) {
  const UnitLayout layout = layout_of(slices_.n(), unit);
  // All four pinned before either side is enumerated: the unit holds them until it ends.
  const SliceCache::Pin east_north = slices_.get(layout.east.north_rows);
  const SliceCache::Pin east_south = slices_.get(layout.east.south_rows);
  const SliceCache::Pin west_north = slices_.get(layout.west.north_rows);
  const SliceCache::Pin west_south = slices_.get(layout.west.south_rows);
  const auto view = [](const SliceCache::Pin& pin) { return SliceView{pin->slice, pin->keys ? &*pin->keys : nullptr}; };
  enumerator_.enumerate(view(east_north), view(east_south), layout, layout.east, east_keys_);
  enumerator_.enumerate(view(west_north), view(west_south), layout, layout.west, west_keys_);
  JoinCount result;
  result.halves = east_keys_.size() + west_keys_.size();
  if (east_keys_.size() != 0 && west_keys_.size() != 0) {
    result.pairs = count_disjoint_pairs(matcher_, east_keys_.keys(), west_keys_.keys(), layout.key_bits());
  }
  return result;
}

}  // namespace nqueens::join
