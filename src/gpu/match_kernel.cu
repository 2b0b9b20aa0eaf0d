// The gpu engine's kernels: each block takes tiles (tile_match.hpp) one after another, builds a
// tile's entries in shared memory and answers its queries, a warp per query, one lane per 32
// stored keys. One kernel per chunking, so that each query's chunk loop is unrolled.
#include <cstdint>

#include "gpu/batch_plan.hpp"
#include "gpu/half_build.hpp"
#include "gpu/job_tiles.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/plan_block.hpp"
#include "gpu/split_sample.hpp"
#include "gpu/tile_match.hpp"

namespace nqueens::gpu {

namespace {

// A warp's part of the sums over the queries [begin, end) of one part: the range is taken in
// pieces of 32 queries, dealt to the block's warps in turn (`turn` counts the pieces dealt so
// far in the tile, so that short ranges do not all fall to the first warps). A piece's 32
// queries are read by the 32 lanes at once, one each; each lane works out its query's chunk
// offsets, and they are handed round the warp, one offset per chunk and query, so that the loop
// waits on no load from global memory and unpacks no key: a chunk costs a shuffle, an add
// folded into the shared read's address, the read and half an AND. Two queries per step keep
// two chains of shared reads in flight.
template <int Width, int Chunks>
__device__ void warp_sums(const std::uint32_t* shared, std::uint32_t part1_word, const std::uint64_t* queries,
                          std::uint32_t begin, std::uint32_t end, std::uint32_t lane, std::uint32_t warp,
                          std::uint32_t warps, std::uint32_t& turn, LaneSums& sums) {
  constexpr Chunking chunking{Width, Chunks};
  const std::uint32_t* lane_entries = shared + kTileWords + lane;
  const std::uint32_t pieces = (end - begin + 31) / 32;
  const std::uint32_t mine = (warp + warps - turn % warps) % warps;
  turn += pieces;
  for (std::uint32_t piece = mine; piece < pieces; piece += warps) {
    const std::uint32_t first = begin + 32 * piece;
    const std::uint32_t held = min(32u, end - first);
    const std::uint64_t own = lane < held ? __ldg(queries + first + lane) : 0;
    std::uint32_t offsets[Chunks];
#pragma unroll
    for (int chunk = 0; chunk < Chunks; ++chunk) offsets[chunk] = chunk_offset(own, chunk, chunking);
    std::uint32_t j = 0;
    for (; j + 1 < held; j += 2) {
      std::uint32_t fit_a = ~0u, fit_b = ~0u;
#pragma unroll
      for (int chunk = 0; chunk < Chunks; ++chunk) {
        const std::uint32_t a = __shfl_sync(0xffffffffu, offsets[chunk], static_cast<int>(j));
        const std::uint32_t b = __shfl_sync(0xffffffffu, offsets[chunk], static_cast<int>(j + 1));
        fit_a &= entry_word(lane_entries, a, chunk, chunking);
        fit_b &= entry_word(lane_entries, b, chunk, chunking);
      }
      add_fit(fit_a, part1_word, sums);
      add_fit(fit_b, part1_word, sums);
    }
    if (j < held) {
      std::uint32_t fit = ~0u;
#pragma unroll
      for (int chunk = 0; chunk < Chunks; ++chunk)
        fit &= entry_word(lane_entries, __shfl_sync(0xffffffffu, offsets[chunk], static_cast<int>(j)), chunk, chunking);
      add_fit(fit, part1_word, sums);
    }
  }
}

template <int Width, int Chunks>
__device__ void match_tiles(const std::uint64_t* keys, const TileJob* jobs, const MatchTile* tiles,
                            const std::uint32_t* starts, std::uint32_t tile_count, unsigned long long* pairs) {
  extern __shared__ std::uint32_t shared[];
  constexpr Chunking chunking{Width, Chunks};
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  for (std::uint32_t t = blockIdx.x; t < tile_count; t += gridDim.x) {
    const MatchTile tile = tiles[t];
    const TileJob job = jobs[tile.job];
    build_planes(job, tile, keys, chunking, shared, threadIdx.x, blockDim.x);
    __syncthreads();
    build_entries(job, tile, chunking, shared, threadIdx.x, blockDim.x);
    __syncthreads();
    const std::uint64_t* queries = keys + job.query_first;
    const std::uint32_t part1_word = shared[lane];
    LaneSums sums[2];
    std::uint32_t turn = 0;
    for_each_query_range(job, tile, starts + job.starts_first, [&](std::uint32_t begin, std::uint32_t end, int part) {
      warp_sums<Width, Chunks>(shared, part1_word, queries, begin, end, lane, warp, warps, turn, sums[part]);
    });
    std::uint64_t sum = weighted_pairs(job, sums[0], sums[1]);
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0 && sum != 0) atomicAdd(pairs + tile.job, static_cast<unsigned long long>(sum));
    __syncthreads();  // the next tile's entries overwrite this one's
  }
}

}  // namespace

}  // namespace nqueens::gpu

