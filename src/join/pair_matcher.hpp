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
#include <stdexcept>

#include "join/diagonal_fold.hpp"
#include "join/disjoint_count.hpp"
#include "join/join_layout.hpp"
#include "join/quarter_slice.hpp"

namespace nqueens::join {

//! The weights of an unfolded count: every key in part 0, each disjoint pair counts once.
inline constexpr PartWeights kOnePart = {{{1, 0}, {0, 0}}};

//! A row set as a matcher that builds its own halves is handed it: its four quadrants' slices,
//! its layout, and its diagonal fold (null: unfolded, the off-centre units).
struct RowSetSlices {
  const QuarterSlice& east_north;
  const QuarterSlice& east_south;
  const QuarterSlice& west_north;
  const QuarterSlice& west_south;
  const UnitLayout& layout;
  const DiagonalFold* fold;
};

class PairMatcher {
 public:
  virtual ~PairMatcher() = default;
  //! Whether it builds each row set's halves itself from their slices (match_slices), where
  //! they are matched, rather than being handed their keys (match).
  virtual bool builds_halves() const { return false; }
  //! Adds the row set's pairs (weighted by its fold, as match() weighs them) to what finish()
  //! reports for `slot`, and its halves, east and west, to the slot's halves.
  virtual void match_slices(std::size_t /*slot*/, const RowSetSlices& /*row_set*/) {
    throw std::logic_error("PairMatcher::match_slices: this matcher is handed keys");
  }
  //! Adds, to what finish() reports for `slot`, the sum over i, j of weights[i][j] times the
  //! disjoint pairs of east[i] and west[j] (count_weighted_disjoint_pairs). The keys may be copied
  //! before this returns, so the spans need not outlive the call.
  virtual void match(std::size_t slot, KeyParts east, KeyParts west, const PartWeights& weights, int key_bits) = 0;
  //! Writes each slot's pairs since the last finish() to pairs[slot], and the halves it built
  //! for the slot (match_slices) to halves[slot] (slots never matched, and a matcher handed keys:
  //! 0), once all of them are counted; then starts over. The spans are as long.
  virtual void finish(std::span<std::uint64_t> pairs, std::span<std::uint64_t> halves) = 0;
};

}  // namespace nqueens::join
