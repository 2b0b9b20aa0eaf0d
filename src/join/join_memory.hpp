#pragma once
// What a join run of n will hold, worked out before anything is allocated, from the unit count
// and the placements per quadrant row set: the unit list (with what the run keeps per unit), the
// slices one unit pins, each thread's key buffers (estimated from the cost model), and what is
// left of the budget for the slice cache. A budget too small for the unit list and one unit's
// slices and buffers per thread is refused.
#include <cstdint>
#include <string>

namespace nqueens::join {

struct JoinMemory {
  int n = 0;
  int threads = 0;
  std::uint64_t budget = 0;
  std::uint64_t units = 0;                //!< the run's units (the rotation unit included)
  std::uint64_t unit_list_bytes = 0;      //!< the units, their costs, orders and ledger
  std::uint64_t unit_slices_bytes = 0;    //!< the most one unit's four slices take
  std::uint64_t thread_buffer_bytes = 0;  //!< one thread's key buffers and matcher, estimated
  std::uint64_t largest_side = 0;         //!< the most halves one side of a unit has, estimated
  //! The most halves a thread holds of one side at once: largest_side when the budget has room
  //! for it on every thread, else what half of the budget's spare allows (the cache takes the
  //! other half), never fewer than kFewestHalvesAtOnce. A larger side is enumerated in parts.
  std::uint64_t halves_at_once = 0;
  std::uint64_t all_slices_bytes = 0;  //!< every slice of n: the whole quarter table
  std::uint64_t cache_bytes = 0;       //!< the slice cache's share of the budget
  std::string refusal;                 //!< why the budget is too small; "" when it fits
  //! What a thread takes at the least: one unit's slices without keys, its buffers at the
  //! fewest halves at once (0 when the plan was refused on the unit list).
  std::uint64_t least_thread_bytes = 0;

  //! The least budget that fits (the refusal's threshold).
  std::uint64_t minimum_budget() const;
  //! The refusal: what the budget lacks ("it needs at least ..."), with the parts it sums.
  std::string too_small() const;
  //! One line for the log: what the run will use.
  std::string describe() const;
};

//! The least a budget may leave a side's part: 2^20 halves, 128 MiB of a thread's buffers. Each
//! part of one side is matched against each part of the other, which costs nothing extra, but
//! the other side is enumerated again for each part: negligible while a part is this large.
inline constexpr std::uint64_t kFewestHalvesAtOnce = std::uint64_t{1} << 20;

//! What every slice of n takes: the whole quarter table, with its quadrant keys where `keys`.
std::uint64_t whole_table_bytes(int n, bool keys);

//! Whether the slices of n carry their quadrant keys in a cache of `cache_bytes`: only where
//! wants_quadrant_key_tables(n) and the cache holds the whole table with them. A cache that must
//! evict rebuilds slices, and keys make a slice five times larger and slower to build: an
//! off-centre unit reads every south row set of its north rows, so a small cache thrashes.
bool slices_carry_keys(int n, std::uint64_t cache_bytes);

//! The memory of a join run of n on `threads` threads under `budget` bytes. Reads the
//! placements per row set (one search over the quarter table, cached per k, no table kept).
JoinMemory plan_join_memory(int n, int threads, std::uint64_t budget);

}  // namespace nqueens::join
