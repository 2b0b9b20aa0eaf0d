#include "run/run.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "run/registry.hpp"
#include "run/schedule.hpp"

namespace nqueens {

namespace {

std::unique_ptr<Journal> open_journal(const std::optional<JournalRequest>& request, const RunHeader& header) {
  if (!request) return nullptr;
  return std::make_unique<Journal>(request->path, header, request->repair);
}

}  // namespace

Run::Run(std::unique_ptr<Engine> engine, const Selection& selection, const std::optional<JournalRequest>& journal)
    : engine_(std::move(engine)),
      wanted_(selection.ids(*engine_)),
      tallies_(engine_->unit_count()),
      micros_(engine_->unit_count()),
      have_(engine_->unit_count()) {
  journal_ = open_journal(journal, engine_->header());
  if (journal_)
    for (const UnitCount& unit : journal_->recorded()) {
      tallies_[unit.id] = unit.tally;
      micros_[unit.id] = unit.microseconds;
      have_[unit.id] = 1;
    }
  // The to-do list, once: the engine's costliest-first order, restricted to the wanted units
  // the journal did not hold. The whole run skips the wanted mask.
  std::vector<char> want;
  if (!whole()) {
    want.assign(engine_->unit_count(), 0);
    for (const std::size_t id : wanted_) want[id] = 1;
  }
  todo_.reserve(wanted_.size());
  for (const std::size_t id : engine_->costliest_first())
    if ((want.empty() || want[id]) && !have_[id]) todo_.push_back(id);
  todo_ = engine_->execution_order(std::move(todo_));
  for (const std::size_t id : wanted_)
    if (have_[id]) {
      replayed_ += tallies_[id];
      replayed_time_.add(micros_[id]);
    }
  // A read-only journal can only answer a run it holds whole: new units could not be saved.
  if (journal_ && !journal_->unwritable().empty() && !todo_.empty())
    throw std::runtime_error(journal_->unwritable() + " (" + std::to_string(todo_.size()) +
                             " units are left to count)");
}

std::vector<std::size_t> Run::done() const {
  std::vector<std::size_t> ids;
  for (const std::size_t id : wanted_)
    if (have_[id]) ids.push_back(id);
  return ids;
}

void Run::enter(const UnitCount& unit) {
  if (unit.id >= have_.size() || have_[unit.id])
    throw std::runtime_error("unit " + std::to_string(unit.id) + " was counted twice or is not in the run");
  tallies_[unit.id] = unit.tally;
  micros_[unit.id] = unit.microseconds;
  have_[unit.id] = 1;
  if (journal_) journal_->append(unit);
}

void Run::execute(int threads, const UnitObserver& observer, const std::atomic<bool>* stop) {
  if (todo_.empty()) return;
  RunArena arena(threads);
  execute(arena, observer, stop);
}

void Run::execute(RunArena& arena, const UnitObserver& observer, const std::atomic<bool>* stop) {
  if (todo_.empty()) return;
  reduced_ += run_timed_units(
      *engine_, arena,
      [this, &observer](const UnitCount& unit) {
        enter(unit);
        if (observer) observer(unit.id, unit.tally);
      },
      todo_, stop);
}

void Run::record(const UnitCount& unit) {
  enter(unit);
  received_ += unit.tally;
}

void Run::record(std::span<const UnitCount> units) {
  std::size_t checked = 0;
  for (; checked < units.size(); ++checked) {
    const std::size_t id = units[checked].id;
    if (id >= have_.size() || have_[id]) break;
    have_[id] = 1;  // marks a repeat within the batch; undone below if the batch is refused
  }
  if (checked < units.size()) {
    for (std::size_t i = 0; i < checked; ++i) have_[units[i].id] = 0;
    throw std::runtime_error("unit " + std::to_string(units[checked].id) + " was counted twice or is not in the run");
  }
  for (const UnitCount& unit : units) {
    tallies_[unit.id] = unit.tally;
    micros_[unit.id] = unit.microseconds;
    received_ += unit.tally;
  }
  if (journal_) journal_->append(units);
}

bool Run::complete() const {
  return std::all_of(wanted_.begin(), wanted_.end(), [this](std::size_t id) { return have_[id] != 0; });
}

std::vector<UnitCount> Run::units() const {
  std::vector<UnitCount> units;
  units.reserve(wanted_.size());
  for (const std::size_t id : wanted_) {
    if (!have_[id]) throw std::runtime_error("unit " + std::to_string(id) + " was never counted");
    units.push_back({id, tallies_[id], micros_[id]});
  }
  return units;
}

// Summed in place: a copy of the ledger cost 60 ms of page faults at N = 17, on one thread.
Totals Run::ledger_totals() const {
  Totals totals;
  for (const std::size_t id : wanted_) totals += tallies_[id];
  return totals;
}

CountResult Run::result(int threads, double seconds) const {
  if (!complete())
    throw std::runtime_error("the run of N=" + std::to_string(header().n) + " is not complete: " +
                             std::to_string(wanted_.size() - done().size()) + " units were never counted");
  Totals totals = replayed_;
  totals += reduced_;
  totals += received_;
  if (!(totals == ledger_totals()))
    throw std::logic_error("the reduction of N=" + std::to_string(header().n) + " (" + to_string(totals.total) +
                           " solutions) disagrees with its per-unit ledger (" + to_string(ledger_totals().total) + ")");
  return make_count_result(header(), totals, unit_time(), whole(), threads, seconds);
}

UnitTime Run::unit_time() const {
  UnitTime time;
  for (const std::size_t id : wanted_)
    if (have_[id]) time.add(micros_[id]);
  return time;
}

// Units are only ever added to the ledger, so what the journal held is still in the sum.
UnitTime Run::unit_time_here() const {
  UnitTime time = unit_time();
  time.microseconds -= replayed_time_.microseconds;
  return time;
}

Totals Run::totals_here() const {
  Totals totals = reduced_;
  totals += received_;
  return totals;
}

CountResult make_count_result(const RunHeader& header, const Totals& totals, const UnitTime& unit_time, bool whole_run,
                              int threads, double seconds) {
  CountResult result;
  result.n = header.n;
  result.totals = totals;
  result.unit_microseconds = unit_time.microseconds;
  const EngineDescription* engine = find_engine(header.engine);
  const bool orbits = engine && (!engine->counts_orbits || engine->counts_orbits(header));
  if (orbits && (whole_run || engine->partial_runs_report_unique)) {
    result.unique = totals.unique();
    result.half_turn_fixed = totals.half_turn_fixed();
    result.quarter_turn_fixed = totals.quarter_turn_fixed();
  }
  result.engine = header.engine;
  result.settings = header.settings;
  result.work_units = header.unit_count;
  result.threads = threads;
  result.seconds = seconds;
  return result;
}

}  // namespace nqueens
