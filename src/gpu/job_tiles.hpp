#pragma once
// A job's tiles (tile_match.hpp), cut from the job and its query ranges alone: plain C++ for both
// compilers, so that the host's batches (TileBatch) and a device making them from the jobs it is
// sent (the kernel nq_make_tiles) cut them by the same code. A tile is 16 bytes and a job has one
// per kTileLanes stored keys and cut of kQueriesPerTile queries: sent, they were most of the
// batch's plan; the device makes them from each job's first tile.
#include <cstdint>

#include "gpu/tile_match.hpp"

namespace nqueens::gpu {

//! Job `job_index`'s tiles, written from `out` on (out may be null: then only counted): its
//! compatible queries (for_each_query_range over all of them) cut into runs of at most
//! kQueriesPerTile, for each kTileLanes of its stored keys, stored offset after stored offset;
//! none for a job no query can meet. Returns how many.
NQUEENS_HOST_DEVICE std::uint32_t job_tiles(const TileJob& job, std::uint32_t job_index,
                                            const std::uint32_t* query_starts, MatchTile* out) {
  const MatchTile everything{job_index, 0, 0, query_starts[std::size_t{2} * job.groups]};
  std::uint32_t written = 0;
  for (std::uint32_t stored_offset = 0; stored_offset < job.stored_count; stored_offset += kTileLanes) {
    std::uint32_t first = 0, taken = 0, last = 0;  // the open cut: its start, compatible queries, end
    std::uint32_t cuts = 0;
    for_each_query_range(job, everything, query_starts, [&](std::uint32_t begin, std::uint32_t end, int /*part*/) {
      while (begin < end) {
        if (taken == 0) first = begin;
        const std::uint32_t more = end - begin < kQueriesPerTile - taken ? end - begin : kQueriesPerTile - taken;
        taken += more;
        begin += more;
        last = begin;
        if (taken == kQueriesPerTile) {
          if (out) out[written] = {job_index, stored_offset, first, last - first};
          ++written;
          ++cuts;
          taken = 0;
        }
      }
    });
    if (taken != 0) {
      if (out) out[written] = {job_index, stored_offset, first, last - first};
      ++written;
      ++cuts;
    }
    if (cuts == 0) return 0;  // no query meets the job: the same for every stored offset
  }
  return written;
}

//! nq_make_tiles on this CPU: each job's tiles from its first tile on (`tile_firsts`), for the
//! tests' matcher and the stand-in driver's launches.
inline void make_tiles_on_host(const TileJob* jobs, std::uint32_t job_count, const std::uint32_t* tile_firsts,
                               const std::uint32_t* starts, MatchTile* tiles) {
  for (std::uint32_t j = 0; j < job_count; ++j)
    job_tiles(jobs[j], j, starts + jobs[j].starts_first, tiles + tile_firsts[j]);
}

}  // namespace nqueens::gpu
