#pragma once
// Step 1 of a batch's plan (batch_plan.hpp) on a thread block a row set: the kernel
// nq_plan_row_sets. A row set counted on G = 2^C groups prices each split width of either side
// stored; on one thread (plan_row_set_alone) that walks the G groups a few times a width, and at
// N = 22 the longest of those threads were most of the plan's device time. Here each step gives a
// thread a slot (block_steps.hpp). For each width, from the widest down: each slot's keys folded
// from the width above, the queries each slot meets summed over the groups it contains (a sum
// over subsets, a step a bit), each slot's passes, and their sum by halves. Then every thread
// makes the same choice (choose_stored_side), the buckets' counts are folded to the chosen width
// and summed up into their starts, and each stored slot's job counts its tiles: the figures
// plan_row_set_alone writes, which the tests hold this form to.
#include <cstdint>

#include "gpu/batch_plan.hpp"
#include "gpu/block_steps.hpp"
#include "gpu/half_build.hpp"
#include "gpu/tile_match.hpp"

namespace nqueens::gpu {

//! Threads of nq_plan_row_sets's block.
inline constexpr std::uint32_t kPlanThreads = 64;

//! A block's room for its row set (shared memory on the device), each figure for the east side
//! (index 0) and the west (1), by slot of the width being priced.
struct PlanRoom {
  std::uint64_t keys[2][kMaxGroups];           //!< a side's keys in the slot
  std::uint64_t meets[2][kMaxGroups];          //!< the queries the slot meets, the side stored
  std::uint64_t terms[2][kMaxGroups];          //!< the slot's passes, the side stored, then their sums
  std::uint64_t passes[2][kMaxSplitBits + 1];  //!< by width, the side stored
};
static_assert(kPlanThreads <= kMaxGroups, "a run's sum for each thread in PlanRoom::keys");

//! The i-th slot with bit `bit` set.
NQUEENS_HOST_DEVICE std::uint32_t slot_with_bit(std::uint32_t i, std::uint32_t bit) {
  return ((i & ~(bit - 1)) << 1) | bit | (i & (bit - 1));
}

//! room.terms[x][0] += every other of room.terms[x][0, n), n a power of two, by halves.
template <class Block>
NQUEENS_HOST_DEVICE void sum_terms(const Block& block, PlanRoom& room, std::uint32_t n) {
  for (std::uint32_t half = n / 2; half >= 1; half /= 2)
    block.each(half, [&](std::uint32_t i) {
      for (int x = 0; x < 2; ++x) room.terms[x][i] += room.terms[x][i + half];
    });
}

//! Each width's passes of either side stored into room.passes (split_passes for every count),
//! each side's keys left in room.keys[x][0].
template <class Block>
NQUEENS_HOST_DEVICE void price_widths(const Block& block, const SideSort& east, const SideSort& west,
                                      const std::uint32_t* counters, PlanRoom& room) {
  const int widest = east.rule.count;
  block.each(1u << widest, [&](std::uint32_t pattern) {
    room.keys[0][pattern] = pattern_keys(east, counters, pattern);
    room.keys[1][pattern] = pattern_keys(west, counters, pattern);
  });
  for (int count = widest; count >= 0; --count) {
    const std::uint32_t slots = 1u << count;
    block.each(slots, [&](std::uint32_t slot) {
      for (int x = 0; x < 2; ++x) {
        if (count < widest) room.keys[x][slot] += room.keys[x][slot + slots];
        room.meets[1 - x][slot] = (room.keys[x][slot] + 31) / 32 * 32;  // side x's keys query the other side
      }
    });
    for (std::uint32_t bit = 1; bit < slots; bit <<= 1)
      block.each(slots / 2, [&](std::uint32_t i) {
        const std::uint32_t slot = slot_with_bit(i, bit);
        for (int x = 0; x < 2; ++x) room.meets[x][slot] += room.meets[x][slot ^ bit];
      });
    block.each(slots, [&](std::uint32_t slot) {
      for (int x = 0; x < 2; ++x)
        room.terms[x][slot] = slot_passes(room.keys[x][slot], room.meets[x][~slot & (slots - 1)]);
    });
    sum_terms(block, room, slots);
    block.each(1, [&](std::uint32_t) {
      for (int x = 0; x < 2; ++x) room.passes[x][count] = room.terms[x][0];
    });
  }
}

//! Bucket `bucket`'s halves of a side whose parts' counts by slot are `parts` (bucket_of).
NQUEENS_HOST_DEVICE std::uint64_t bucket_halves(const std::uint64_t (*parts)[kMaxGroups], std::uint32_t bucket,
                                                std::uint32_t groups, bool part_major) {
  return part_major ? parts[bucket / groups][bucket % groups] : parts[bucket % 2][bucket / 2];
}

//! `a` and `b`, n words each, made their running sums: each thread sums a run of them, one adds
//! up the runs, each sums its run up from there.
template <class Block>
NQUEENS_HOST_DEVICE void running_sums(const Block& block, std::uint32_t* a, std::uint32_t* b, std::uint32_t n,
                                      PlanRoom& room) {
  std::uint32_t* words[2] = {a, b};
  block.each(kPlanThreads, [&](std::uint32_t t) {
    const PlaceRun run = place_run(t, kPlanThreads, n);
    for (int x = 0; x < 2; ++x) {
      room.keys[x][t] = 0;
      for (std::uint32_t i = run.first; i < run.end; ++i) room.keys[x][t] += words[x][i];
    }
  });
  block.each(1, [&](std::uint32_t) {
    for (int x = 0; x < 2; ++x) {
      std::uint64_t before = 0;
      for (std::uint32_t t = 0; t < kPlanThreads; ++t) {
        const std::uint64_t run = room.keys[x][t];
        room.keys[x][t] = before;
        before += run;
      }
    }
  });
  block.each(kPlanThreads, [&](std::uint32_t t) {
    const PlaceRun run = place_run(t, kPlanThreads, n);
    for (int x = 0; x < 2; ++x) {
      auto sum = static_cast<std::uint32_t>(room.keys[x][t]);
      for (std::uint32_t i = run.first; i < run.end; ++i) {
        sum += words[x][i];
        words[x][i] = sum;
      }
    }
  });
}

//! plan_bucket_starts of both sides on `count` bits (the query side's part-major, the stored
//! side's pattern-major): each part's counters folded from the widest split, laid out, summed up.
template <class Block>
NQUEENS_HOST_DEVICE void bucket_starts_in_block(const Block& block, const SideSort& query, const SideSort& stored,
                                                const std::uint32_t* counters, int count, std::uint32_t* query_starts,
                                                std::uint32_t* stored_starts, PlanRoom& room) {
  const int widest = query.rule.count;
  auto* query_parts = room.meets;  // [part][slot]
  auto* stored_parts = room.terms;
  block.each(1u << widest, [&](std::uint32_t pattern) {
    for (std::uint32_t part = 0; part < 2; ++part) {
      const std::uint32_t at = part * (1u << widest) + pattern;
      query_parts[part][pattern] = part < counted_parts(query.recipe) ? counters[query.next_first + at] : 0;
      stored_parts[part][pattern] = part < counted_parts(stored.recipe) ? counters[stored.next_first + at] : 0;
    }
  });
  for (int fold = widest - 1; fold >= count; --fold)
    block.each(1u << fold, [&](std::uint32_t slot) {
      for (std::uint32_t part = 0; part < 2; ++part) {
        query_parts[part][slot] += query_parts[part][slot + (1u << fold)];
        stored_parts[part][slot] += stored_parts[part][slot + (1u << fold)];
      }
    });
  const std::uint32_t groups = 1u << count;
  block.each(2 * groups + 1, [&](std::uint32_t bucket) {
    query_starts[bucket] =
        bucket == 0 ? 0 : static_cast<std::uint32_t>(bucket_halves(query_parts, bucket - 1, groups, true));
    stored_starts[bucket] =
        bucket == 0 ? 0 : static_cast<std::uint32_t>(bucket_halves(stored_parts, bucket - 1, groups, false));
  });
  running_sums(block, query_starts + 1, stored_starts + 1, 2 * groups, room);
}

//! The jobs and tiles of `plan`'s stored slots, into plan.
template <class Block>
NQUEENS_HOST_DEVICE void count_jobs_in_block(const Block& block, const PlanRowSet& row_set,
                                             const std::uint32_t* query_starts, const std::uint32_t* stored_starts,
                                             PlanRoom& room, RowSetPlan& plan) {
  const std::uint32_t groups = 1u << plan.split_count;
  block.each(groups, [&](std::uint32_t pattern) {
    const std::uint32_t tiles = pattern_tiles(row_set, plan, query_starts, stored_starts, pattern);
    room.terms[0][pattern] = tiles;
    room.terms[1][pattern] = tiles == 0 ? 0 : 1;
  });
  sum_terms(block, room, groups);
  plan.tiles = static_cast<std::uint32_t>(room.terms[0][0]);
  plan.jobs = static_cast<std::uint32_t>(room.terms[1][0]);
}

//! Step 1 on a block, row set `r`: what plan_row_set_alone does, in `room`.
template <class Block>
NQUEENS_HOST_DEVICE void plan_row_set_in_block(const Block& block, std::uint32_t r, const SideSort* sides,
                                               const PlanRowSet* row_sets, const std::uint32_t* counters,
                                               const PlanRule& rule, std::uint32_t* starts, RowSetPlan* plans,
                                               PlanRoom& room) {
  const PlanRowSet row_set = row_sets[r];
  const SideSort& east = sides[std::size_t{2} * r];
  const SideSort& west = sides[std::size_t{2} * r + 1];
  price_widths(block, east, west, counters, room);
  const std::uint64_t east_keys = room.keys[0][0], west_keys = room.keys[1][0];
  RowSetPlan plan;
  plan.halves = east_keys + west_keys;
  if (east_keys != 0 && west_keys != 0) {  // alike on every thread
    const auto split_of = [&](bool east_stored) {
      const std::uint64_t stored_keys = east_stored ? east_keys : west_keys;
      const std::uint64_t query_keys = east_stored ? west_keys : east_keys;
      return choose_split(stored_keys, query_keys, east.rule.count, rule,
                          [&](int count) { return room.passes[east_stored ? 0 : 1][count]; });
    };
    const PlannedSplit split = choose_stored_side(east_keys, west_keys, rule, split_of, plan);
    plan.split_count = static_cast<std::uint32_t>(split.count);
    const std::uint32_t widest = 1u << east.rule.count, groups = 1u << split.count;
    std::uint32_t* query_starts = starts + row_set.starts_first;
    std::uint32_t* stored_starts = query_starts + std::size_t{2} * widest + 1;
    bucket_starts_in_block(block, plan.east_stored ? west : east, plan.east_stored ? east : west, counters, split.count,
                           query_starts, stored_starts, room);
    plan.query_keys = query_starts[std::size_t{2} * groups];
    plan.stored_keys = stored_starts[std::size_t{2} * groups];
    count_jobs_in_block(block, row_set, query_starts, stored_starts, room, plan);
  }
  block.each(1, [&](std::uint32_t) { plans[r] = plan; });
}

//! nq_plan_row_sets on this CPU: each row set's block run by `block`.
inline void plan_row_sets_on_host(const SideSort* sides, const PlanRowSet* row_sets, std::uint32_t count,
                                  const std::uint32_t* counters, const PlanRule& rule, std::uint32_t* starts,
                                  RowSetPlan* plans, const HostBlock& block = {kPlanThreads}) {
  PlanRoom room{};
  for (std::uint32_t r = 0; r < count; ++r)
    plan_row_set_in_block(block, r, sides, row_sets, counters, rule, starts, plans, room);
}

}  // namespace nqueens::gpu
