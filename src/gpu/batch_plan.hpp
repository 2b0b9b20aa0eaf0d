#pragma once
// A batch's plan, made where its count pass's counters lie: each row set's stored side and slot
// split chosen from its sides' counters (as TileBatch chooses them from keys, each tile's table
// priced at kBuildPasses passes), its keys, jobs and tiles placed after those of the batch's
// earlier row sets, and the write pass's sides made from the count pass's. The host sends each
// row set's PlanRowSet with the count pass, reads back the batch's PlanTotals (what the keys,
// jobs and tiles take) and, once it is matched, each row set's pairs and halves: the counters,
// bucket starts, jobs and query ranges stay on the device.
//
// Plain C++ for both compilers: the kernels nq_write_plans and nq_sum_row_sets run these
// functions a thread per row set, nq_place_row_sets a block for the batch (each thread sums a run
// of row sets, one scans the runs, each places its run), nq_plan_row_sets a block per row set
// (plan_block.hpp, held to plan_row_set_alone), and the *_on_host loops are their host forms
// (the tests' matcher, the device model, the stand-in driver). Every figure is a whole number, so
// that both sides choose alike.
#include <cstddef>
#include <cstdint>

#include "gpu/half_build.hpp"
#include "gpu/job_tiles.hpp"
#include "gpu/tile_match.hpp"

