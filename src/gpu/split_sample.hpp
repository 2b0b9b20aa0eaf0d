#pragma once
// The widest split a row set's count pass sorts its sides on, chosen where its halves are built:
// plain C++ that nvcc compiles for the device (kernel nq_choose_splits, a block a row set) and
// the host compiler for the tests and the model. Each side is sampled, a few thousand
// candidates spread evenly over all of them (north entry times south entry of each pairing),
// without enumerating it; the split's bits are those that rule out the most pairs of the two
// samples, and a row set whose sides, as sampled, fall well short of a split is counted on none.
//
// The host only reserves the room: a row set it may split (BuiltBatch::add) has its two count
// sides' rule.count set to the widest split it may take and its counters laid out for it; the
// choice writes the bits and the count it takes (fewer, or none) over them.
#include <cstddef>
#include <cstdint>

#include "gpu/batch_plan.hpp"
#include "gpu/block_steps.hpp"
#include "gpu/half_build.hpp"

namespace nqueens::gpu {

//! The lowest set bit of `word` (not 0).
NQUEENS_HOST_DEVICE int lowest_bit(std::uint64_t word) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(word)) - 1;
#else
  return __builtin_ctzll(word);
#endif
}

//! Candidates a side's sample tests.
inline constexpr std::uint64_t kSampleCandidates = 2048;

//! How often each key bit is set in a side's sampled halves, and what the sample saw.
struct SideSample {
  std::uint64_t bits[64] = {};
  std::uint64_t candidates = 0;  //!< the side's, north entry times south entry of each pairing
  std::uint64_t tested = 0, kept = 0;

  //! The side's halves, as the sample estimates them.
  NQUEENS_HOST_DEVICE double estimated_halves() const {
    return static_cast<double>(candidates) * static_cast<double>(kept) / static_cast<double>(tested > 0 ? tested : 1);
  }
};

//! North entry times south entry pairs of `recipe`'s pairings: the most halves it can have.
NQUEENS_HOST_DEVICE std::uint64_t candidates_of(const SideRecipe& recipe, const SetPairing* pairings) {
  std::uint64_t candidates = 0;
  for (std::uint32_t p = 0; p < recipe.pairing_count; ++p) {
    const SetPairing& pairing = pairings[recipe.pairing_first + p];
    candidates += std::uint64_t{pairing.north_count} * pairing.south_count;
  }
  return candidates;
}

//! Calls `kept(key)` for the half of each candidate of part `part` of `parts` of `recipe`'s
//! sample, its slices' entries in `entries`, `all` its candidates; returns how many it tested.
//! The sample is about `most` candidates spread evenly over all of them (every one when it has
//! no more): every step-th candidate of the side, from half a step on; its parts are runs of it,
//! as even as they can be, and together the whole sample. Candidate c of a pairing is its north
//! entry c / south_count against its south entry c % south_count.
template <class Kept>
NQUEENS_HOST_DEVICE std::uint64_t sample_part(const SideRecipe& recipe, const SetPairing* pairings,
                                              const join::QuarterEntry* entries, std::uint64_t all, std::uint64_t most,
                                              std::uint32_t part, std::uint32_t parts, Kept kept) {
  const std::uint64_t per = all / (most > 0 ? most : 1);
  const std::uint64_t step = per > 0 ? per : 1, half = step / 2;
  const std::uint64_t sampled = all > half ? (all - half + step - 1) / step : 0;
  const std::uint64_t begin = sampled * part / parts, end = sampled * (part + 1) / parts;
  std::uint64_t next = half + begin * step;
  const std::uint64_t last = half + end * step;  // past the part's last candidate
  std::uint64_t first = 0;                       // the pairing's first candidate
  for (std::uint32_t p = 0; p < recipe.pairing_count && next < last; ++p) {
    const SetPairing& pairing = pairings[recipe.pairing_first + p];
    const std::uint64_t pairing_end = first + std::uint64_t{pairing.north_count} * pairing.south_count;
    for (; next < pairing_end && next < last; next += step) {
      const std::uint64_t c = next - first;
      const join::QuarterEntry& n = entries[recipe.north_entries + pairing.north_first + c / pairing.south_count];
      const join::QuarterEntry& s = entries[recipe.south_entries + pairing.south_first + c % pairing.south_count];
      if (recipe.north.attacks_fixed_queen(n) || recipe.south.attacks_fixed_queen(s)) continue;
      const std::uint64_t north_key = recipe.north.key(n), south_key = recipe.south.key(s);
      if ((north_key & south_key) == 0) kept(north_key | south_key);
    }
    first = pairing_end;
  }
  return end - begin;
}

