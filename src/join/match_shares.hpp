#pragma once
// One count of disjoint pairs (count_weighted_disjoint_pairs()) cut into exact shares whose
// times add up to the count's: `plan` times a unit too costly to count whole on a few of them.
//
// The matcher's choices (which side is stored, its slot split) depend on the sides' sizes, so a
// share that matched a part of one side against the other would choose again, for sides of
// other sizes, and take another time than its part of the whole. Here the choices are made
// once, for the whole sides, with everything the slots share (the keys sorted into slots, the
// queries prepared); each share then loads and queries some of the slots, or where there is no
// split, a range of the queries.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "join/disjoint_count.hpp"
#include "join/slot_split.hpp"

namespace nqueens::join {

namespace detail {

//! How count_weighted_disjoint_pairs() counts two sides: pair by pair, or with one side stored,
//! both its parts together in slots on splits[0]'s bits, or each part apart on a split of its own
//! (a split of 0 bits: none).
struct MatchChoice {
  bool one_by_one = false;
  std::uint64_t shared = 0;  //!< the bits that can clash, for the pairs one by one
  bool a_stored = true;
  bool apart = false;
  std::array<SlotBits, 2> splits{};
};

MatchChoice choose_match(const DisjointCounter& counter, const KeyParts& a, const KeyParts& b, int key_bits);

//! One load of a stored side (or of one of its parts) and the queries that meet it.
struct StoredLoad {
  KeyParts stored, queries;
  PartWeights weights;  //!< [stored part][query part]
  SlotBits split;
};
struct StoredLoads {
  std::array<StoredLoad, 2> loads;
  std::size_t count = 0;
};

//! The loads a choice that is not one by one makes.
StoredLoads stored_loads(const MatchChoice& choice, const KeyParts& a, const KeyParts& b, const PartWeights& weights);

//! The weighted pairs of a and b tested one by one on the bits `shared`.
std::uint64_t count_weighted_one_by_one(DisjointCounter& counter, const KeyParts& a, const KeyParts& b,
                                        const PartWeights& weights, std::uint64_t shared);

}  // namespace detail

class MatchShares {
 public:
  //! Chooses as count_weighted_disjoint_pairs(counter, a, b, weights, key_bits) does and deals its
  //! work to `shares` shares: each slot of a split whole to one share, the shares' predicted
  //! times (match_cost.hpp) kept even; a count without a split (one load, or pairs one by one)
  //! in `shares` ranges of its queries. `a` and `b` must outlive the shares' counts.
  MatchShares(DisjointCounter& counter, KeyParts a, KeyParts b, const PartWeights& weights, int key_bits,
              std::size_t shares);
  std::size_t shares() const { return shares_.size(); }
  //! The weighted pairs of share `share`: over all shares, count_weighted_disjoint_pairs()'s.
  std::uint64_t count(DisjointCounter& counter, std::size_t share) const;

 private:
  // A slot of one of the loads, or where the load has no split, a range of its queries.
  struct Work {
    std::size_t load = 0, slot = 0, range = 0, ranges = 1;
  };
  void deal_slots(std::size_t load, const DisjointCounter& counter, std::vector<double>& predicted);

  KeyParts a_, b_;
  PartWeights weights_;
  detail::MatchChoice choice_;
  std::vector<detail::SlotCount> loads_;  // none where the pairs go one by one
  std::vector<std::vector<Work>> shares_;
};

}  // namespace nqueens::join
