#include "join/match_shares.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "join/match_cost.hpp"

namespace nqueens::join {

namespace {

// Range `range` of `ranges` equal ranges of each part of `keys`.
KeyParts range_of(const KeyParts& keys, std::size_t range, std::size_t ranges) {
  KeyParts cut;
  for (std::size_t part = 0; part < 2; ++part) {
    const std::size_t size = keys[part].size();
    cut[part] = keys[part].subspan(size * range / ranges, size * (range + 1) / ranges - size * range / ranges);
  }
  return cut;
}

}  // namespace

MatchShares::MatchShares(DisjointCounter& counter, KeyParts a, KeyParts b, const PartWeights& weights, int key_bits,
                         std::size_t shares)
    : a_(a), b_(b), weights_(weights), shares_(shares) {
  if (shares == 0) throw std::invalid_argument("MatchShares: a count needs at least one share");
  if (detail::size_of(a) == 0 || detail::size_of(b) == 0) return;
  choice_ = detail::choose_match(counter, a, b, key_bits);
  std::vector<double> predicted(shares);
  if (choice_.one_by_one) {
    for (std::size_t share = 0; share < shares; ++share) shares_[share].push_back({0, 0, share, shares});
    return;
  }
  const detail::StoredLoads loads = detail::stored_loads(choice_, a, b, weights);
  loads_.reserve(loads.count);
  for (std::size_t i = 0; i < loads.count; ++i) {
    const detail::StoredLoad& load = loads.loads[i];
    loads_.emplace_back(counter, load.stored, load.queries, load.weights, key_bits, load.split);
    deal_slots(i, counter, predicted);
  }
}

// The costliest slot first, each to the share predicted to take least so far (the longest
// processing time rule): slots of a wide split are many and small, and the shares come out
// within a few percent of each other. A load of one slot is dealt in ranges of its queries.
void MatchShares::deal_slots(std::size_t load, const DisjointCounter& counter, std::vector<double>& predicted) {
  const detail::SlotCount& slots = loads_[load];
  const std::size_t shares = shares_.size();
  if (slots.slots() == 1) {
    for (std::size_t share = 0; share < shares; ++share) shares_[share].push_back({load, 0, share, shares});
    return;
  }
  std::vector<std::pair<double, std::size_t>> by_cost;
  for (std::size_t slot = 0; slot < slots.slots(); ++slot) {
    const double ns = slots.slot_ns(slot, counter.block_lanes());
    if (ns > 0) by_cost.emplace_back(ns, slot);
  }
  std::sort(by_cost.begin(), by_cost.end(),
            [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
  for (const auto& [ns, slot] : by_cost) {
    const auto least =
        static_cast<std::size_t>(std::min_element(predicted.begin(), predicted.end()) - predicted.begin());
    shares_[least].push_back({load, slot, 0, 1});
    predicted[least] += ns;
  }
}

std::uint64_t MatchShares::count(DisjointCounter& counter, std::size_t share) const {
  std::uint64_t pairs = 0;
  std::size_t fixed = loads_.size();  // the load whose layout the counter has
  for (const Work& work : shares_.at(share)) {
    if (choice_.one_by_one) {
      pairs += detail::count_weighted_one_by_one(counter, range_of(a_, work.range, work.ranges), b_, weights_,
                                                 choice_.shared);
      continue;
    }
    if (work.load != fixed) loads_[work.load].fix_layout(counter);
    fixed = work.load;
    pairs += loads_[work.load].count_slot(counter, work.slot, work.range, work.ranges);
  }
  return pairs;
}

}  // namespace nqueens::join
