#pragma once
// The matching kernel's host form: every tile of a batch, as a block of `threads` runs
// tile_match.hpp's steps, one tile after another, adding each job's weighted pairs to pairs[job].
// It takes the arrays a launch takes, so that count_on_host (the tests' batches) and the tests'
// stand-in CUDA driver (tests/support/stand_in_cuda) run the same code the device does.
#include <cstdint>
#include <vector>

#include "gpu/tile_match.hpp"

namespace nqueens::gpu {

inline void match_tiles_on_host(const std::uint64_t* keys, const TileJob* jobs, const MatchTile* tiles,
                                const std::uint32_t* starts, std::uint32_t tile_count, Chunking chunking,
                                std::uint64_t* pairs, std::uint32_t threads = 256) {
  std::vector<std::uint32_t> shared(chunking.shared_words());
  for (std::uint32_t t = 0; t < tile_count; ++t) {
    const MatchTile& tile = tiles[t];
    const TileJob& job = jobs[tile.job];
    for (std::uint32_t thread = 0; thread < threads; ++thread)
      build_planes(job, tile, keys, chunking, shared.data(), thread, threads);
    for (std::uint32_t thread = 0; thread < threads; ++thread)
      build_entries(job, tile, chunking, shared.data(), thread, threads);
    // Each lane's sums over the queries of each part, as the lanes of a block's warps add them.
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      LaneSums sums[2];
      for_each_query_range(job, tile, starts + job.starts_first, [&](std::uint32_t begin, std::uint32_t end, int part) {
        for (std::uint32_t query = begin; query < end; ++query)
          match_query(shared.data(), shared[lane], keys[job.query_first + query], chunking, lane, sums[part]);
      });
      pairs[tile.job] += weighted_pairs(job, sums[0], sums[1]);
    }
  }
}

}  // namespace nqueens::gpu
