#pragma once
// The widest split a row set's count pass sorts its sides on, chosen where its halves are built:
// plain C++ that nvcc compiles for the device (kernel nq_choose_splits, a thread a row set) and
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

//! Calls `kept(key)` for the half of each of about `most` candidates of `recipe` spread evenly
//! over all of them (every one when it has no more), its slices' entries in `entries`; returns
//! how many candidates it tested. Candidate c of a pairing is its north entry c / south_count
//! against its south entry c % south_count; the sample takes every step-th candidate of the
//! side, from half a step on.
template <class Kept>
NQUEENS_HOST_DEVICE std::uint64_t sample_candidates(const SideRecipe& recipe, const SetPairing* pairings,
                                                    const join::QuarterEntry* entries, std::uint64_t all,
                                                    std::uint64_t most, Kept kept) {
  const std::uint64_t per = all / (most > 0 ? most : 1);
  const std::uint64_t step = per > 0 ? per : 1;
  std::uint64_t tested = 0, first = 0, next = step / 2;  // first: the pairing's first candidate
  for (std::uint32_t p = 0; p < recipe.pairing_count; ++p) {
    const SetPairing& pairing = pairings[recipe.pairing_first + p];
    const std::uint64_t end = first + std::uint64_t{pairing.north_count} * pairing.south_count;
    for (; next < end; next += step, ++tested) {
      const std::uint64_t c = next - first;
      const join::QuarterEntry& n = entries[recipe.north_entries + pairing.north_first + c / pairing.south_count];
      const join::QuarterEntry& s = entries[recipe.south_entries + pairing.south_first + c % pairing.south_count];
      if (recipe.north.attacks_fixed_queen(n) || recipe.south.attacks_fixed_queen(s)) continue;
      const std::uint64_t north_key = recipe.north.key(n), south_key = recipe.south.key(s);
      if ((north_key & south_key) == 0) kept(north_key | south_key);
    }
    first = end;
  }
  return tested;
}

//! `recipe`'s sample of `most` candidates: its bits' counts over the low `key_bits` bits.
NQUEENS_HOST_DEVICE SideSample sample_side(const SideRecipe& recipe, const SetPairing* pairings,
                                           const join::QuarterEntry* entries, int key_bits,
                                           std::uint64_t most = kSampleCandidates) {
  SideSample sample;
  sample.candidates = candidates_of(recipe, pairings);
  const std::uint64_t mask = key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
  sample.tested = sample_candidates(recipe, pairings, entries, sample.candidates, most, [&](std::uint64_t key) {
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

//! Chooses row set `r`'s widest split (its count sides 2 r and 2 r + 1, their pairings and
//! entries): where the host reserved one (rule.count > 0), writes the bits it takes, and their
//! count, to both sides' rules. Sides whose halves, as sampled, fall well short of a split are
//! counted on none: a side on the widest split costs 512 counters each way. Returns the
//! candidates it tested (what the device model prices the choice by).
NQUEENS_HOST_DEVICE std::uint64_t choose_row_set_split(SideSort* sides, const PlanRowSet* row_sets, std::uint32_t r,
                                                       const SetPairing* pairings, const join::QuarterEntry* entries,
                                                       const PlanRule& rule) {
  SideSort& east = sides[std::size_t{2} * r];
  SideSort& west = sides[std::size_t{2} * r + 1];
  if (east.rule.count <= 0) return 0;
  const int key_bits = static_cast<int>(row_sets[r].key_bits);
  const SideSample east_sample = sample_side(east.recipe, pairings, entries, key_bits);
  const SideSample west_sample = sample_side(west.recipe, pairings, entries, key_bits);
  const double east_halves = east_sample.estimated_halves(), west_halves = west_sample.estimated_halves();
  const std::uint64_t least = rule.least_stored > kTileLanes + 1 ? rule.least_stored : kTileLanes + 1;
  int count = 0;
  if (2 * (east_halves > west_halves ? east_halves : west_halves) >= static_cast<double>(least))
    count = choose_shared_bits(east_sample.bits, west_sample.bits, key_bits, east.rule.count, east.rule.bits);
  east.rule.count = count;
  for (int i = count; i < kMaxSplitBits; ++i) east.rule.bits[i] = 0;
  west.rule = east.rule;
  return east_sample.tested + west_sample.tested;
}

//! nq_choose_splits on this CPU, a row set after another.
inline void choose_splits_on_host(SideSort* sides, const PlanRowSet* row_sets, std::uint32_t count,
                                  const SetPairing* pairings, const join::QuarterEntry* entries, const PlanRule& rule) {
  for (std::uint32_t r = 0; r < count; ++r) choose_row_set_split(sides, row_sets, r, pairings, entries, rule);
}

}  // namespace nqueens::gpu
