#include "gpu/side_recipe.hpp"

#include <algorithm>
#include <bit>

namespace nqueens::gpu {

QuadrantMap quadrant_map(const join::UnitLayout& layout, const join::Quadrant& quadrant) {
  QuadrantMap map;
  map.sum_shift = quadrant.row0 + quadrant.col0;
  map.difference_shift = quadrant.row0 - quadrant.col0 + layout.n - layout.k;
  map.forbidden_sums = static_cast<std::uint32_t>(layout.forbidden_sums >> map.sum_shift);
  map.forbidden_differences = static_cast<std::uint32_t>(layout.forbidden_differences >> map.difference_shift);
  map.crossing_low = layout.crossing_low;
  map.crossing_bits = layout.crossing_bits;
  return map;
}

namespace {

// The side's north column sets as the join takes them: within its columns, and with a fold
// those ranking equal to the unit's rank first, then those above it.
std::vector<std::uint32_t> north_sets(const join::QuarterSlice& north, const join::SideLayout& side,
                                      const join::SideFold* fold, std::uint32_t& tied) {
  std::vector<std::uint32_t> sets;
  for (const std::uint32_t set : north.column_sets())
    if ((set & ~side.columns) == 0 && (!fold || fold->value(set) == fold->rank)) sets.push_back(set);
  tied = static_cast<std::uint32_t>(sets.size());
  if (fold)
    for (const std::uint32_t set : north.column_sets())
      if ((set & ~side.columns) == 0 && fold->value(set) > fold->rank) sets.push_back(set);
  return sets;
}

std::uint32_t offset_of(const join::QuarterSlice& slice, std::uint32_t set) {
  return static_cast<std::uint32_t>(slice.group(set).data() - slice.entries().data());
}

}  // namespace

SideRecipe side_recipe(const join::QuarterSlice& north, const join::QuarterSlice& south, const join::UnitLayout& layout,
                       const join::SideLayout& side, const join::SideFold* fold, std::vector<SetPairing>& pairings) {
  SideRecipe recipe;
  recipe.north = quadrant_map(layout, side.north);
  recipe.south = quadrant_map(layout, side.south);
  recipe.pairing_first = static_cast<std::uint32_t>(pairings.size());
  if (std::popcount(side.north_rows) + std::popcount(side.south_rows) != std::popcount(side.columns)) return recipe;
  std::uint32_t tied = 0;
  for (const std::uint32_t set : north_sets(north, side, fold, tied)) {
    const std::uint32_t south_set = side.columns & ~set;
    pairings.push_back({offset_of(north, set), static_cast<std::uint32_t>(north.group(set).size()),
                        offset_of(south, south_set), static_cast<std::uint32_t>(south.group(south_set).size())});
  }
  recipe.pairing_count = static_cast<std::uint32_t>(pairings.size()) - recipe.pairing_first;
  recipe.tied_pairings = fold ? tied : recipe.pairing_count;
  return recipe;
}

std::uint32_t largest_group(const join::QuarterSlice& slice) {
  std::size_t most = 0;
  for (const std::uint32_t set : slice.column_sets()) most = std::max(most, slice.group(set).size());
  return static_cast<std::uint32_t>(most);
}

// The side's halves in two buckets, its tied part and the rest: counted, then written from
// each bucket's start.
std::size_t build_side_keys(const join::QuarterSlice& north, const join::QuarterSlice& south,
                            const join::UnitLayout& layout, const join::SideLayout& side, const join::SideFold* fold,
                            std::vector<join::QuarterEntry>& entries, std::vector<SetPairing>& pairings,
                            std::vector<std::uint64_t>& keys) {
  pairings.clear();
  SideRecipe recipe = side_recipe(north, south, layout, side, fold, pairings);
  entries.assign(north.entries().begin(), north.entries().end());
  recipe.south_entries = entries.size();
  entries.insert(entries.end(), south.entries().begin(), south.entries().end());
  const BucketRule by_part;  // no split bits: bucket 0 the tied halves, bucket 1 the rest
  std::uint32_t next[2] = {0, 0};
  const std::uint64_t halves = sort_side(recipe, pairings.data(), entries.data(), by_part, next, nullptr);
  keys.resize(halves);
  const std::uint32_t tied = next[0];
  next[1] = tied;
  next[0] = 0;
  sort_side(recipe, pairings.data(), entries.data(), by_part, next, keys.data());
  return tied;
}

}  // namespace nqueens::gpu
