#include "gpu/built_batch.hpp"

#include <algorithm>

#include "gpu/side_recipe.hpp"
#include "join/diagonal_fold.hpp"

namespace nqueens::gpu {

BuiltBatch::BuiltBatch(SplitRule rule) : rule_(rule) {
  plan_rule_.least_stored = rule.least_stored;
  plan_rule_.most_passes_kept = rule.most_passes_kept;
  plan_rule_.max_bits = rule.max_bits;
  plan_rule_.store_by_price = rule.store_by_price ? 1 : 0;
}

// Sides too small for any split (fewer candidates than a split needs keys) are not sampled, and
// their candidates stand for their halves in the batch's estimate; the others' samples estimate
// their halves.
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
  double east_keys = static_cast<double>(east_candidates), west_keys = static_cast<double>(west_candidates);
  const int key_bits = layout.key_bits();
  SlotSplit widest;
  const std::uint64_t least = std::max<std::uint64_t>(rule_.least_stored, kTileLanes + 1);
  if (rule_.max_bits > 0 && std::max(east_candidates, west_candidates) >= least &&
      std::min(east_candidates, west_candidates) > 0) {
    const auto sampled = [&](const SideRecipe& side, const join::QuarterSlice& north, const join::QuarterSlice& south,
                             double& keys) {
      sample_.clear();
      const std::uint64_t tested = sample_halves(side, pairings_.data(), north.entries().data(), south.entries().data(),
                                                 kSampleCandidates, sample_);
      keys *= static_cast<double>(sample_.size()) / static_cast<double>(std::max<std::uint64_t>(tested, 1));
      return count_bits(sample_, key_bits);
    };
    const BitCounts east_bits = sampled(east, row_set.east_north, row_set.east_south, east_keys);
    const BitCounts west_bits = sampled(west, row_set.west_north, row_set.west_south, west_keys);
    // Sides whose halves, as sampled, fall well short of a split are counted on none: a side on
    // the widest split costs 512 counters each way.
    if (2 * std::max(east_keys, west_keys) >= static_cast<double>(least))
      widest = most_shared_bits(east_bits, west_bits, key_bits, rule_.max_bits);
  }
  estimated_keys_ += east_keys + west_keys;
  add_side(east, widest);
  add_side(west, widest);
  add_spec(east, row_set.east_north, row_set.east_south, layout.east, fold ? &fold->east : nullptr, layout.k);
  add_spec(west, row_set.west_north, row_set.west_south, layout.west, fold ? &fold->west : nullptr, layout.k);
  add_row_set(slot, fold ? join::kFoldWeights : join::kOnePart, key_bits, widest);
}

// The row set's sides are the two count sides just added; its rooms follow the earlier row sets'.
void BuiltBatch::add_row_set(std::size_t slot, const join::PartWeights& weights, int key_bits,
                             const SlotSplit& widest) {
  PlanRowSet added;
  for (std::size_t e = 0; e < 2; ++e)
    for (std::size_t w = 0; w < 2; ++w) added.weights[e][w] = static_cast<std::uint32_t>(weights[e][w]);
  added.key_bits = static_cast<std::uint32_t>(key_bits);
  const std::size_t groups = widest.groups();
  added.starts_first = static_cast<std::uint32_t>(start_words_);
  added.next_first = static_cast<std::uint32_t>(write_counters_);
  start_words_ += 2 * (2 * groups + 1);
  write_counters_ += 4 * groups;
  row_sets_.push_back(added);
  slots_.push_back(slot);
}

void BuiltBatch::add_side(const SideRecipe& recipe, const SlotSplit& widest) {
  SideSort side;
  side.recipe = recipe;
  side.rule.count = widest.count();
  for (int i = 0; i < widest.count(); ++i) side.rule.bits[i] = static_cast<std::uint8_t>(widest.bit(i));
  side.rule.part_major = true;
  side.next_first = static_cast<std::uint32_t>(counters_);
  counters_ += std::size_t{counted_parts(recipe)} * widest.groups();
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
  estimated_keys_ = 0;
}

}  // namespace nqueens::gpu
