#include "gpu/tile_batch.hpp"

#include <algorithm>

namespace nqueens::gpu {

namespace {

std::size_t size_of(join::KeyParts parts) { return parts[0].size() + parts[1].size(); }

std::uint64_t tiles_of(std::size_t keys) { return (keys + kTileLanes - 1) / kTileLanes; }

// Copies a side's two parts one after the other; returns where they start.
std::uint64_t append(join::KeyParts parts, std::span<std::uint64_t> keys, std::size_t& used) {
  const std::uint64_t first = used;
  for (const auto part : parts) {
    std::copy(part.begin(), part.end(), keys.begin() + static_cast<std::ptrdiff_t>(used));
    used += part.size();
  }
  return first;
}

}  // namespace

std::size_t TileBatch::keys_of(join::KeyParts east, join::KeyParts west) { return size_of(east) + size_of(west); }

bool TileBatch::add(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights,
                    int key_bits) {
  const std::size_t east_keys = size_of(east), west_keys = size_of(west);
  if (east_keys == 0 || west_keys == 0) return true;
  if (used_ + east_keys + west_keys > keys_.size()) return false;
  // A tile costs its table and a pass per query: store the side that makes fewer passes.
  const bool east_stored = tiles_of(east_keys) * west_keys <= tiles_of(west_keys) * east_keys;
  const join::KeyParts& stored = east_stored ? east : west;
  const join::KeyParts& queries = east_stored ? west : east;
  TileJob job;
  job.stored_count = static_cast<std::uint32_t>(size_of(stored));
  job.stored_tied = static_cast<std::uint32_t>(stored[0].size());
  job.query_count = static_cast<std::uint32_t>(size_of(queries));
  job.query_tied = static_cast<std::uint32_t>(queries[0].size());
  for (int s = 0; s < 2; ++s)
    for (int q = 0; q < 2; ++q)
      job.weights[s][q] = static_cast<std::uint32_t>(east_stored ? weights[s][q] : weights[q][s]);
  job.stored_first = append(stored, keys_, used_);
  job.query_first = append(queries, keys_, used_);

  const auto job_index = static_cast<std::uint32_t>(jobs_.size());
  for (std::uint32_t stored_offset = 0; stored_offset < job.stored_count; stored_offset += kTileLanes)
    for (std::uint32_t query_offset = 0; query_offset < job.query_count; query_offset += kQueriesPerTile)
      tiles_.push_back(
          {job_index, stored_offset, query_offset, std::min(kQueriesPerTile, job.query_count - query_offset)});
  jobs_.push_back(job);
  slots_.push_back(slot);
  key_bits_ = std::max(key_bits_, key_bits);
  return true;
}

void TileBatch::clear() {
  used_ = 0;
  jobs_.clear();
  tiles_.clear();
  slots_.clear();
  key_bits_ = 1;
}

std::vector<std::uint64_t> count_on_host(const TileBatch& batch, Chunking chunking, std::uint32_t threads) {
  std::vector<std::uint32_t> shared(chunking.shared_words());
  std::vector<std::uint64_t> pairs(batch.jobs().size(), 0);
  for (const MatchTile& tile : batch.tiles()) {
    const TileJob& job = batch.jobs()[tile.job];
    for (std::uint32_t thread = 0; thread < threads; ++thread)
      build_planes(job, tile, batch.keys().data(), chunking, shared.data(), thread, threads);
    for (std::uint32_t thread = 0; thread < threads; ++thread)
      build_entries(job, tile, chunking, shared.data(), thread, threads);
    // Each lane's sums over the queries of each part, as the lanes of a block's warps add them.
    const std::uint32_t split = part_split(job, tile), end = tile.query_offset + tile.query_count;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      LaneSums sums[2];
      for (std::uint32_t query = tile.query_offset; query < end; ++query)
        match_query(shared.data(), shared[lane], batch.keys()[job.query_first + query], chunking, lane,
                    sums[query < split ? 0 : 1]);
      pairs[tile.job] += weighted_pairs(job, sums[0], sums[1]);
    }
  }
  return pairs;
}

}  // namespace nqueens::gpu
