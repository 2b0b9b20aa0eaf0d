#include "gpu/slot_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nqueens::gpu {

SlotSplit::SlotSplit(std::span<const int> bits) : count_(static_cast<int>(bits.size())) {
  for (std::size_t i = 0; i < bits.size(); ++i) {
    bits_[i] = bits[i];
    const int byte = bits[i] / 8;
    int slot = 0;
    while (slot < byte_count_ && bytes_[static_cast<std::size_t>(slot)] != byte) ++slot;
    if (slot == byte_count_) bytes_[static_cast<std::size_t>(byte_count_++)] = byte;
    auto& table = patterns_[static_cast<std::size_t>(slot)];
    for (unsigned value = 0; value < 256; ++value)
      if ((value >> (bits[i] % 8)) & 1) table[value] = static_cast<std::uint8_t>(table[value] | (1u << i));
  }
}

namespace {

// Bit frequencies and slot sizes are estimated on about this many keys of each side.
constexpr std::size_t kSampleKeys = 512;

std::size_t size_of(const join::KeyParts& parts) { return parts[0].size() + parts[1].size(); }

// Every step-th key of both parts, one step for the whole side; returns how many were visited.
template <typename Visit>
std::size_t sample(const join::KeyParts& keys, Visit visit) {
  const std::size_t step = std::max<std::size_t>(1, size_of(keys) / kSampleKeys);
  std::size_t sampled = 0;
  for (const auto part : keys)
    for (std::size_t i = 0; i < part.size(); i += step, ++sampled) visit(part[i]);
  return sampled;
}

BitCounts sampled_bit_counts(const join::KeyParts& keys, int key_bits) {
  BitCounts counts{};
  const std::uint64_t mask = key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
  sample(keys, [&](std::uint64_t key) {
    for (std::uint64_t rest = key & mask; rest != 0; rest &= rest - 1)
      ++counts[static_cast<std::size_t>(__builtin_ctzll(rest))];
  });
  return counts;
}

SlotSplit most_shared_key_bits(const join::KeyParts& stored, const join::KeyParts& queries, int key_bits,
                               int max_bits) {
  return most_shared_bits(sampled_bit_counts(stored, key_bits), sampled_bit_counts(queries, key_bits), key_bits,
                          max_bits);
}

// Keys per pattern, estimated from a sample.
PatternCounts sampled_pattern_counts(const join::KeyParts& keys, const SlotSplit& split) {
  PatternCounts counts{};
  const std::size_t sampled = sample(keys, [&](std::uint64_t key) { ++counts[split.pattern_of(key)]; });
  for (double& count : counts) count *= static_cast<double>(size_of(keys)) / static_cast<double>(sampled);
  return counts;
}

double tiles_of(double keys) { return std::ceil(keys / kTileLanes); }

// The tiles' work on the first `count` bits of the split that counted the patterns: every
// slot's tiles are built once and answer the queries of each compatible group (a subset of the
// bits the slot lacks), in pieces of 32.
double tile_passes(const PatternCounts& stored, const PatternCounts& queries, int count) {
  const std::uint32_t slots = 1u << count;
  PatternCounts slot_keys{}, within{};  // within[m]: the queries of every group that is a subset of m
  for (std::uint32_t pattern = 0; pattern < kMaxGroups; ++pattern) slot_keys[pattern & (slots - 1)] += stored[pattern];
  for (std::uint32_t pattern = 0; pattern < kMaxGroups; ++pattern) within[pattern & (slots - 1)] += queries[pattern];
  for (std::uint32_t group = 0; group < slots; ++group) within[group] = std::ceil(within[group] / 32) * 32;
  for (std::uint32_t bit = 1; bit < slots; bit <<= 1)
    for (std::uint32_t mask = 0; mask < slots; ++mask)
      if (mask & bit) within[mask] += within[mask ^ bit];
  double passes = 0;
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const double meeting = within[~slot & (slots - 1)];
    if (slot_keys[slot] >= 0.5 && meeting > 0) passes += tiles_of(slot_keys[slot]) * (kBuildPasses + meeting);
  }
  return passes;
}

