#include "join/slot_split.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "join/bit_gather.hpp"
#include "join/match_cost.hpp"

namespace nqueens::join::detail {

namespace {

std::uint64_t low_bits(int count) { return count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1; }

// Bit frequencies and slot sizes are estimated on an eighth of each side's keys, from 128 to
// 1024 of them: weighing a split of a side of a few thousand keys must cost far less than the
// quarter or so of its matching that the split spares.
constexpr std::size_t kLeastSampleKeys = 128;
constexpr std::size_t kMostSampleKeys = 1024;
// Splits wider than 10 bits (sides of 128K keys and more) have more slots than that sample has
// keys: their slot sizes are estimated on four keys a slot, or the slots a sample misses would
// price as empty and the blocks of a wide split too few.
constexpr int kWidestOnTheSmallSample = 10;
constexpr std::size_t kSampleKeysPerSlot = 4;

std::size_t most_sampled_keys(int widest_bits) {
  return widest_bits <= kWidestOnTheSmallSample ? kMostSampleKeys : kSampleKeysPerSlot << widest_bits;
}

// Every step-th key of both parts, one step for the whole side: the parts are sampled in
// proportion to their sizes.
template <typename Visit>
void sample(const KeyParts& keys, std::size_t most, Visit visit) {
  const std::size_t sampled = std::clamp(size_of(keys) / 8, kLeastSampleKeys, most);
  const std::size_t step = std::max<std::size_t>(1, size_of(keys) / sampled);
  for (const auto part : keys)
    for (std::size_t i = 0; i < part.size(); i += step) visit(part[i]);
}

// Each byte value's eight bits, one to a byte of a word: adding it to a word of eight byte-wide
// counters counts each bit in its own counter, eight bits an addition, with no branch per bit.
constexpr std::array<std::uint64_t, 256> kBitsToBytes = [] {
  std::array<std::uint64_t, 256> table{};
  for (std::size_t value = 0; value < 256; ++value)
    for (std::size_t bit = 0; bit < 8; ++bit) table[value] |= std::uint64_t{(value >> bit) & 1} << (8 * bit);
  return table;
}();

std::array<std::uint64_t, 64> sampled_bit_counts(const KeyParts& keys, std::uint64_t key_mask) {
  std::array<std::uint64_t, 64> counts{};
  std::array<std::uint64_t, 8> bytes{};  // bytes[b]: the counters of key bits 8b .. 8b + 7
  int added = 0;
  const auto drain = [&] {
    for (std::size_t b = 0; b < 8; ++b)
      for (std::size_t bit = 0; bit < 8; ++bit) counts[8 * b + bit] += (bytes[b] >> (8 * bit)) & 0xff;
    bytes = {};
    added = 0;
  };
  sample(keys, kMostSampleKeys, [&](std::uint64_t key) {
    key &= key_mask;
    for (std::size_t b = 0; b < 8; ++b) bytes[b] += kBitsToBytes[(key >> (8 * b)) & 0xff];
    if (++added == 255) drain();  // before a byte-wide counter could overflow
  });
  drain();
  return counts;
}

// Per slot of the widest split weighed: 2^widest entries, not 2^kMaxSlotBits, so that weighing a split
// of a few bits does not clear and walk a thousand.
using SlotSizes = std::vector<double>;

// Keys per slot on all of `split`'s bits, estimated from a sample of both parts: a side's parts
// (the fold's ties and the rest) spread over the slots alike, and the ties are too few to sample
// on their own. The sample's slots are worked out a batch of keys at a time (SlotBits::slots_of()).
SlotSizes sampled_slot_sizes(const KeyParts& keys, const SlotBits& split) {
  SlotSizes sizes(std::size_t{1} << split.count);
  constexpr std::size_t kBatch = 256;
  std::array<std::uint64_t, kBatch> batch;
  std::array<std::uint16_t, kBatch> slots;
  std::size_t sampled = 0, batched = 0;
  const auto count_batch = [&] {
    split.slots_of({batch.data(), batched}, slots.data());
    for (std::size_t i = 0; i < batched; ++i) ++sizes[slots[i]];
    sampled += batched;
    batched = 0;
  };
  sample(keys, most_sampled_keys(split.count), [&](std::uint64_t key) {
    batch[batched++] = key;
    if (batched == kBatch) count_batch();
  });
  count_batch();
  for (double& size : sizes) size *= static_cast<double>(size_of(keys)) / static_cast<double>(sampled);
  return sizes;
}

// For every slot, the queries of the groups it is compatible with (those sharing none of its
// bits, the subsets of its complement): sums over subsets, c 2^c additions rather than 4^c.
SlotSizes compatible_queries(const SlotSizes& groups, std::size_t slots) {
  SlotSizes subset_sums = groups;
  for (std::size_t bit = 1; bit < slots; bit <<= 1)
    for (std::size_t pattern = 0; pattern < slots; ++pattern)
      if ((pattern & bit) != 0) subset_sums[pattern] += subset_sums[pattern ^ bit];
  SlotSizes meeting(slots);
  for (std::size_t slot = 0; slot < slots; ++slot) meeting[slot] = subset_sums[~slot & (slots - 1)];
  return meeting;
}

// The blocks of `lanes` keys a part expected to hold `keys` keys takes: its full blocks, and one
// more with the chance that the rest is not empty. (The ceiling of the expected keys would price
// a part of 0.1 keys a slot, as the fold's ties are under a wide split, at a block a slot where
// nine slots in ten have none.)
double expected_blocks(double keys, std::size_t lanes) {
  if (keys <= 0) return 0;  // what the formula gives, without its exp (a part priced on its own)
  const double full = std::floor(keys / static_cast<double>(lanes));
  return full + 1 - std::exp(-(keys - full * static_cast<double>(lanes)));
}

double expected_load_blocks(const std::array<double, 2>& keys, BlockLanes lanes) {
  const double wide = expected_blocks(keys[0], lanes.wide) + expected_blocks(keys[1], lanes.wide);
  if (lanes.narrow == 0) return wide;
  return std::min(
      wide, kNarrowBlockShare * (expected_blocks(keys[0], lanes.narrow) + expected_blocks(keys[1], lanes.narrow)));
}

// A split on the first `count` bits (0: no split), from the slot sizes on all of the widest
// split's bits: each slot's stored keys and the queries of the groups it is compatible with.
// Shared by every pricing of that width (both stored parts together, and each on its own).
struct SplitSlots {
  int count = 0;
  SlotSizes stored, meeting;
  double queries = 0;
};

SplitSlots split_slots(const SlotSizes& stored, const SlotSizes& queries, int count) {
  const std::size_t slots = std::size_t{1} << count;
  SplitSlots split{count, SlotSizes(slots), {}, 0};
  SlotSizes queries_in(slots);
  for (std::size_t pattern = 0; pattern < stored.size(); ++pattern) {
    split.stored[pattern & (slots - 1)] += stored[pattern];
    queries_in[pattern & (slots - 1)] += queries[pattern];
    split.queries += queries[pattern];
  }
  split.meeting = compatible_queries(queries_in, slots);
  return split;
}

// The work of that split for stored parts holding `shares` of the stored keys (a part left out
// with share 0): each slot's blocks, a part's own, answer the queries of every group the slot
// is compatible with.
SplitWork split_work(const SplitSlots& split, const std::array<double, 2>& shares, BlockLanes lanes) {
  SplitWork work;
  work.queries = split.queries;
  for (std::size_t slot = 0; slot < split.stored.size(); ++slot) {
    const double stored_in = split.stored[slot], meeting = split.meeting[slot];
    if (stored_in <= 0 || meeting <= 0) continue;
    const double blocks = expected_load_blocks({shares[0] * stored_in, shares[1] * stored_in}, lanes);
    work.blocks += blocks;
    work.block_queries += blocks * meeting;
    work.visits += std::ldexp(1.0, split.count - std::popcount(slot));
  }
  return work;
}

std::array<double, 2> part_shares(const KeyParts& keys) {
  const auto all = static_cast<double>(size_of(keys));
  return {static_cast<double>(keys[0].size()) / all, static_cast<double>(keys[1].size()) / all};
}

// Calls `visit` with every group a slot is compatible with: the subsets of its complement.
template <typename Visit>
void for_compatible_groups(std::size_t slot, std::size_t slots, Visit visit) {
  // In ascending order, as the groups lie in the prepared queries.
  const std::size_t complement = ~slot & (slots - 1);
  for (std::size_t group = 0;; group = (group - complement) & complement) {
    visit(group);
    if (group == complement) break;
  }
}

}  // namespace

// With `gather`, slots are numbered by PEXT (the split's bits in ascending order, not most shared
// first): any numbering serves, as long as the stored keys and the queries share it.
Slots::Slots(std::span<const std::uint64_t> unsorted, const SlotBits& split, std::uint64_t key_mask, bool gather)
    : sorted(std::make_unique_for_overwrite<std::uint64_t[]>(unsorted.size())),
      size(unsorted.size()),
      starts((std::size_t{1} << split.count) + 1) {
  const std::size_t slots = std::size_t{1} << split.count;
  // Each key's slot worked out once. Keys in a row often share a slot, so the keys are dealt
  // to four streams (key i to stream i % 4), each with its own counts and its own place in
  // every slot: a key's increment and store do not wait on the key before it.
  const auto slot_of = std::make_unique_for_overwrite<std::uint16_t[]>(unsorted.size());
  if (gather) {
    gather_bits(unsorted, split.mask(), slot_of.get());
  } else {
    split.slots_of(unsorted, slot_of.get());
  }
  std::vector<std::size_t> next(kStreams * slots);  // next[stream * slots + slot]: counts, then places
  for (std::size_t i = 0; i < size; ++i) ++next[(i % kStreams) * slots + slot_of[i]];
  std::size_t place = 0;
  for (std::size_t slot = 0; slot < slots; ++slot) {
    starts[slot] = place;
    for (std::size_t stream = 0; stream < kStreams; ++stream)
      place += std::exchange(next[stream * slots + slot], place);
  }
  starts[slots] = place;
  const std::uint64_t kept = key_mask & ~split.mask();
  for (std::size_t i = 0; i < unsorted.size(); ++i)
    sorted[next[(i % kStreams) * slots + slot_of[i]]++] = unsorted[i] & kept;
}

// The bits that rule out the most pairs: a bit set in a fraction p of the stored keys and q of
// the queries rules out p q of the pairs, so the largest products of the two frequencies (of
// the two sampled counts, as both samples have fixed sizes).
SlotBits most_shared_bits(const KeyParts& stored, const KeyParts& queries, int key_bits, int count) {
  const std::uint64_t key_mask = low_bits(key_bits);
  const auto in_stored = sampled_bit_counts(stored, key_mask);
  const auto in_queries = sampled_bit_counts(queries, key_mask);
  std::array<int, 64> order{};
  std::iota(order.begin(), order.end(), 0);
  const auto shared = [&](int bit) {
    return in_stored[static_cast<std::size_t>(bit)] * in_queries[static_cast<std::size_t>(bit)];
  };
  SlotBits chosen;
  chosen.count = std::min(count, key_bits);
  std::partial_sort(order.begin(), order.begin() + chosen.count, order.begin() + key_bits,
                    [&](int left, int right) { return shared(left) > shared(right); });
  std::copy_n(order.begin(), chosen.count, chosen.bits.begin());
  return chosen;
}

double split_ns(const SplitWork& work) {
  return kBuildBlockNs * work.blocks + kQueryBlockNs * work.block_queries + kQueryNs * work.queries +
         kSlotVisitNs * work.visits;
}

std::vector<SplitWork> split_works(const KeyParts& stored, const KeyParts& queries, const SlotBits& widest,
                                   BlockLanes lanes) {
  const SlotSizes stored_sizes = sampled_slot_sizes(stored, widest);
  const SlotSizes query_sizes = sampled_slot_sizes(queries, widest);
  std::vector<SplitWork> works;
  for (int count = 0; count <= widest.count; ++count)
    works.push_back(split_work(split_slots(stored_sizes, query_sizes, count), part_shares(stored), lanes));
  return works;
}

// The cheapest split of both stored parts together, and of each part on its own: one sample of
// each side prices all of them.
SplitChoice choose_split(const KeyParts& stored, const KeyParts& queries, int key_bits, BlockLanes lanes) {
  const int most_bits = widest_split_bits(std::min(size_of(stored), size_of(queries)));
  const SlotBits widest = most_shared_bits(stored, queries, key_bits, most_bits);
  const SlotSizes stored_sizes = sampled_slot_sizes(stored, widest);
  const SlotSizes query_sizes = sampled_slot_sizes(queries, widest);
  const std::array<double, 2> shares = part_shares(stored);
  std::vector<SplitSlots> splits;
  for (int count = 0; count <= widest.count; ++count) splits.push_back(split_slots(stored_sizes, query_sizes, count));
  // The cheapest width for stored parts of those shares, and its price.
  const auto cheapest = [&](const std::array<double, 2>& of) {
    std::pair<int, double> best{0, 0};
    for (int count = 0; count <= widest.count; ++count) {
      const double ns = split_ns(split_work(splits[static_cast<std::size_t>(count)], of, lanes));
      if (count == 0 || ns < best.second) best = {count, ns};
    }
    return best;
  };
  SplitChoice choice;
  const auto [together, together_ns] = cheapest(shares);
  choice.together = widest.first(together);
  choice.together_ns = together_ns;
  if (shares[0] > 0 && shares[1] > 0) {
    const auto [first, first_ns] = cheapest({shares[0], 0});
    const auto [second, second_ns] = cheapest({0, shares[1]});
    choice.apart = {widest.first(first), widest.first(second)};
    choice.apart_ns = first_ns + second_ns;
  }
  return choice;
}

SlotBits cheapest_split(const KeyParts& stored, const KeyParts& queries, int key_bits, BlockLanes lanes) {
  return choose_split(stored, queries, key_bits, lanes).together;
}

// Every slot is loaded under one layout (the live bits of all stored keys), so each query is
// prepared once and each group of queries is a range of the prepared ones. Without a split the
// one slot is every stored key, and the layout is chosen for the queries' number, as a plain
// load chooses it.
SlotCount::SlotCount(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries,
                     const PartWeights& weights, int key_bits, const SlotBits& split)
    : stored_(stored, split, low_bits(key_bits), counter.gathers_bits()),
      queries_(queries, split, low_bits(key_bits), counter.gathers_bits()),
      weights_(weights),
      split_count_(split.count),
      key_bits_(key_bits),
      stored_count_(size_of(stored)),
      query_count_(split.count == 0 ? size_of(queries) : DisjointCounter::kUnknownQueries) {
  for (const std::uint64_t key : stored_.first.keys()) live_bits_ |= key;
  for (const std::uint64_t key : stored_.second.keys()) live_bits_ |= key;
  SlotSizes groups(slots());
  for (std::size_t group = 0; group < slots(); ++group)
    groups[group] = static_cast<double>(size_of(queries_.slot(group)));
  meeting_ = compatible_queries(groups, slots());
  fix_layout(counter);
  counter.prepare(queries_.first.keys(), prepared_[0]);
  counter.prepare(queries_.second.keys(), prepared_[1]);
}

void SlotCount::fix_layout(DisjointCounter& counter) const {
  counter.fix_layout(live_bits_, stored_count_, key_bits_, query_count_);
}

bool SlotCount::counts_nothing(std::size_t slot) const {
  return size_of(stored_.slot(slot)) == 0 || meeting_[slot] == 0;
}

double SlotCount::slot_ns(std::size_t slot, BlockLanes lanes) const {
  if (counts_nothing(slot)) return 0;
  const double groups = std::ldexp(1.0, split_count_ - std::popcount(slot));
  return load_blocks(sizes_of(stored_.slot(slot)), lanes) * (kBuildBlockNs + kQueryBlockNs * meeting_[slot]) +
         kSlotVisitNs * groups;
}

std::uint64_t SlotCount::count_slot(DisjointCounter& counter, std::size_t slot, std::size_t range,
                                    std::size_t ranges) const {
  if (counts_nothing(slot)) return 0;
  counter.load_in_layout(stored_.slot(slot));
  std::uint64_t pairs = 0;
  for_compatible_groups(slot, slots(), [&](std::size_t group) {
    for (std::size_t part = 0; part < 2; ++part) {
      const Slots& groups = part == 0 ? queries_.first : queries_.second;
      const std::size_t first = groups.starts[group], count = groups.starts[group + 1] - first;
      const std::size_t from = first + count * range / ranges, to = first + count * (range + 1) / ranges;
      if (from == to) continue;
      const std::array<std::uint64_t, 2> counts = counter.count_prepared(prepared_[part], from, to - from);
      pairs += weights_[0][part] * counts[0] + weights_[1][part] * counts[1];
    }
  });
  return pairs;
}

std::uint64_t count_in_slots(DisjointCounter& counter, const KeyParts& stored, const KeyParts& queries,
                             const PartWeights& weights, int key_bits, const SlotBits& split) {
  const SlotCount count(counter, stored, queries, weights, key_bits, split);
  std::uint64_t pairs = 0;
  for (std::size_t slot = 0; slot < count.slots(); ++slot) pairs += count.count_slot(counter, slot);
  return pairs;
}

}  // namespace nqueens::join::detail
