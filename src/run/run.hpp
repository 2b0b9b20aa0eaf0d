#pragma once
// The session: one N counted from start to finish, whoever drives it (nqueens::count(), the
// CLI's count, MPI's rank 0, merge). It replays a checkpoint journal, knows which units are
// left, keeps the ledger of per-unit counts, runs the scheduler over what is left, and builds
// the result. Drivers add only what is theirs: signals, progress, output, the network.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "run/engine.hpp"
#include "nqueens/count.hpp"
#include "nqueens/journal.hpp"
#include "nqueens/shard.hpp"
#include "nqueens/unit_record.hpp"
#include "run/zeroed_array.hpp"

namespace nqueens {

class Session {
 public:
  //! A session over the units `wanted` (any order, no repeats) of `engine`'s run; when a
  //! journal is given, the units it holds are counted already and every new one is appended.
  //! Both must outlive the session.
  Session(const Engine& engine, const std::vector<std::size_t>& wanted, Journal* journal);

  const Engine& engine() const { return engine_; }
  const std::vector<std::size_t>& wanted() const { return wanted_; }  //!< ascending
  std::size_t done_before() const { return done_before_; }            //!< wanted units the journal held
  std::vector<std::size_t> done() const;                              //!< wanted and counted, ascending
  std::vector<std::size_t> todo() const;                              //!< wanted, not counted, costliest first

  //! A finished unit: into the ledger, then the journal. Distinct ids may be recorded from
  //! different threads at once. Throws std::runtime_error for an id outside the run or one
  //! already recorded (a driver bug or a corrupted message, never to be summed twice).
  void record(const UnitCount& unit);

  //! Counts every unit still to do on `threads` threads, recording each before `observer` sees
  //! it. With `stop`, as run_units: no unit starts once it is set.
  void run(int threads, const UnitObserver& observer = {}, const std::atomic<bool>* stop = nullptr);

  bool complete() const;                 //!< every wanted unit counted
  std::vector<UnitCount> units() const;  //!< every wanted unit, ascending; throws if incomplete
  //! The result over the wanted units; throws std::runtime_error if incomplete. Its unit time
  //! covers them all, those the journal held included.
  CountResult result(int threads, double seconds) const;

  //! The time of the wanted units counted by this session (recorded, not replayed): this
  //! process's share of the result's unit time.
  UnitTime unit_time_here() const;

 private:
  std::uint64_t time_of(std::size_t id) const;
  UnitTime unit_time() const;  //!< over the wanted units counted so far

  const Engine& engine_;
  Journal* journal_;
  std::vector<std::size_t> wanted_;
  std::size_t done_before_ = 0;
  ZeroedArray<Tally> tallies_;         //!< by unit id; pages are first written by the workers (zeroed_array.hpp)
  ZeroedArray<std::uint64_t> micros_;  //!< by unit id: its time, where have_ is set
  ZeroedArray<char> have_;             //!< not bits: neighbouring slots are written by different threads
  UnitTime replayed_;                  //!< the time of the wanted units the journal held
};

//! Every unit id of the run, ascending.
std::vector<std::size_t> all_ids(const Engine& engine);

//! The ids of one shard, ascending. Units are dealt costliest first (by the engine's costs, ties
//! by id) to whichever shard has the least estimated work so far (ties: the lowest shard), so the
//! shards of a run partition its ids, carry nearly equal work, and are the same on every
//! machine.
std::vector<std::size_t> shard_ids(const Engine& engine, ShardSpec shard);

//! The one place a CountResult is made: from the run's header, the totals and the summed time
//! of the units counted (`whole_run`: all of them, not a shard's). Unique and rotation-symmetric
//! counts are set for full symmetry, and for the join engine only over a whole run (its units
//! carry weights of partial structures, so a shard's share of them has no meaning of its own).
CountResult make_count_result(const RunHeader& header, const Totals& totals, const UnitTime& unit_time, bool whole_run,
                              int threads, double seconds);

}  // namespace nqueens