bool may_split(std::size_t stored, std::size_t queries, const SplitRule& rule) {
  // A side that one tile holds is built once whatever the split: nothing to spare.
  const std::size_t least = std::max<std::size_t>(rule.least_stored, kTileLanes + 1);
  return stored >= least && queries != 0 && rule.max_bits > 0;
}

bool may_split(join::KeyParts stored, join::KeyParts queries, const SplitRule& rule) {
  return may_split(size_of(stored), size_of(queries), rule);
}

// The prefix of `widest` that leaves the fewest passes, if it spares enough of them.
PricedSplit best_prefix(const SlotSplit& widest, const PatternCounts& stored_counts, const PatternCounts& query_counts,
                        const SplitRule& rule) {
  int best = 0;
  const double unsplit = tile_passes(stored_counts, query_counts, 0);
  double best_passes = unsplit;
  for (int count = 1; count <= widest.count(); ++count) {
    const double passes = tile_passes(stored_counts, query_counts, count);
    if (passes < best_passes) {
      best = count;
      best_passes = passes;
    }
  }
  if (best_passes > rule.most_passes_kept * unsplit) return {{}, unsplit};
  return {widest.first(best), best_passes};
}

PricedSplit choose_priced_split(join::KeyParts stored, join::KeyParts queries, int key_bits, const SplitRule& rule) {
  const SlotSplit widest = most_shared_key_bits(stored, queries, key_bits, rule.max_bits);
  return best_prefix(widest, sampled_pattern_counts(stored, widest), sampled_pattern_counts(queries, widest), rule);
}

}  // namespace

// The bits that rule out the most pairs: a bit set in a fraction p of the stored keys and q of
// the queries rules out p q of the pairs. A bit never set in one side rules out none.
SlotSplit most_shared_bits(const BitCounts& in_stored, const BitCounts& in_queries, int key_bits, int max_bits) {
  const auto shared = [&](int bit) {
    return in_stored[static_cast<std::size_t>(bit)] * in_queries[static_cast<std::size_t>(bit)];
  };
  std::array<int, 64> order{};
  std::iota(order.begin(), order.end(), 0);
  const int candidates = std::min(key_bits, 64);
  const int count = std::clamp(max_bits, 0, std::min(kMaxSplitBits, candidates));
  std::partial_sort(order.begin(), order.begin() + count, order.begin() + candidates,
                    [&](int left, int right) { return shared(left) > shared(right); });
  int useful = 0;
  while (useful < count && shared(order[static_cast<std::size_t>(useful)]) > 0) ++useful;
  return SlotSplit(std::span<const int>(order.data(), static_cast<std::size_t>(useful)));
}

BitCounts count_bits(std::span<const std::uint64_t> keys, int key_bits) {
  BitCounts counts{};
  const std::uint64_t mask = key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
  for (const std::uint64_t key : keys)
    for (std::uint64_t rest = key & mask; rest != 0; rest &= rest - 1)
      ++counts[static_cast<std::size_t>(__builtin_ctzll(rest))];
  return counts;
}

PricedSplit price_counted_split(const CountedSide& stored, const CountedSide& queries, const SlotSplit& widest,
                                const SplitRule& rule) {
  if (!may_split(stored.keys, queries.keys, rule)) return {{}, unsplit_passes(stored.keys, queries.keys)};
  return best_prefix(widest, stored.patterns, queries.patterns, rule);
}

PricedSplit price_split(join::KeyParts stored, join::KeyParts queries, int key_bits, const SplitRule& rule) {
  if (!may_split(stored, queries, rule)) return {{}, unsplit_passes(size_of(stored), size_of(queries))};
  return choose_priced_split(stored, queries, key_bits, rule);
}

double unsplit_passes(std::size_t stored, std::size_t queries) {
  const double cuts = std::ceil(static_cast<double>(queries) / kQueriesPerTile);
  return tiles_of(static_cast<double>(stored)) * (static_cast<double>(queries) + kBuildPasses * cuts);
}

SlotSplit choose_split(join::KeyParts stored, join::KeyParts queries, int key_bits, const SplitRule& rule) {
  if (!may_split(stored, queries, rule)) return {};
  return choose_priced_split(stored, queries, key_bits, rule).split;
}

}  // namespace nqueens::gpu
