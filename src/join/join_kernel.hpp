#pragma once
// Counts one unit: enumerate both halves' keys, then count the disjoint (east, west) pairs.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "join/disjoint_count.hpp"
#include "join/half_boards.hpp"
#include "join/join_plan.hpp"
#include "join/quarter_table.hpp"

namespace nqueens::join {

struct JoinCount {
  std::uint64_t pairs = 0;   //!< compatible (east, west) pairs, unweighted
  std::uint64_t halves = 0;  //!< east + west halves enumerated
};

//! Everything shared and read-only for one n.
class JoinTables {
 public:
  explicit JoinTables(int n);
  int n() const { return n_; }
  const QuarterTable& quarter() const { return quarter_; }
  //! Null where wants_quadrant_key_tables(n) is false.
  const QuadrantKeyTables* quadrant_keys() const { return quadrant_keys_ ? &*quadrant_keys_ : nullptr; }
  std::size_t memory_bytes() const;

 private:
  int n_;
  QuarterTable quarter_;
  std::optional<QuadrantKeyTables> quadrant_keys_;
};

//! Owned by one worker thread; its buffers grow to the largest unit seen and are then reused,
//! so a unit allocates nothing once they have grown.
class JoinCounter {
 public:
  explicit JoinCounter(const JoinTables& tables, MatchPath path = best_match_path());
  JoinCount count(const JoinUnit& unit);

 private:
  const JoinTables& tables_;
  HalfEnumerator enumerator_;
  KeyBuffer east_keys_, west_keys_;
  DisjointCounter matcher_;
};

}  // namespace nqueens::join
