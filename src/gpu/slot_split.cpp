#include "gpu/slot_split.hpp"

#include <algorithm>
#include <numeric>

namespace nqueens::gpu {

namespace {

// Bit frequencies are estimated on about this many keys of each side.
constexpr std::size_t kSampleKeys = 1024;

std::size_t size_of(const join::KeyParts& parts) { return parts[0].size() + parts[1].size(); }

std::array<std::uint64_t, 64> sampled_bit_counts(const join::KeyParts& keys, int key_bits) {
  std::array<std::uint64_t, 64> counts{};
  const std::uint64_t mask = key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
  const std::size_t step = std::max<std::size_t>(1, size_of(keys) / kSampleKeys);
  for (const auto part : keys)
    for (std::size_t i = 0; i < part.size(); i += step)
      for (std::uint64_t rest = part[i] & mask; rest != 0; rest &= rest - 1)
        ++counts[static_cast<std::size_t>(__builtin_ctzll(rest))];
  return counts;
}

// The bits that rule out the most pairs: a bit set in a fraction p of the stored keys and q of
// the queries rules out p q of the pairs. A bit never set in one side rules out none.
SlotSplit most_shared_bits(const join::KeyParts& stored, const join::KeyParts& queries, int key_bits) {
  const auto in_stored = sampled_bit_counts(stored, key_bits);
  const auto in_queries = sampled_bit_counts(queries, key_bits);
  const auto shared = [&](int bit) {
    return in_stored[static_cast<std::size_t>(bit)] * in_queries[static_cast<std::size_t>(bit)];
  };
  std::array<int, 64> order{};
  std::iota(order.begin(), order.end(), 0);
  const int candidates = std::min(key_bits, 64);
  const int count = std::min(kMaxSplitBits, candidates);
  std::partial_sort(order.begin(), order.begin() + count, order.begin() + candidates,
                    [&](int left, int right) { return shared(left) > shared(right); });
  SlotSplit split;
  while (split.count < count && shared(order[static_cast<std::size_t>(split.count)]) > 0) {
    split.bits[static_cast<std::size_t>(split.count)] = order[static_cast<std::size_t>(split.count)];
    ++split.count;
  }
  return split;
}

using PatternCounts = std::array<std::uint64_t, kMaxGroups>;

PatternCounts pattern_counts(const join::KeyParts& keys, const SlotSplit& split) {
  PatternCounts counts{};
  for (const auto part : keys)
    for (const std::uint64_t key : part) ++counts[split.pattern_of(key)];
  return counts;
}

std::uint64_t tiles_of(std::uint64_t keys) { return (keys + kTileLanes - 1) / kTileLanes; }

// The tiles' work on the first `count` bits of the split that counted the patterns: every
// slot's tiles are built once and answer the queries of each compatible group (a subset of the
// bits the slot lacks), in pieces of 32.
double tile_passes(const PatternCounts& stored, const PatternCounts& queries, int count) {
  const std::uint32_t slots = 1u << count;
  PatternCounts slot_keys{}, within{};  // within[m]: the queries of every group that is a subset of m
  for (std::uint32_t pattern = 0; pattern < kMaxGroups; ++pattern) slot_keys[pattern & (slots - 1)] += stored[pattern];
  for (std::uint32_t pattern = 0; pattern < kMaxGroups; ++pattern) within[pattern & (slots - 1)] += queries[pattern];
  for (std::uint32_t group = 0; group < slots; ++group) within[group] = (within[group] + 31) / 32 * 32;
  for (std::uint32_t bit = 1; bit < slots; bit <<= 1)
    for (std::uint32_t mask = 0; mask < slots; ++mask)
      if (mask & bit) within[mask] += within[mask ^ bit];
  double passes = 0;
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    const std::uint64_t meeting = within[~slot & (slots - 1)];
    if (slot_keys[slot] != 0 && meeting != 0)
      passes += static_cast<double>(tiles_of(slot_keys[slot])) * (kBuildPasses + static_cast<double>(meeting));
  }
  return passes;
}

}  // namespace

SlotSplit choose_split(join::KeyParts stored, join::KeyParts queries, int key_bits) {
  // A side that one tile holds is built once whatever the split: nothing to spare.
  if (size_of(stored) <= kTileLanes || size_of(queries) == 0) return {};
  SlotSplit widest = most_shared_bits(stored, queries, key_bits);
  const PatternCounts stored_counts = pattern_counts(stored, widest);
  const PatternCounts query_counts = pattern_counts(queries, widest);
  int best = 0;
  double best_passes = tile_passes(stored_counts, query_counts, 0);
  for (int count = 1; count <= widest.count; ++count) {
    const double passes = tile_passes(stored_counts, query_counts, count);
    if (passes < best_passes) {
      best = count;
      best_passes = passes;
    }
  }
  widest.count = best;
  return widest;
}

}  // namespace nqueens::gpu
