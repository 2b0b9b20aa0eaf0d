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

// The slots in their order, cut into runs of about equal predicted time, a run a share: each slot
// to the share in whose run the middle of its predicted time falls. Neighbouring slots meet
// mostly the same groups of queries, which stay in the cache from one slot to the next; dealt
// costliest first, each to the share predicted least loaded, the shares of N = 24's costliest
// units took 1.38 times the unit whole (bench/join_bench --share-times 24 2 4), where N = 22's,
// whose queries the cache holds, took 1.10. A load of one slot is dealt in ranges of its queries.
void MatchShares::deal_slots(std::size_t load, const DisjointCounter& counter, std::vector<double>& predicted) {
  const detail::SlotCount& slots = loads_[load];
  const std::size_t shares = shares_.size();
  if (slots.slots() == 1) {
    for (std::size_t share = 0; share < shares; ++share) shares_[share].push_back({load, 0, share, shares});
    return;
  }
  std::vector<double> ns(slots.slots());
  double total = 0;
  for (std::size_t slot = 0; slot < slots.slots(); ++slot)
    total += ns[slot] = slots.slot_ns(slot, counter.block_lanes());
  double before = 0;
  for (std::size_t slot = 0; slot < slots.slots(); ++slot) {
    if (!(ns[slot] > 0)) continue;
    const auto share =
        std::min(shares - 1, static_cast<std::size_t>((before + ns[slot] / 2) / total * static_cast<double>(shares)));
    shares_[share].push_back({load, slot, 0, 1});
    predicted[share] += ns[slot];
    before += ns[slot];
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
