#include "run/run.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "run/registry.hpp"
#include "run/schedule.hpp"

namespace nqueens {

Session::Session(const Engine& engine, const std::vector<std::size_t>& wanted, Journal* journal)
    : engine_(engine),
      journal_(journal),
      wanted_(wanted),
      tallies_(engine.unit_count()),
      micros_(engine.unit_count()),
      have_(engine.unit_count()) {
  std::sort(wanted_.begin(), wanted_.end());
  if (journal_)
    for (const UnitCount& unit : journal_->recorded()) {
      tallies_[unit.id] = unit.tally;
      micros_[unit.id] = unit.microseconds;
      have_[unit.id] = 1;
    }
  for (const std::size_t id : wanted_) {
    if (id >= engine_.unit_count())
      throw std::invalid_argument("unit id " + std::to_string(id) + " is out of range: the run has " +
                                  std::to_string(engine_.unit_count()) + " units");
    if (!have_[id]) continue;
    ++done_before_;
    replayed_.add(time_of(id));
  }
  // A read-only journal can only answer a run it holds whole: new units could not be saved.
  if (journal_ && !journal_->unwritable().empty() && done_before_ < wanted_.size())
    throw std::runtime_error(journal_->unwritable() + " (" + std::to_string(wanted_.size() - done_before_) +
                             " units are left to count)");
}

std::vector<std::size_t> Session::done() const {
  std::vector<std::size_t> ids;
  for (const std::size_t id : wanted_)
    if (have_[id]) ids.push_back(id);
  return ids;
}

std::vector<std::size_t> Session::todo() const {
  const bool whole_run = wanted_.size() == engine_.unit_count();  // wanted_ has no repeats
  std::vector<char> want;
  if (!whole_run) {
    want.assign(engine_.unit_count(), 0);
    for (const std::size_t id : wanted_) want[id] = 1;
  }
  std::vector<std::size_t> ids;
  ids.reserve(wanted_.size());
  for (const std::size_t id : engine_.costliest_first())
    if ((whole_run || want[id]) && !have_[id]) ids.push_back(id);
  return ids;
}

void Session::record(const UnitCount& unit) {
  if (unit.id >= have_.size() || have_[unit.id])
    throw std::runtime_error("unit " + std::to_string(unit.id) + " was counted twice or is not in the run");
  tallies_[unit.id] = unit.tally;
  micros_[unit.id] = unit.microseconds;
  have_[unit.id] = 1;
  if (journal_) journal_->append(unit);
}

void Session::run(int threads, const UnitObserver& observer, const std::atomic<bool>* stop) {
  const std::vector<std::size_t> ids = todo();
  if (ids.empty()) return;
  run_timed_units(
      engine_, threads,
      [this, &observer](const UnitCount& unit) {
        record(unit);
        if (observer) observer(unit.id, unit.tally);
      },
      ids, stop);
}

bool Session::complete() const {
  return std::all_of(wanted_.begin(), wanted_.end(), [this](std::size_t id) { return have_[id] != 0; });
}

std::vector<UnitCount> Session::units() const {
  std::vector<UnitCount> units;
  units.reserve(wanted_.size());
  for (const std::size_t id : wanted_) {
    if (!have_[id]) throw std::runtime_error("unit " + std::to_string(id) + " was never counted");
    units.push_back({id, tallies_[id], time_of(id)});
  }
  return units;
}

// The exact reduction of a session: the per-unit tallies of the ledger, summed once in 128 bits,
// and their times, in place (a copy of the ledger cost 60 ms of page faults at N = 17, on one thread).
CountResult Session::result(int threads, double seconds) const {
  Totals totals;
  UnitTime time;
  for (const std::size_t id : wanted_) {
    if (!have_[id]) throw std::runtime_error("unit " + std::to_string(id) + " was never counted");
    totals += tallies_[id];
    time.add(time_of(id));
  }
  return make_count_result(engine_.header(), totals, time, wanted_.size() == engine_.unit_count(), threads, seconds);
}

std::uint64_t Session::time_of(std::size_t id) const { return micros_[id]; }

UnitTime Session::unit_time() const {
  UnitTime time;
  for (const std::size_t id : wanted_)
    if (have_[id]) time.add(time_of(id));
  return time;
}

// Units are only ever added to the ledger, so what the journal held is still in the sum.
UnitTime Session::unit_time_here() const {
  UnitTime time = unit_time();
  time.microseconds -= replayed_.microseconds;
  return time;
}

std::vector<std::size_t> all_ids(const Engine& engine) {
  std::vector<std::size_t> ids(engine.unit_count());
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  return ids;
}

std::vector<std::size_t> shard_ids(const Engine& engine, ShardSpec shard) {
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw std::invalid_argument("shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) +
                                " does not exist");
  // Greedy longest-processing-time: each unit, costliest first, goes to the least loaded
  // shard. A min-heap of (load, shard) keeps that O(units log k) for thousands of shards.
  using Load = std::pair<std::uint64_t, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> loads;
  for (int s = 1; s <= shard.count; ++s) loads.push({0, s});
  std::vector<std::size_t> ids;
  for (const std::size_t id : engine.costliest_first()) {
    auto [load, s] = loads.top();
    loads.pop();
    if (s == shard.index) ids.push_back(id);
    loads.push({load + engine.cost(id), s});
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

CountResult make_count_result(const RunHeader& header, const Totals& totals, const UnitTime& unit_time, bool whole_run,
                              int threads, double seconds) {
  CountResult result;
  result.n = header.n;
  result.totals = totals;
  result.unit_microseconds = unit_time.microseconds;
  const EngineDescription* engine = find_engine(header.engine);
  if (header.symmetry == Symmetry::full && (whole_run || (engine && engine->partial_runs_report_unique))) {
    result.unique = totals.unique();
    result.half_turn_fixed = totals.half_turn_fixed();
    result.quarter_turn_fixed = totals.quarter_turn_fixed();
  }
  result.engine = header.engine;
  result.symmetry = header.symmetry;
  result.split_depth = header.split_depth;
  result.work_units = header.unit_count;
  result.threads = threads;
  result.seconds = seconds;
  return result;
}

}  // namespace nqueens
