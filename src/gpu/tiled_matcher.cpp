#include "gpu/tiled_matcher.hpp"

#include <algorithm>

#include "gpu/side_recipe.hpp"
#include "join/diagonal_fold.hpp"

namespace nqueens::gpu {

TileBatch& TiledMatcher::current() {
  std::optional<TileBatch>& batch = batches_[static_cast<std::size_t>(current_)];
  if (!batch) batch.emplace(key_storage(current_, batch_keys_), rule_);
  return *batch;
}

void TiledMatcher::match(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights,
                         int key_bits) {
  if (current().add(slot, east, west, weights, key_bits)) return;
  if (!current().empty()) send_current();
  if (current().add(slot, east, west, weights, key_bits)) return;
  // One job larger than a batch: this buffer grows to hold it.
  current().use(key_storage(current_, std::max(batch_keys_, TileBatch::keys_of(east, west))));
  current().add(slot, east, west, weights, key_bits);
}

// The other buffer's batch is collected first: its buffer is the one filled next.
void TiledMatcher::send_current() {
  const int other = 1 - current_;
  if (counting_[static_cast<std::size_t>(other)]) collect(other);
  start(current_, current());
  counting_[static_cast<std::size_t>(current_)] = true;
  current_ = other;
}

void TiledMatcher::collect(int buffer) {
  TileBatch& batch = *batches_[static_cast<std::size_t>(buffer)];
  const std::span<const std::uint64_t> counts = wait(buffer);
  for (std::size_t job = 0; job < batch.slots().size(); ++job) {
    const std::size_t slot = batch.slots()[job];
    if (pairs_.size() <= slot) pairs_.resize(slot + 1, 0);
    pairs_[slot] += counts[job];
  }
  batch.clear();
  counting_[static_cast<std::size_t>(buffer)] = false;
}

void TiledMatcher::match_slices(std::size_t slot, const join::RowSetSlices& row_set) {
  const join::UnitLayout& layout = row_set.layout;
  const join::DiagonalFold* fold = row_set.fold;
  const std::size_t east_ties = build_side_keys(row_set.east_north, row_set.east_south, layout, layout.east,
                                                fold ? &fold->east : nullptr, entries_, pairings_, side_keys_[0]);
  const std::size_t west_ties = build_side_keys(row_set.west_north, row_set.west_south, layout, layout.west,
                                                fold ? &fold->west : nullptr, entries_, pairings_, side_keys_[1]);
  if (halves_.size() <= slot) halves_.resize(slot + 1, 0);
  halves_[slot] += side_keys_[0].size() + side_keys_[1].size();
  const std::span<const std::uint64_t> east = side_keys_[0], west = side_keys_[1];
  match(slot, {east.first(east_ties), east.subspan(east_ties)}, {west.first(west_ties), west.subspan(west_ties)},
        fold ? join::kFoldWeights : join::kOnePart, layout.key_bits());
}

void TiledMatcher::finish(std::span<std::uint64_t> pairs, std::span<std::uint64_t> halves) {
  if (!current().empty()) send_current();
  for (int buffer = 0; buffer < 2; ++buffer)
    if (counting_[static_cast<std::size_t>(buffer)]) collect(buffer);
  std::fill(pairs.begin(), pairs.end(), 0);
  std::fill(halves.begin(), halves.end(), 0);
  for (std::size_t slot = 0; slot < std::min(pairs.size(), pairs_.size()); ++slot) pairs[slot] = pairs_[slot];
  for (std::size_t slot = 0; slot < std::min(halves.size(), halves_.size()); ++slot) halves[slot] = halves_[slot];
  pairs_.clear();
  halves_.clear();
}

std::span<std::uint64_t> HostTiledMatcher::key_storage(int buffer, std::size_t keys) {
  std::vector<std::uint64_t>& storage = keys_[static_cast<std::size_t>(buffer)];
  storage.resize(keys);
  return storage;
}

void HostTiledMatcher::start(int buffer, const TileBatch& batch) {
  counts_[static_cast<std::size_t>(buffer)] = count_on_host(batch, chunking_for(batch.key_bits()));
}

std::span<const std::uint64_t> HostTiledMatcher::wait(int buffer) { return counts_[static_cast<std::size_t>(buffer)]; }

}  // namespace nqueens::gpu
