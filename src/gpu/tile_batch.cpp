#include "gpu/tile_batch.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "gpu/job_tiles.hpp"
#include "gpu/tiles_on_host.hpp"

namespace nqueens::gpu {

namespace {

std::size_t size_of(join::KeyParts parts) { return parts[0].size() + parts[1].size(); }

std::uint64_t tiles_of(std::size_t keys) { return (keys + kTileLanes - 1) / kTileLanes; }

}  // namespace

// Copies a side's keys into keys_ from used_, sorted into buckets by a counting sort: bucket
// part * groups + pattern (part_major) or pattern * 2 + part. Appends to `starts` where every
// bucket begins, relative to the side's first key, and then where the side ends. Each key's
// pattern is worked out once.
void TileBatch::append_in_buckets(join::KeyParts parts, const SlotSplit& split, bool part_major,
                                  std::vector<std::uint32_t>& starts) {
  const std::uint32_t groups = split.groups();
  std::array<std::uint32_t, 2 * kMaxGroups + 1> next{};
  if (split.count() == 0) {  // one bucket per part: a copy
    next[1] = static_cast<std::uint32_t>(parts[0].size());
    next[2] = next[1] + static_cast<std::uint32_t>(parts[1].size());
    std::copy(parts[0].begin(), parts[0].end(), keys_.begin() + static_cast<std::ptrdiff_t>(used_));
    std::copy(parts[1].begin(), parts[1].end(), keys_.begin() + static_cast<std::ptrdiff_t>(used_ + next[1]));
    starts.insert(starts.end(), next.begin(), next.begin() + 3);
    return;
  }
  buckets_.resize(size_of(parts));
  std::size_t key = 0;
  for (std::uint32_t part = 0; part < 2; ++part)
    for (const std::uint64_t value : parts[part]) {
      const std::uint32_t pattern = split.pattern_of(value);
      const std::uint32_t bucket = part_major ? part * groups + pattern : pattern * 2 + part;
      buckets_[key++] = static_cast<std::uint16_t>(bucket);
      ++next[bucket + 1];
    }
  for (std::uint32_t bucket = 1; bucket <= 2 * groups; ++bucket) next[bucket] += next[bucket - 1];
  starts.insert(starts.end(), next.begin(), next.begin() + 2 * std::ptrdiff_t{groups} + 1);
  key = 0;
  for (std::uint32_t part = 0; part < 2; ++part)
    for (const std::uint64_t value : parts[part]) keys_[used_ + next[buckets_[key++]]++] = value;
}

// The side to store, and its split: the one that leaves the device fewer passes, each table
// counted at what building it costs (a tile per cut of kQueriesPerTile queries unsplit, one per
// slot split). Weighing passes alone stores the larger side wherever its tiles are few, and
// builds its tables again for every cut of the many queries; a side large enough to split may
// still be worth storing whole, its split sparing more than its tables cost.
std::pair<bool, SlotSplit> TileBatch::store_and_split(join::KeyParts east, join::KeyParts west, int key_bits) const {
  const std::size_t east_keys = size_of(east), west_keys = size_of(west);
  if (!rule_.store_by_price) {  // passes alone, for measuring against the same build
    const bool east_stored = tiles_of(east_keys) * west_keys <= tiles_of(west_keys) * east_keys;
    return {east_stored, choose_split(east_stored ? east : west, east_stored ? west : east, key_bits, rule_)};
  }
  PricedSplit east_stored = price_split(east, west, key_bits, rule_);
  PricedSplit west_stored = price_split(west, east, key_bits, rule_);
  if (east_stored.passes <= west_stored.passes) return {true, east_stored.split};
  return {false, west_stored.split};
}

std::size_t TileBatch::keys_of(join::KeyParts east, join::KeyParts west) { return size_of(east) + size_of(west); }

// The query side goes in once, by part and then group; the stored side slot by slot, each
// slot's two parts together, and each slot is a job against the groups it is compatible with.
bool TileBatch::add(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights,
                    int key_bits) {
  const std::size_t east_keys = size_of(east), west_keys = size_of(west);
  if (east_keys == 0 || west_keys == 0) return true;
  if (used_ + east_keys + west_keys > keys_.size()) return false;
  const auto [east_stored, split] = store_and_split(east, west, key_bits);
  const join::KeyParts& stored = east_stored ? east : west;
  const join::KeyParts& queries = east_stored ? west : east;

  const auto starts_first = static_cast<std::uint32_t>(starts_.size());
  const std::uint64_t query_first = used_;
  append_in_buckets(queries, split, true, starts_);
  used_ += size_of(queries);
  slot_starts_.clear();
  append_in_buckets(stored, split, false, slot_starts_);
  add_jobs(slot, east_stored, weights, split.groups(), query_first, starts_first, used_, slot_starts_);
  used_ += size_of(stored);
  key_bits_ = std::max(key_bits_, key_bits);
  return true;
}

std::pair<std::uint64_t, std::uint64_t> TileBatch::add_counted(std::size_t slot,
                                                               std::span<const std::uint32_t> query_starts,
                                                               std::span<const std::uint32_t> stored_starts,
                                                               bool east_stored, const join::PartWeights& weights,
                                                               int key_bits) {
  const auto starts_first = static_cast<std::uint32_t>(starts_.size());
  const std::uint64_t query_first = used_;
  starts_.insert(starts_.end(), query_starts.begin(), query_starts.end());
  used_ += query_starts.back();
  const std::uint64_t stored_first = used_;
  const auto groups = static_cast<std::uint32_t>((query_starts.size() - 1) / 2);
  add_jobs(slot, east_stored, weights, groups, query_first, starts_first, stored_first, stored_starts);
  used_ += stored_starts.back();
  key_bits_ = std::max(key_bits_, key_bits);
  return {query_first, stored_first};
}

// A job per slot of the stored side (its two parts together) that some query can meet.
void TileBatch::add_jobs(std::size_t slot, bool east_stored, const join::PartWeights& weights, std::uint32_t groups,
                         std::uint64_t query_first, std::uint32_t starts_first, std::uint64_t stored_first,
                         std::span<const std::uint32_t> slot_starts) {
  TileJob job;
  for (int s = 0; s < 2; ++s)
    for (int q = 0; q < 2; ++q)
      job.weights[s][q] = static_cast<std::uint32_t>(east_stored ? weights[s][q] : weights[q][s]);
  job.groups = groups;
  job.starts_first = starts_first;
  job.query_first = query_first;
  for (std::uint32_t pattern = 0; pattern < groups; ++pattern) {
    const std::size_t slot_start = std::size_t{2} * pattern;  // the slot's part 0, then its part 1
    job.stored_pattern = pattern;
    job.stored_first = stored_first + slot_starts[slot_start];
    job.stored_count = slot_starts[slot_start + 2] - slot_starts[slot_start];
    job.stored_tied = slot_starts[slot_start + 1] - slot_starts[slot_start];
    // add_tiles reads the query ranges from starts_, which may have grown since they were added.
    if (job.stored_count != 0) add_tiles(job, starts_.data() + starts_first, slot);
  }
}

// Cuts a job's compatible queries into tiles (job_tiles.hpp, as a device cuts them from the
// job); a job no query can meet adds nothing.
void TileBatch::add_tiles(const TileJob& job, const std::uint32_t* query_starts, std::size_t slot) {
  const auto job_index = static_cast<std::uint32_t>(jobs_.size());
  const std::uint32_t count = job_tiles(job, job_index, query_starts, nullptr);
  if (count == 0) return;
  const std::size_t first = tiles_.size();
  tiles_.resize(first + count);
  job_tiles(job, job_index, query_starts, tiles_.data() + first);
  tile_firsts_.push_back(static_cast<std::uint32_t>(first));
  jobs_.push_back(job);
  slots_.push_back(slot);
}

void TileBatch::clear() {
  used_ = 0;
  starts_.clear();
  jobs_.clear();
  tiles_.clear();
  tile_firsts_.clear();
  slots_.clear();
  key_bits_ = 1;
}

std::vector<std::uint64_t> count_on_host(const TileBatch& batch, Chunking chunking, std::uint32_t threads) {
  std::vector<std::uint64_t> pairs(batch.jobs().size(), 0);
  match_tiles_on_host(batch.keys().data(), batch.jobs().data(), batch.tiles().data(), batch.starts().data(),
                      static_cast<std::uint32_t>(batch.tiles().size()), chunking, pairs.data(), threads);
  return pairs;
}

}  // namespace nqueens::gpu
