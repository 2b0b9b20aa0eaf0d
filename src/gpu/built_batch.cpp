#include "gpu/built_batch.hpp"

#include <algorithm>
#include <cmath>

#include "gpu/side_recipe.hpp"
#include "join/diagonal_fold.hpp"

namespace nqueens::gpu {

namespace {

double tiles_of(double keys) { return std::ceil(keys / kTileLanes); }

// A side's halves all fall in part 0 (bucket_of: its first `groups` counters) when every pairing
// is tied, as every pairing of an unfolded side is: its count pass needs no counters for part 1,
// and the bus carries none back.
std::uint32_t counted_parts(const SideRecipe& recipe) { return recipe.tied_pairings >= recipe.pairing_count ? 1 : 2; }

// A side's bucket starts on `split` (a prefix of the widest split its parts were counted on):
// part-major (part * groups + pattern) or pattern-major (pattern * 2 + part), then its end.
std::vector<std::uint32_t> bucket_starts(const std::array<CountedSide, 2>& parts, const SlotSplit& widest,
                                         const SlotSplit& split, bool part_major) {
  const std::uint32_t groups = split.groups();
  std::vector<std::uint32_t> starts(std::size_t{2} * groups + 1, 0);
  for (std::uint32_t part = 0; part < 2; ++part)
    for (std::uint32_t pattern = 0; pattern < widest.groups(); ++pattern) {
      const std::uint32_t bucket = bucket_of(pattern & (groups - 1), part, groups, part_major);
      starts[bucket + 1] += static_cast<std::uint32_t>(parts[part].patterns[pattern]);
    }
  for (std::size_t bucket = 1; bucket < starts.size(); ++bucket) starts[bucket] += starts[bucket - 1];
  return starts;
}

}  // namespace

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
  RowSet added;
  added.slot = slot;
  added.east = add_side(east, widest);
  added.west = add_side(west, widest);
  add_spec(east, row_set.east_north, row_set.east_south, layout.east, fold ? &fold->east : nullptr, layout.k);
  add_spec(west, row_set.west_north, row_set.west_south, layout.west, fold ? &fold->west : nullptr, layout.k);
  added.weights = fold ? join::kFoldWeights : join::kOnePart;
  added.key_bits = key_bits;
  added.widest = widest;
  row_sets_.push_back(added);
}

std::uint32_t BuiltBatch::add_side(const SideRecipe& recipe, const SlotSplit& widest) {
  SideSort side;
  side.recipe = recipe;
  side.rule.count = widest.count();
  for (int i = 0; i < widest.count(); ++i) side.rule.bits[i] = static_cast<std::uint8_t>(widest.bit(i));
  side.rule.part_major = true;
  side.next_first = static_cast<std::uint32_t>(counters_);
  counters_ += std::size_t{counted_parts(recipe)} * widest.groups();
  count_sides_.push_back(side);
  return static_cast<std::uint32_t>(count_sides_.size() - 1);
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

BuiltBatch::Counted BuiltBatch::counted(std::span<const std::uint32_t> counts, const SideSort& side,
                                        const SlotSplit& widest) const {
  Counted result;
  const std::uint32_t groups = widest.groups();
  for (std::uint32_t part = 0; part < counted_parts(side.recipe); ++part)
    for (std::uint32_t pattern = 0; pattern < groups; ++pattern) {
      const std::uint32_t count = counts[side.next_first + part * groups + pattern];
      result.parts[part].patterns[pattern] = count;
      result.parts[part].keys += count;
      result.side.patterns[pattern] += count;
      result.side.keys += count;
    }
  return result;
}

void BuiltBatch::plan(std::span<const std::uint32_t> counts, std::vector<std::uint64_t>& halves) {
  tiles_.clear();
  write_sides_.clear();
  write_next_.clear();
  for (const RowSet& row_set : row_sets_) {
    const Counted east = counted(counts, count_sides_[row_set.east], row_set.widest);
    const Counted west = counted(counts, count_sides_[row_set.west], row_set.widest);
    if (halves.size() <= row_set.slot) halves.resize(row_set.slot + 1, 0);
    halves[row_set.slot] += east.side.keys + west.side.keys;
    if (east.side.keys != 0 && west.side.keys != 0) plan_row_set(row_set, east, west);
  }
}

// The stored side and its split, as TileBatch::store_and_split chooses them from keys.
void BuiltBatch::plan_row_set(const RowSet& row_set, const Counted& east, const Counted& west) {
  bool east_stored = true;
  SlotSplit split;
  if (!rule_.store_by_price) {
    const auto e = static_cast<double>(east.side.keys), w = static_cast<double>(west.side.keys);
    east_stored = tiles_of(e) * w <= tiles_of(w) * e;
    split = east_stored ? price_counted_split(east.side, west.side, row_set.widest, rule_).split
                        : price_counted_split(west.side, east.side, row_set.widest, rule_).split;
  } else {
    const PricedSplit east_priced = price_counted_split(east.side, west.side, row_set.widest, rule_);
    const PricedSplit west_priced = price_counted_split(west.side, east.side, row_set.widest, rule_);
    east_stored = east_priced.passes <= west_priced.passes;
    split = east_stored ? east_priced.split : west_priced.split;
  }
  const Counted& stored = east_stored ? east : west;
  const Counted& queries = east_stored ? west : east;
  const std::vector<std::uint32_t> query_starts = bucket_starts(queries.parts, row_set.widest, split, true);
  const std::vector<std::uint32_t> stored_starts = bucket_starts(stored.parts, row_set.widest, split, false);
  const auto [query_first, stored_first] =
      tiles_.add_counted(row_set.slot, query_starts, stored_starts, east_stored, row_set.weights, row_set.key_bits);
  const std::uint32_t stored_side = east_stored ? row_set.east : row_set.west;
  const std::uint32_t query_side = east_stored ? row_set.west : row_set.east;
  add_write_side(count_sides_[query_side], split, true, query_first, query_starts);
  add_write_side(count_sides_[stored_side], split, false, stored_first, stored_starts);
}

void BuiltBatch::add_write_side(const SideSort& counted_side, const SlotSplit& split, bool part_major,
                                std::uint64_t keys_first, std::span<const std::uint32_t> starts) {
  SideSort side = counted_side;
  side.rule = BucketRule{};
  side.rule.count = split.count();
  for (int i = 0; i < split.count(); ++i) side.rule.bits[i] = static_cast<std::uint8_t>(split.bit(i));
  side.rule.part_major = part_major;
  side.next_first = static_cast<std::uint32_t>(write_next_.size());
  side.keys_first = keys_first;
  write_next_.insert(write_next_.end(), starts.begin(), starts.end() - 1);
  write_sides_.push_back(side);
}

void BuiltBatch::clear() {
  pairings_.clear();
  specs_.clear();
  count_sides_.clear();
  counters_ = 0;
  row_sets_.clear();
  estimated_keys_ = 0;
  write_sides_.clear();
  write_next_.clear();
  tiles_.clear();
}

}  // namespace nqueens::gpu
