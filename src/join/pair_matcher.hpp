#pragma once
// Where a row set's pairs can be counted other than on the thread that enumerated its halves.
//
// A JoinCounter enumerates the keys of a row set's two sides and counts their disjoint pairs with
// its own DisjointCounter. An engine that counts pairs elsewhere (the gpu engine, on a device)
// gives it a PairMatcher instead: the counter hands it every (east, west) pair of key sets and the
// matcher reports each unit's pairs when asked, possibly long after the keys were handed over.
#include <cstddef>
#include <cstdint>
#include <span>

#include "join/disjoint_count.hpp"

namespace nqueens::join {

//! The weights of an unfolded count: every key in part 0, each disjoint pair counts once.
inline constexpr PartWeights kOnePart = {{{1, 0}, {0, 0}}};

class PairMatcher {
 public:
  virtual ~PairMatcher() = default;
  //! Adds, to what finish() reports for `slot`, the sum over i, j of weights[i][j] times the
  //! disjoint pairs of east[i] and west[j] (count_weighted_disjoint_pairs). The keys may be copied
  //! before this returns, so the spans need not outlive the call.
  virtual void match(std::size_t slot, KeyParts east, KeyParts west, const PartWeights& weights, int key_bits) = 0;
  //! Writes each slot's pairs since the last finish() to pairs[slot] (slots never matched: 0),
  //! once all of them are counted; then starts over.
  virtual void finish(std::span<std::uint64_t> pairs) = 0;
};

}  // namespace nqueens::join