// Named nq_match_w<width>_c<chunks>, as gpu/device_matcher.cpp looks them up in the module.
#define NQUEENS_MATCH_KERNEL(W, C)                                                                        \
  extern "C" __global__ void __launch_bounds__(256) nq_match_w##W##_c##C(                                 \
      const std::uint64_t* keys, const nqueens::gpu::TileJob* jobs, const nqueens::gpu::MatchTile* tiles, \
      const std::uint32_t* starts, std::uint32_t tile_count, unsigned long long* pairs) {                 \
    nqueens::gpu::match_tiles<W, C>(keys, jobs, tiles, starts, tile_count, pairs);                        \
  }
NQUEENS_MATCH_KERNEL(6, 1)
NQUEENS_MATCH_KERNEL(6, 2)
NQUEENS_MATCH_KERNEL(6, 3)
NQUEENS_MATCH_KERNEL(6, 4)
NQUEENS_MATCH_KERNEL(6, 5)
NQUEENS_MATCH_KERNEL(6, 6)
NQUEENS_MATCH_KERNEL(6, 7)
NQUEENS_MATCH_KERNEL(6, 8)
NQUEENS_MATCH_KERNEL(6, 9)
NQUEENS_MATCH_KERNEL(6, 10)
NQUEENS_MATCH_KERNEL(6, 11)
NQUEENS_MATCH_KERNEL(7, 1)
NQUEENS_MATCH_KERNEL(7, 2)
NQUEENS_MATCH_KERNEL(7, 3)
NQUEENS_MATCH_KERNEL(7, 4)
NQUEENS_MATCH_KERNEL(7, 5)
NQUEENS_MATCH_KERNEL(7, 6)
NQUEENS_MATCH_KERNEL(7, 7)
NQUEENS_MATCH_KERNEL(7, 8)
NQUEENS_MATCH_KERNEL(7, 9)

// Each block takes sides (half_build.hpp) one after another and sorts their halves into buckets:
// with `keys` null it counts each bucket's halves in `next`, else (next then holding where each
// bucket begins) writes them there. A pairing's south keys are worked out once into shared
// memory with their split patterns, kSouthKeysAtOnce at a time, and each thread tests its north
// entries against them. The
// order within a bucket is the threads' (the counts do not depend on it). sort_side_on_host is
// this loop on the host.
extern "C" __global__ void __launch_bounds__(256)
    nq_sort_sides(const nqueens::gpu::SideSort* sides, std::uint32_t side_count,
                  const nqueens::gpu::SetPairing* pairings, const nqueens::join::QuarterEntry* entries,
                  std::uint32_t* next, std::uint64_t* keys) {
  using namespace nqueens::gpu;
  __shared__ std::uint64_t south_keys[kSouthKeysAtOnce];
  __shared__ std::uint32_t south_patterns[kSouthKeysAtOnce];
  const SouthChunk south{south_keys, south_patterns};
  for (std::uint32_t s = blockIdx.x; s < side_count; s += gridDim.x) {
    const SideSort side = sides[s];  // a copy, which the writes cannot alias
    for (std::uint32_t p = 0; p < side.recipe.pairing_count; ++p) {
      const SetPairing pairing = pairings[side.recipe.pairing_first + p];
      const std::uint32_t part = p < side.recipe.tied_pairings ? 0 : 1;
      for (std::uint32_t first = 0; first < pairing.south_count; first += kSouthKeysAtOnce) {
        const std::uint32_t count = min(pairing.south_count - first, kSouthKeysAtOnce);
        load_south_keys(side, pairing, entries, first, count, south, threadIdx.x, blockDim.x);
        __syncthreads();
        sort_against_south_keys(side, pairing, part, entries, south, count, next, keys, threadIdx.x, blockDim.x);
        __syncthreads();  // the next chunk overwrites these keys
      }
    }
  }
}

// Each thread makes one side's pairings (pairing_spec.hpp) from the quarter table's group index
// the device holds, where the build kernel reads them: the host sends each side's description.
extern "C" __global__ void __launch_bounds__(256)
    nq_make_pairings(const nqueens::gpu::PairingSpec* specs, std::uint32_t spec_count, const std::uint32_t* index,
                     nqueens::gpu::SetPairing* pairings) {
  using namespace nqueens::gpu;
  const std::uint32_t s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= spec_count) return;
  const PairingSpec spec = specs[s];
  std::uint32_t tied = 0;
  make_side_pairings(spec, index, pairings + spec.pairing_first, &tied);
}