//! The low `key_bits` bits of a key.
NQUEENS_HOST_DEVICE std::uint64_t key_mask(int key_bits) {
  return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
}

//! `recipe`'s sample of `most` candidates: its bits' counts over the low `key_bits` bits.
NQUEENS_HOST_DEVICE SideSample sample_side(const SideRecipe& recipe, const SetPairing* pairings,
                                           const join::QuarterEntry* entries, int key_bits,
                                           std::uint64_t most = kSampleCandidates) {
  SideSample sample;
  sample.candidates = candidates_of(recipe, pairings);
  const std::uint64_t mask = key_mask(key_bits);
  sample.tested = sample_part(recipe, pairings, entries, sample.candidates, most, 0, 1, [&](std::uint64_t key) {
    ++sample.kept;
    for (std::uint64_t rest = key & mask; rest != 0; rest &= rest - 1) ++sample.bits[lowest_bit(rest)];
  });
  return sample;
}

//! Writes to `bits` the widest split of two sides from their bits' counts: the bits that rule
//! out the most pairs (a bit set in a share p of one side and q of the other rules out p q of
//! them, whichever side is stored), at most `max_bits` of the low `key_bits`, most first, the
//! lower bit first among equals, none that rules out nothing; returns how many.
NQUEENS_HOST_DEVICE int choose_shared_bits(const std::uint64_t* one, const std::uint64_t* other, int key_bits,
                                           int max_bits, std::uint8_t* bits) {
  const int candidates = key_bits < 64 ? key_bits : 64;
  int most = max_bits < kMaxSplitBits ? max_bits : kMaxSplitBits;
  if (most > candidates) most = candidates;
  std::uint64_t taken = 0;
  int count = 0;
  for (; count < most; ++count) {
    int best = -1;
    std::uint64_t best_shared = 0;
    for (int bit = 0; bit < candidates; ++bit) {
      const std::uint64_t shared = one[bit] * other[bit];
      if (((taken >> bit) & 1) == 0 && shared > best_shared) {
        best = bit;
        best_shared = shared;
      }
    }
    if (best < 0) break;
    taken |= std::uint64_t{1} << best;
    bits[count] = static_cast<std::uint8_t>(best);
  }
  return count;
}

//! Threads of a block that chooses a row set's split: the parts each side's sample is cut in.
inline constexpr std::uint32_t kChooseThreads = 64;

//! A side's sums in a choosing block: its 64 bits' counts, its kept halves, its tested candidates.
inline constexpr std::uint32_t kSideSums = 66;

//! A choosing block's shared memory: each part's counts of its sample's bits, its kept halves
//! and its tested candidates, then each side's sums (its 64 bits', its kept, its tested).
struct ChooseRoom {
  std::uint16_t bits[2][kChooseThreads][64];
  std::uint32_t kept[2][kChooseThreads];
  std::uint32_t tested[2][kChooseThreads];
  std::uint64_t sums[2][kSideSums];
};

