#pragma once
// One N counted from start to finish, whoever drives it (count(), the program's `count`, MPI's
// rank 0). A Run owns the engine's units that a selection names, opens and resumes the
// checkpoint journal, computes the to-do list once, counts it on the run's oneTBB arena (the one
// its engine was built in: run_arena.hpp, schedule.hpp), and builds the result. Drivers add only what is theirs:
// signals, progress, output, the network.
//
// Two records of the same counts, kept apart on purpose: the totals come from the reduction
// (each worker's own counters, summed once at the end of execute(), plus what a journal replayed
// and what record() received); the ledger holds each unit's counts for journals and shard files.
// result() checks that the two agree before it reports anything.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/engine.hpp"
#include "engine/zeroed_array.hpp"
#include "nqueens/count.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/run_arena.hpp"
#include "run/selection.hpp"

namespace nqueens {

//! Where a run keeps its checkpoint journal.
struct JournalRequest {
  std::filesystem::path path;
  bool repair = false;  //!< keep a damaged journal's sound records (Journal's constructor)
};

class Run {
 public:
  //! The units of `engine` that `selection` names. With a journal, it is created, resumed or
  //! repaired now, and every unit counted from here on is appended to it. Throws what
  //! Selection::ids and Journal's constructor throw; a read-only journal that lacks units
  //! throws std::runtime_error (they could not be saved).
  Run(std::unique_ptr<Engine> engine, const Selection& selection,
      const std::optional<JournalRequest>& journal = std::nullopt);

  const Engine& engine() const { return *engine_; }
  const RunHeader& header() const { return engine_->header(); }
  Journal* journal() const { return journal_.get(); }
  bool whole() const { return wanted_.size() == engine_->unit_count(); }

  const std::vector<std::size_t>& wanted() const { return wanted_; }  //!< ascending
  //! Wanted units not counted when the run was opened, costliest first as the engine regroups
  //! them (Engine::execution_order): the work of execute().
  const std::vector<std::size_t>& todo() const { return todo_; }
  std::size_t done_before() const { return wanted_.size() - todo_.size(); }  //!< replayed from the journal
  std::vector<std::size_t> done() const;                                     //!< wanted and counted, ascending

  //! Counts the to-do list on the run's arena, recording each unit before `observer` sees it.
  //! With `stop`, as run_timed_units: no unit starts once it is set.
  void execute(RunArena& arena, const UnitObserver& observer = {}, const std::atomic<bool>* stop = nullptr);
  //! execute() on an arena of its own of `threads` threads: for an engine built apart (tests).
  void execute(int threads, const UnitObserver& observer = {}, const std::atomic<bool>* stop = nullptr);

  //! A unit counted elsewhere (another MPI rank): into the ledger, the journal and the totals.
  //! Throws std::runtime_error for an id outside the run or one already counted.
  void record(const UnitCount& unit);
  //! Units counted elsewhere that arrived together (an MPI rank's batch): checked first, then
  //! into the ledger and the totals, and into the journal with one write. Throws
  //! std::runtime_error, recording none of them, if an id is outside the run, already counted,
  //! or in the batch twice.
  void record(std::span<const UnitCount> units);

  bool complete() const;                 //!< every wanted unit counted
  std::vector<UnitCount> units() const;  //!< every wanted unit, ascending; throws if incomplete
  //! The sum of the ledger over the wanted units: what the reduction must equal.
  Totals ledger_totals() const;
  //! The result over the wanted units, its totals from the reduction; throws std::runtime_error if
  //! incomplete and std::logic_error if the reduction and the ledger disagree. Its unit time
  //! covers them all, those the journal held included.
  CountResult result(int threads, double seconds) const;
  //! The time of the units counted by this process (not replayed): its share of the unit time.
  UnitTime unit_time_here() const;
  //! The totals of the units counted since the run was opened, here or by other ranks (not
  //! replayed from the journal): the work of this run, which its rates are of.
  Totals totals_here() const;

 private:
  void enter(const UnitCount& unit);  //!< into the ledger and the journal; distinct ids from any thread
  UnitTime unit_time() const;         //!< over the wanted units counted so far

  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Journal> journal_;
  std::vector<std::size_t> wanted_;
  std::vector<std::size_t> todo_;
  ZeroedArray<Tally> tallies_;         //!< by unit id; pages are first written by the workers (zeroed_array.hpp)
  ZeroedArray<std::uint64_t> micros_;  //!< by unit id: its time in microseconds
  ZeroedArray<char> have_;  //!< by unit id, 1 once counted; not bits: neighbours are written by different threads
  Totals replayed_;         //!< the wanted units the journal held
  Totals reduced_;          //!< the reduction of execute()'s per-thread counters
  Totals received_;         //!< the units record() was given
  UnitTime replayed_time_;
};

//! The one place a CountResult is made: from the run's header, the totals and the summed time
//! of the units counted (`whole_run`: all of them, not a part). Unique and rotation-symmetric
//! counts are set for full symmetry over a whole run, and over a part for the engines whose
//! units each count whole orbits (the registry's partial_runs_report_unique).
CountResult make_count_result(const RunHeader& header, const Totals& totals, const UnitTime& unit_time, bool whole_run,
                              int threads, double seconds);

}  // namespace nqueens