// A block per row set chooses its widest split (split_sample.hpp) from a sample of its sides'
// halves, over the room the host laid out, before the count pass sorts the sides on it.
extern "C" __global__ void __launch_bounds__(nqueens::gpu::kChooseThreads)
    nq_choose_splits(nqueens::gpu::SideSort* sides, const nqueens::gpu::PlanRowSet* row_sets, std::uint32_t count,
                     const nqueens::gpu::SetPairing* pairings, const nqueens::join::QuarterEntry* entries,
                     nqueens::gpu::PlanRule rule) {
  using namespace nqueens::gpu;
  __shared__ ChooseRoom room;
  for (std::uint32_t r = blockIdx.x; r < count; r += gridDim.x)
    choose_row_set_split(DeviceBlock{}, sides, row_sets, r, pairings, entries, rule, room);
}

// Each thread cuts one job's tiles (job_tiles.hpp) from its first tile on, where the matching
// kernel reads them: the host sends each job's first tile, not its tiles.
extern "C" __global__ void __launch_bounds__(256)
    nq_make_tiles(const nqueens::gpu::TileJob* jobs, std::uint32_t job_count, const std::uint32_t* tile_firsts,
                  const std::uint32_t* starts, nqueens::gpu::MatchTile* tiles) {
  using namespace nqueens::gpu;
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= job_count) return;
  const TileJob job = jobs[j];
  job_tiles(job, j, starts + job.starts_first, tiles + tile_firsts[j]);
}

// The batch's plan (batch_plan.hpp), made from the count pass's counters where they lie: a
// block per row set chooses its stored side and split and counts its keys, jobs and tiles
// (plan_block.hpp); one block places them (batch_plan.hpp's steps 2a to 2c); a thread per row
// set writes its write-pass sides and jobs; and, once matched, a thread per row set sums its
// jobs' pairs.
extern "C" __global__ void __launch_bounds__(nqueens::gpu::kPlanThreads)
    nq_plan_row_sets(const nqueens::gpu::SideSort* sides, const nqueens::gpu::PlanRowSet* row_sets, std::uint32_t count,
                     const std::uint32_t* counters, nqueens::gpu::PlanRule rule, std::uint32_t* starts,
                     nqueens::gpu::RowSetPlan* plans) {
  using namespace nqueens::gpu;
  __shared__ PlanRoom room;
  for (std::uint32_t r = blockIdx.x; r < count; r += gridDim.x)
    plan_row_set_in_block(DeviceBlock{}, r, sides, row_sets, counters, rule, starts, plans, room);
}

extern "C" __global__ void __launch_bounds__(nqueens::gpu::kPlaceThreads)
    nq_place_row_sets(nqueens::gpu::RowSetPlan* plans, const nqueens::gpu::PlanRowSet* row_sets, std::uint32_t count,
                      nqueens::gpu::PlanTotals* totals) {
  using namespace nqueens::gpu;
  __shared__ PlanTotals sums[kPlaceThreads];
  if (blockIdx.x != 0) return;
  sum_place_run(threadIdx.x, blockDim.x, plans, row_sets, count, sums);
  __syncthreads();
  if (threadIdx.x == 0) scan_place_runs(sums, blockDim.x, totals);
  __syncthreads();
  place_run_row_sets(threadIdx.x, blockDim.x, plans, row_sets, count, sums);
}

extern "C" __global__ void __launch_bounds__(256)
    nq_write_plans(const nqueens::gpu::SideSort* count_sides, const nqueens::gpu::PlanRowSet* row_sets,
                   std::uint32_t count, const nqueens::gpu::RowSetPlan* plans, const std::uint32_t* starts,
                   nqueens::gpu::SideSort* write_sides, std::uint32_t* write_next, nqueens::gpu::TileJob* jobs,
                   std::uint32_t* tile_firsts) {
  const std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < count)
    nqueens::gpu::write_plan(r, count_sides, row_sets, plans, starts, write_sides, write_next, jobs, tile_firsts);
}

extern "C" __global__ void __launch_bounds__(256)
    nq_sum_row_sets(const nqueens::gpu::RowSetPlan* plans, std::uint32_t count, const std::uint64_t* counts,
                    nqueens::gpu::RowSetResult* results) {
  const std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < count) nqueens::gpu::sum_row_set(r, plans, counts, results);
}