namespace nqueens::gpu {

//! The split rule (slot_split.hpp's SplitRule), as the device reads it.
struct PlanRule {
  std::uint64_t least_stored = 0;  //!< stored sides smaller than this are never split
  double most_passes_kept = 0.5;   //!< a split must leave at most this share of the passes
  std::int32_t max_bits = kMaxSplitBits;
  std::int32_t store_by_price = 1;  //!< 0: the stored side is the one of fewer passes, tables not counted
};

//! A row set of the batch, as the host adds it: its sides are the count pass's sides 2 r (east)
//! and 2 r + 1 (west), both counted on the same widest split of G = 2^count groups, and it has
//! rooms of its own, laid out by the host: 2 (2 G + 1) bucket starts (the query side's, then the
//! stored side's) and 4 G write-pass counters (east's, then west's).
struct PlanRowSet {
  std::uint32_t weights[2][2] = {{1, 0}, {0, 0}};  //!< east's part against west's part
  std::uint32_t key_bits = 0;
  std::uint32_t starts_first = 0, next_first = 0;
};

//! A row set's plan: what it holds, then (placed) where its keys, jobs and tiles begin.
struct RowSetPlan {
  std::uint64_t halves = 0;                       //!< both sides' halves
  std::uint64_t keys_first = 0;                   //!< its query side's first key; its stored side's follow
  std::uint32_t query_keys = 0, stored_keys = 0;  //!< none when a side has no half: nothing matched
  std::uint32_t jobs = 0, tiles = 0, jobs_first = 0, tiles_first = 0;
  std::uint32_t east_stored = 0, split_count = 0;
};

//! What a batch's plan takes: the host sizes the write pass's keys and the jobs and tiles by it.
struct PlanTotals {
  std::uint64_t keys = 0;
  std::uint32_t jobs = 0, tiles = 0;
  std::uint32_t key_bits = 1;  //!< the widest key of a matched row set: the matching kernel's
  std::uint32_t unused = 0;
};

//! What comes back for each row set once its batch is matched.
struct RowSetResult {
  std::uint64_t pairs = 0, halves = 0;
};

//! Parts a side is counted in: its halves all fall in part 0 when every pairing is tied (as every
//! pairing of an unfolded side is), and its count pass has counters for part 0 alone.
NQUEENS_HOST_DEVICE std::uint32_t counted_parts(const SideRecipe& recipe) {
  return recipe.tied_pairings >= recipe.pairing_count ? 1 : 2;
}

//! A side's halves of widest pattern `pattern` (both parts), from the count pass's counters.
NQUEENS_HOST_DEVICE std::uint64_t pattern_keys(const SideSort& side, const std::uint32_t* counters,
                                               std::uint32_t pattern) {
  const std::uint32_t groups = 1u << side.rule.count;
  std::uint64_t keys = 0;
  for (std::uint32_t part = 0; part < counted_parts(side.recipe); ++part)
    keys += counters[side.next_first + part * groups + pattern];
  return keys;
}

NQUEENS_HOST_DEVICE std::uint64_t side_keys(const SideSort& side, const std::uint32_t* counters) {
  std::uint64_t keys = 0;
  for (std::uint32_t pattern = 0; pattern < (1u << side.rule.count); ++pattern)
    keys += pattern_keys(side, counters, pattern);
  return keys;
}

NQUEENS_HOST_DEVICE std::uint64_t plan_tiles(std::uint64_t keys) { return (keys + kTileLanes - 1) / kTileLanes; }

//! The passes of a stored slot of `stored` keys whose tiles meet `meeting` queries.
NQUEENS_HOST_DEVICE std::uint64_t slot_passes(std::uint64_t stored, std::uint64_t meeting) {
  return stored != 0 && meeting != 0 ? plan_tiles(stored) * (kBuildPasses + meeting) : 0;
}

//! `stored` against `queries` on the first `count` bits of their widest split (G groups): each
//! slot's tiles are built once (kBuildPasses) and answer the queries of every compatible group,
//! in pieces of 32. `scratch` holds 2 G words.
NQUEENS_HOST_DEVICE std::uint64_t split_passes(const SideSort& stored, const SideSort& queries,
                                               const std::uint32_t* counters, int count, std::uint64_t* scratch) {
  const std::uint32_t groups = 1u << stored.rule.count, slots = 1u << count;
  std::uint64_t* slot_keys = scratch;
  std::uint64_t* within = scratch + slots;  // within[m]: the queries of every group that is a subset of m
  for (std::uint32_t slot = 0; slot < slots; ++slot) slot_keys[slot] = within[slot] = 0;
  for (std::uint32_t pattern = 0; pattern < groups; ++pattern) {
    slot_keys[pattern & (slots - 1)] += pattern_keys(stored, counters, pattern);
    within[pattern & (slots - 1)] += pattern_keys(queries, counters, pattern);
  }
  for (std::uint32_t group = 0; group < slots; ++group) within[group] = (within[group] + 31) / 32 * 32;
  for (std::uint32_t bit = 1; bit < slots; bit <<= 1)
    for (std::uint32_t mask = 0; mask < slots; ++mask)
      if (mask & bit) within[mask] += within[mask ^ bit];
  std::uint64_t passes = 0;
  for (std::uint32_t slot = 0; slot < slots; ++slot)
    passes += slot_passes(slot_keys[slot], within[~slot & (slots - 1)]);
  return passes;
}

struct PlannedSplit {
  int count = 0;  //!< the first `count` bits of the widest split
  std::uint64_t passes = 0;
};

//! The split of a stored side against its queries that leaves the fewest passes, if it spares
//! enough of them (slot_split.cpp's price_counted_split, in whole numbers), from each width's
//! passes: `passes(count)` for count 0 to `widest`.
template <class Passes>
NQUEENS_HOST_DEVICE PlannedSplit choose_split(std::uint64_t stored_keys, std::uint64_t query_keys, int widest,
                                              const PlanRule& rule, Passes passes) {
  const std::uint64_t least = rule.least_stored > kTileLanes + 1 ? rule.least_stored : kTileLanes + 1;
  if (stored_keys < least || query_keys == 0 || rule.max_bits <= 0) {
    const std::uint64_t cuts = (query_keys + kQueriesPerTile - 1) / kQueriesPerTile;
    return {0, plan_tiles(stored_keys) * (query_keys + kBuildPasses * cuts)};
  }
  const std::uint64_t unsplit = passes(0);
  PlannedSplit best{0, unsplit};
  for (int count = 1; count <= widest; ++count) {
    const std::uint64_t priced = passes(count);
    if (priced < best.passes) best = {count, priced};
  }
  if (static_cast<double>(best.passes) > rule.most_passes_kept * static_cast<double>(unsplit)) return {0, unsplit};
  return best;
}

//! The stored side (east where `plan.east_stored`) of a row set whose sides hold `east_keys` and
//! `west_keys`, and its split: `split(east_stored)` is the split chosen for that stored side.
template <class Split>
NQUEENS_HOST_DEVICE PlannedSplit choose_stored_side(std::uint64_t east_keys, std::uint64_t west_keys,
                                                    const PlanRule& rule, Split split, RowSetPlan& plan) {
  if (rule.store_by_price == 0) {
    plan.east_stored = plan_tiles(east_keys) * west_keys <= plan_tiles(west_keys) * east_keys ? 1 : 0;
    return split(plan.east_stored != 0);
  }
  const PlannedSplit east_stored = split(true), west_stored = split(false);
  plan.east_stored = east_stored.passes <= west_stored.passes ? 1 : 0;
  return plan.east_stored ? east_stored : west_stored;
}

//! choose_split for `stored` against `queries`, each width priced by split_passes.
NQUEENS_HOST_DEVICE PlannedSplit plan_split(const SideSort& stored, const SideSort& queries,
                                            const std::uint32_t* counters, const PlanRule& rule,
                                            std::uint64_t* scratch) {
  return choose_split(side_keys(stored, counters), side_keys(queries, counters), stored.rule.count, rule,
                      [&](int count) { return split_passes(stored, queries, counters, count, scratch); });
}

//! A side's bucket starts on the first `count` bits of its widest split: part-major
//! (part * groups + pattern) or pattern-major (pattern * 2 + part), then where it ends.
NQUEENS_HOST_DEVICE void plan_bucket_starts(const SideSort& side, const std::uint32_t* counters, int count,
                                            bool part_major, std::uint32_t* starts) {
  const std::uint32_t widest = 1u << side.rule.count, groups = 1u << count;
  for (std::uint32_t bucket = 0; bucket <= 2 * groups; ++bucket) starts[bucket] = 0;
  for (std::uint32_t part = 0; part < counted_parts(side.recipe); ++part)
    for (std::uint32_t pattern = 0; pattern < widest; ++pattern)
      starts[bucket_of(pattern & (groups - 1), part, groups, part_major) + 1] +=
          counters[side.next_first + part * widest + pattern];
  for (std::uint32_t bucket = 1; bucket <= 2 * groups; ++bucket) starts[bucket] += starts[bucket - 1];
}

//! The job of stored slot `pattern` (TileBatch::add_jobs), its keys counted from the row set's
//! first key (`keys_first`).
NQUEENS_HOST_DEVICE TileJob plan_job(const PlanRowSet& row_set, const RowSetPlan& plan,
                                     const std::uint32_t* stored_starts, std::uint32_t pattern) {
  TileJob job;
  for (int s = 0; s < 2; ++s)
    for (int q = 0; q < 2; ++q) job.weights[s][q] = plan.east_stored ? row_set.weights[s][q] : row_set.weights[q][s];
  job.groups = 1u << plan.split_count;
  job.starts_first = row_set.starts_first;
  job.query_first = plan.keys_first;
  job.stored_pattern = pattern;
  job.stored_first = plan.keys_first + plan.query_keys + stored_starts[std::size_t{2} * pattern];
  job.stored_count = stored_starts[std::size_t{2} * pattern + 2] - stored_starts[std::size_t{2} * pattern];
  job.stored_tied = stored_starts[std::size_t{2} * pattern + 1] - stored_starts[std::size_t{2} * pattern];
  return job;
}

//! The tiles of the job of stored slot `pattern` (none where it stores no key).
NQUEENS_HOST_DEVICE std::uint32_t pattern_tiles(const PlanRowSet& row_set, const RowSetPlan& plan,
                                                const std::uint32_t* query_starts, const std::uint32_t* stored_starts,
                                                std::uint32_t pattern) {
  const TileJob job = plan_job(row_set, plan, stored_starts, pattern);
  return job.stored_count == 0 ? 0 : job_tiles(job, 0, query_starts, nullptr);
}

//! Step 1 on one thread, row set `r`: chooses its stored side and split, writes its bucket
//! starts into its room, and counts its keys, jobs and tiles; `scratch` holds 2 kMaxGroups
//! words. The kernel runs it on a block (plan_block.hpp), which the tests hold to this form.
NQUEENS_HOST_DEVICE void plan_row_set_alone(std::uint32_t r, const SideSort* sides, const PlanRowSet* row_sets,
                                            const std::uint32_t* counters, const PlanRule& rule, std::uint32_t* starts,
                                            std::uint64_t* scratch, RowSetPlan* plans) {
  const PlanRowSet row_set = row_sets[r];
  const SideSort& east = sides[std::size_t{2} * r];
  const SideSort& west = sides[std::size_t{2} * r + 1];
  RowSetPlan plan;
  const std::uint64_t east_keys = side_keys(east, counters), west_keys = side_keys(west, counters);
  plan.halves = east_keys + west_keys;
  if (east_keys != 0 && west_keys != 0) {
    const auto split_of = [&](bool east_stored) {
      return east_stored ? plan_split(east, west, counters, rule, scratch)
                         : plan_split(west, east, counters, rule, scratch);
    };
    const PlannedSplit split = choose_stored_side(east_keys, west_keys, rule, split_of, plan);
    plan.split_count = static_cast<std::uint32_t>(split.count);
    const std::uint32_t widest = 1u << east.rule.count, groups = 1u << split.count;
    std::uint32_t* query_starts = starts + row_set.starts_first;
    std::uint32_t* stored_starts = query_starts + std::size_t{2} * widest + 1;
    plan_bucket_starts(plan.east_stored ? west : east, counters, split.count, true, query_starts);
    plan_bucket_starts(plan.east_stored ? east : west, counters, split.count, false, stored_starts);
    plan.query_keys = query_starts[std::size_t{2} * groups];
    plan.stored_keys = stored_starts[std::size_t{2} * groups];
    for (std::uint32_t pattern = 0; pattern < groups; ++pattern) {
      const std::uint32_t tiles = pattern_tiles(row_set, plan, query_starts, stored_starts, pattern);
      plan.jobs += tiles == 0 ? 0 : 1;
      plan.tiles += tiles;
    }
  }
  plans[r] = plan;
}

//! Threads of the block that places a batch's row sets (nq_place_row_sets).
inline constexpr std::uint32_t kPlaceThreads = 256;

//! Row sets [first, end) of `count`: thread `thread` of `threads` places a run of them, in order.
struct PlaceRun {
  std::uint32_t first = 0, end = 0;
};

NQUEENS_HOST_DEVICE PlaceRun place_run(std::uint32_t thread, std::uint32_t threads, std::uint32_t count) {
  const std::uint32_t each = (count + threads - 1) / threads;
  const std::uint32_t first = thread * each < count ? thread * each : count;
  return {first, first + each < count ? first + each : count};
}

//! `plan` of `row_set` added to `sum`: its keys, jobs and tiles, and its key width where matched.
NQUEENS_HOST_DEVICE void add_to_totals(const RowSetPlan& plan, const PlanRowSet& row_set, PlanTotals& sum) {
  sum.keys += plan.query_keys + plan.stored_keys;
  sum.jobs += plan.jobs;
  sum.tiles += plan.tiles;
  if (plan.query_keys != 0 && row_set.key_bits > sum.key_bits) sum.key_bits = row_set.key_bits;
}

//! Step 2a, each thread of the placing block: its run's keys, jobs and tiles, into sums[thread].
NQUEENS_HOST_DEVICE void sum_place_run(std::uint32_t thread, std::uint32_t threads, const RowSetPlan* plans,
                                       const PlanRowSet* row_sets, std::uint32_t count, PlanTotals* sums) {
  const PlaceRun run = place_run(thread, threads, count);
  PlanTotals sum;
  for (std::uint32_t r = run.first; r < run.end; ++r) add_to_totals(plans[r], row_sets[r], sum);
  sums[thread] = sum;
}

//! Step 2b, one thread: each run's sums replaced by what the runs before it hold (where it
//! starts), and the batch's totals. The runs are the block's threads (256), not its row sets.
NQUEENS_HOST_DEVICE void scan_place_runs(PlanTotals* sums, std::uint32_t threads, PlanTotals* totals) {
  PlanTotals before;
  for (std::uint32_t t = 0; t < threads; ++t) {
    const PlanTotals run = sums[t];
    sums[t] = before;
    before.keys += run.keys;
    before.jobs += run.jobs;
    before.tiles += run.tiles;
    if (run.key_bits > before.key_bits) before.key_bits = run.key_bits;
  }
  *totals = before;
}

//! Step 2c, each thread: its run's row sets placed after the earlier runs' (sums[thread]).
NQUEENS_HOST_DEVICE void place_run_row_sets(std::uint32_t thread, std::uint32_t threads, RowSetPlan* plans,
                                            const PlanRowSet* row_sets, std::uint32_t count, const PlanTotals* sums) {
  const PlaceRun run = place_run(thread, threads, count);
  PlanTotals sum = sums[thread];
  for (std::uint32_t r = run.first; r < run.end; ++r) {
    RowSetPlan& plan = plans[r];
    plan.keys_first = sum.keys;
    plan.jobs_first = sum.jobs;
    plan.tiles_first = sum.tiles;
    add_to_totals(plan, row_sets[r], sum);
  }
}

//! The write pass's side made from count side `side`: sorted on `count` bits of its widest split
//! into its keys from `keys_first`, its counters from `next_first` holding `starts`.
NQUEENS_HOST_DEVICE void plan_write_side(const SideSort& side, int count, bool part_major, std::uint64_t keys_first,
                                         std::uint32_t next_first, const std::uint32_t* starts, SideSort* out,
                                         std::uint32_t* next) {
  SideSort written = side;
  written.rule.count = count;
  for (int i = count; i < kMaxSplitBits; ++i) written.rule.bits[i] = 0;
  written.rule.part_major = part_major;
  written.next_first = next_first;
  written.keys_first = keys_first;
  for (std::uint32_t bucket = 0; bucket < 2u << count; ++bucket) next[next_first + bucket] = starts[bucket];
  *out = written;
}

//! Step 3, row set `r` (placed): its write-pass sides (2 r and 2 r + 1; none of their halves is
//! written where nothing is matched), its jobs and where each one's tiles begin.
NQUEENS_HOST_DEVICE void write_plan(std::uint32_t r, const SideSort* count_sides, const PlanRowSet* row_sets,
                                    const RowSetPlan* plans, const std::uint32_t* starts, SideSort* write_sides,
                                    std::uint32_t* write_next, TileJob* jobs, std::uint32_t* tile_firsts) {
  const PlanRowSet row_set = row_sets[r];
  const RowSetPlan plan = plans[r];
  if (plan.query_keys == 0) {
    for (std::uint32_t s = 2 * r; s < 2 * r + 2; ++s) {
      write_sides[s] = count_sides[s];
      write_sides[s].recipe.pairing_count = 0;
    }
    return;
  }
  const std::uint32_t widest = 1u << count_sides[std::size_t{2} * r].rule.count;
  const std::uint32_t* query_starts = starts + row_set.starts_first;
  const std::uint32_t* stored_starts = query_starts + std::size_t{2} * widest + 1;
  const int count = static_cast<int>(plan.split_count);
  const std::uint32_t query = plan.east_stored ? 2 * r + 1 : 2 * r, stored = plan.east_stored ? 2 * r : 2 * r + 1;
  plan_write_side(count_sides[query], count, true, plan.keys_first, row_set.next_first, query_starts,
                  write_sides + query, write_next);
  plan_write_side(count_sides[stored], count, false, plan.keys_first + plan.query_keys, row_set.next_first + 2 * widest,
                  stored_starts, write_sides + stored, write_next);
  std::uint32_t job_index = plan.jobs_first, tile = plan.tiles_first;
  for (std::uint32_t pattern = 0; pattern < (1u << count); ++pattern) {
    const TileJob job = plan_job(row_set, plan, stored_starts, pattern);
    const std::uint32_t tiles = job.stored_count == 0 ? 0 : job_tiles(job, job_index, query_starts, nullptr);
    if (tiles == 0) continue;
    jobs[job_index] = job;
    tile_firsts[job_index++] = tile;
    tile += tiles;
  }
}

//! Step 4, row set `r` (matched): its jobs' pairs, summed, and its halves.
NQUEENS_HOST_DEVICE void sum_row_set(std::uint32_t r, const RowSetPlan* plans, const std::uint64_t* counts,
                                     RowSetResult* results) {
  const RowSetPlan plan = plans[r];
  std::uint64_t pairs = 0;
  for (std::uint32_t j = 0; j < plan.jobs; ++j) pairs += counts[plan.jobs_first + j];
  results[r] = {pairs, plan.halves};
}

// The host forms of three kernels (plan_block.hpp has nq_plan_row_sets's).

//! nq_place_row_sets on this CPU: each of the block's steps run for each of `threads` in turn
//! (from 1: a thread alone places the batch as the block does).
inline void place_row_sets_on_host(RowSetPlan* plans, const PlanRowSet* row_sets, std::uint32_t count,
                                   PlanTotals* totals, std::uint32_t threads = kPlaceThreads) {
  PlanTotals sums[kPlaceThreads];
  threads = threads < 1 ? 1 : threads > kPlaceThreads ? kPlaceThreads : threads;
  for (std::uint32_t t = 0; t < threads; ++t) sum_place_run(t, threads, plans, row_sets, count, sums);
  scan_place_runs(sums, threads, totals);
  for (std::uint32_t t = 0; t < threads; ++t) place_run_row_sets(t, threads, plans, row_sets, count, sums);
}

inline void write_plans_on_host(const SideSort* count_sides, const PlanRowSet* row_sets, std::uint32_t count,
                                const RowSetPlan* plans, const std::uint32_t* starts, SideSort* write_sides,
                                std::uint32_t* write_next, TileJob* jobs, std::uint32_t* tile_firsts) {
  for (std::uint32_t r = 0; r < count; ++r)
    write_plan(r, count_sides, row_sets, plans, starts, write_sides, write_next, jobs, tile_firsts);
}

inline void sum_row_sets_on_host(const RowSetPlan* plans, std::uint32_t count, const std::uint64_t* counts,
                                 RowSetResult* results) {
  for (std::uint32_t r = 0; r < count; ++r) sum_row_set(r, plans, counts, results);
}

}  // namespace nqueens::gpu
