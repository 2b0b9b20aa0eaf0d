#include "gpu/built_batch.hpp"

#include <algorithm>

#include "gpu/side_recipe.hpp"
#include "gpu/split_sample.hpp"
#include "join/diagonal_fold.hpp"

namespace nqueens::gpu {

BuiltBatch::BuiltBatch(SplitRule rule) : rule_(rule) {
  plan_rule_.least_stored = rule.least_stored;
  plan_rule_.most_passes_kept = rule.most_passes_kept;
  plan_rule_.max_bits = rule.max_bits;
  plan_rule_.store_by_price = rule.store_by_price ? 1 : 0;
}

// A row set whose sides may both hold halves and one of them enough candidates for a split
// gets the room of the widest split it may take; the device samples its sides and chooses the
// split's bits (split_sample.hpp), or none, before its count pass.
void BuiltBatch::add(std::size_t slot, const join::RowSetSlices& row_set, std::uint64_t east_north,
                     std::uint64_t east_south, std::uint64_t west_north, std::uint64_t west_south) {
  const join::UnitLayout& layout = row_set.layout;
  const join::DiagonalFold* fold = row_set.fold;
  SideRecipe east =
      side_recipe(row_set.east_north, row_set.east_south, layout, layout.east, fold ? &fold->east : nullptr, pairings_);
  SideRecipe west =
      side_recipe(row_set.west_north, row_set.west_south, layout, layout.west, fold ? &fold->west : nullptr, pairings_);
  east.north_entries = east_north;
  east.south_entries = east_south;
  west.north_entries = west_north;
  west.south_entries = west_south;
  const std::uint64_t east_candidates = candidates_of(east, pairings_.data());
  const std::uint64_t west_candidates = candidates_of(west, pairings_.data());
  candidates_ += east_candidates + west_candidates;
  const int key_bits = layout.key_bits();
  const std::uint64_t least = std::max<std::uint64_t>(rule_.least_stored, kTileLanes + 1);
  int room_bits = 0;
  if (std::max(east_candidates, west_candidates) >= least && std::min(east_candidates, west_candidates) > 0)
    room_bits = std::clamp(std::min(rule_.max_bits, key_bits), 0, kMaxSplitBits);
  add_side(east, room_bits);
  add_side(west, room_bits);
  add_spec(east, row_set.east_north, row_set.east_south, layout.east, fold ? &fold->east : nullptr, layout.k);
  add_spec(west, row_set.west_north, row_set.west_south, layout.west, fold ? &fold->west : nullptr, layout.k);
  add_row_set(slot, fold ? join::kFoldWeights : join::kOnePart, key_bits, room_bits);
}

// The row set's sides are the two count sides just added; its rooms follow the earlier row sets'.
void BuiltBatch::add_row_set(std::size_t slot, const join::PartWeights& weights, int key_bits, int room_bits) {
  PlanRowSet added;
  for (std::size_t e = 0; e < 2; ++e)
    for (std::size_t w = 0; w < 2; ++w) added.weights[e][w] = static_cast<std::uint32_t>(weights[e][w]);
  added.key_bits = static_cast<std::uint32_t>(key_bits);
  const std::size_t groups = std::size_t{1} << room_bits;
  added.starts_first = static_cast<std::uint32_t>(start_words_);
  added.next_first = static_cast<std::uint32_t>(write_counters_);
  start_words_ += 2 * (2 * groups + 1);
  write_counters_ += 4 * groups;
  row_sets_.push_back(added);
  slots_.push_back(slot);
}

void BuiltBatch::add_side(const SideRecipe& recipe, int room_bits) {
  SideSort side;
  side.recipe = recipe;
  side.rule.count = room_bits;  // the room: the device writes the split's bits over it
  side.rule.part_major = true;
  side.next_first = static_cast<std::uint32_t>(counters_);
  counters_ += std::size_t{counted_parts(recipe)} << room_bits;
  count_sides_.push_back(side);
}

void BuiltBatch::add_spec(const SideRecipe& recipe, const join::QuarterSlice& north, const join::QuarterSlice& south,
                          const join::SideLayout& side, const join::SideFold* fold, int k) {
  PairingSpec spec;
  spec.north_rows = north.rows();
  spec.south_rows = south.rows();
  spec.columns = side.columns;
  spec.pairing_first = recipe.pairing_first;
  spec.k = k;
  if (fold) {
    spec.rank = fold->rank;
    spec.fold = fold->reversed ? 2 : 1;
  }
  specs_.push_back(spec);
}

void BuiltBatch::clear() {
  pairings_.clear();
  specs_.clear();
  count_sides_.clear();
  counters_ = 0;
  row_sets_.clear();
  slots_.clear();
  start_words_ = write_counters_ = 0;
  candidates_ = 0;
}

}  // namespace nqueens::gpu