//! Chooses row set `r`'s widest split on `block` (block_steps.hpp; its count sides 2 r and
//! 2 r + 1, their pairings and entries): where the host reserved one (rule.count > 0), writes
//! the bits it takes, and their count, to both sides' rules. Each side's sample is cut into
//! kChooseThreads parts, a step each, and its counts summed a bit a step: the sample, and so the
//! choice, is the same whatever the block's threads or their order. Sides whose halves, as
//! sampled, fall well short of a split are counted on none: a side on the widest split costs
//! 512 counters each way. Returns the candidates it tested (what the device model prices the
//! choice by).
template <class Block>
NQUEENS_HOST_DEVICE std::uint64_t choose_row_set_split(const Block& block, SideSort* sides, const PlanRowSet* row_sets,
                                                       std::uint32_t r, const SetPairing* pairings,
                                                       const join::QuarterEntry* entries, const PlanRule& rule,
                                                       ChooseRoom& room) {
  SideSort* pair = sides + std::size_t{2} * r;
  const int room_bits = pair[0].rule.count;
  if (room_bits <= 0) return 0;
  const int key_bits = static_cast<int>(row_sets[r].key_bits);
  const std::uint64_t mask = key_mask(key_bits);
  const std::uint64_t candidates[2] = {candidates_of(pair[0].recipe, pairings),
                                       candidates_of(pair[1].recipe, pairings)};
  block.each(2 * kChooseThreads, [&](std::uint32_t i) {
    const std::uint32_t side = i / kChooseThreads, part = i % kChooseThreads;
    std::uint16_t* bits = room.bits[side][part];
    for (int bit = 0; bit < 64; ++bit) bits[bit] = 0;
    std::uint32_t kept = 0;
    room.tested[side][part] =
        static_cast<std::uint32_t>(sample_part(pair[side].recipe, pairings, entries, candidates[side],
                                               kSampleCandidates, part, kChooseThreads, [&](std::uint64_t key) {
                                                 ++kept;
                                                 for (std::uint64_t rest = key & mask; rest != 0; rest &= rest - 1)
                                                   ++bits[lowest_bit(rest)];
                                               }));
    room.kept[side][part] = kept;
  });
  block.each(2 * kSideSums, [&](std::uint32_t i) {
    const std::uint32_t side = i / kSideSums, what = i % kSideSums;
    std::uint64_t sum = 0;
    for (std::uint32_t part = 0; part < kChooseThreads; ++part)
      sum += what < 64 ? room.bits[side][part][what] : what == 64 ? room.kept[side][part] : room.tested[side][part];
    room.sums[side][what] = sum;
  });
  double halves[2] = {};
  for (std::uint32_t side = 0; side < 2; ++side) {
    const std::uint64_t tested = room.sums[side][65];
    halves[side] = static_cast<double>(candidates[side]) * static_cast<double>(room.sums[side][64]) /
                   static_cast<double>(tested > 0 ? tested : 1);
  }
  const std::uint64_t least = rule.least_stored > kTileLanes + 1 ? rule.least_stored : kTileLanes + 1;
  BucketRule chosen = pair[0].rule;
  chosen.count = 0;
  if (2 * (halves[0] > halves[1] ? halves[0] : halves[1]) >= static_cast<double>(least))
    chosen.count = choose_shared_bits(room.sums[0], room.sums[1], key_bits, room_bits, chosen.bits);
  for (int i = chosen.count; i < kMaxSplitBits; ++i) chosen.bits[i] = 0;
  const std::uint64_t tested = room.sums[0][65] + room.sums[1][65];
  block.each(2, [&](std::uint32_t side) { pair[side].rule = chosen; });
  return tested;
}

//! nq_choose_splits on this CPU, a row set after another, each on a block of kChooseThreads.
inline void choose_splits_on_host(SideSort* sides, const PlanRowSet* row_sets, std::uint32_t count,
                                  const SetPairing* pairings, const join::QuarterEntry* entries, const PlanRule& rule) {
  static thread_local ChooseRoom room;
  for (std::uint32_t r = 0; r < count; ++r)
    choose_row_set_split(HostBlock{kChooseThreads}, sides, row_sets, r, pairings, entries, rule, room);
}

}  // namespace nqueens::gpu
