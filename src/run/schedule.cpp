#include "run/schedule.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <iterator>
#include <memory>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

#include "engine/memory_budget.hpp"
#include "engine/tsan_handoff.hpp"

namespace nqueens {

namespace {

// For ThreadSanitizer only (tsan_handoff.hpp): the tags of the hand-overs below. They are not on
// the caller's stack: a task must take over before it reads anything through its closure, and a
// tag's address read from the closure would already be such a read.
const char started = 0, finished = 0;

// A thread's running totals on cache lines of their own, so that two threads adding at the
// end of their units never write to the same line.
struct alignas(64) PaddedTotals {
  Totals totals;
};

}  // namespace

namespace {

// The engine's ids, costliest first, restricted to `ids` unless that is empty.
std::vector<std::size_t> run_order(const Engine& engine, const std::vector<std::size_t>& ids) {
  const std::span<const std::size_t> all = engine.costliest_first();
  if (ids.empty()) return {all.begin(), all.end()};
  std::vector<char> wanted(engine.unit_count(), 0);
  for (const std::size_t id : ids) {
    if (id >= engine.unit_count())
      throw std::invalid_argument("unit id " + std::to_string(id) + " is out of range: the run has " +
                                  std::to_string(engine.unit_count()) + " units");
    if (wanted[id]) throw std::invalid_argument("unit id " + std::to_string(id) + " is listed twice");
    wanted[id] = 1;
  }
  std::vector<std::size_t> order;
  order.reserve(ids.size());
  std::copy_if(all.begin(), all.end(), std::back_inserter(order), [&wanted](std::size_t id) { return wanted[id]; });
  return order;
}

// The batches an execution order splits into (Engine::batch_starts).
struct Batches {
  std::span<const std::size_t> order;
  std::vector<std::size_t> starts;  // empty: every unit is a batch of its own

  std::size_t size() const { return starts.empty() ? order.size() : starts.size(); }
  std::span<const std::size_t> operator[](std::size_t batch) const {
    if (starts.empty()) return order.subspan(batch, 1);
    const std::size_t end = batch + 1 < starts.size() ? starts[batch + 1] : order.size();
    return order.subspan(starts[batch], end - starts[batch]);
  }
  std::size_t start(std::size_t batch) const { return starts.empty() ? batch : starts[batch]; }
};

// The first batch of each deal (Engine::deal_starts), then the number of batches: every batch a
// deal of its own where the engine names none.
std::vector<std::size_t> deal_bounds(const Batches& batches, const std::vector<std::size_t>& deals) {
  std::vector<std::size_t> bounds;
  std::size_t deal = 0;
  for (std::size_t batch = 0; batch < batches.size(); ++batch) {
    const bool begins = deals.empty() || (deal < deals.size() && deals[deal] <= batches.start(batch));
    while (deal < deals.size() && deals[deal] <= batches.start(batch)) ++deal;
    if (begins || batch == 0) bounds.push_back(batch);
  }
  bounds.push_back(batches.size());
  return bounds;
}

}  // namespace

void count_timed_batch(const Engine& engine, UnitCounter& counter, std::span<const std::size_t> ids,
                       std::vector<UnitCount>& done) {
  const auto start = std::chrono::steady_clock::now();
  if (ids.size() == 1) {
    const Tally tally = counter.count(ids[0]);
    done.push_back({ids[0], tally, microseconds_since(start)});
    return;
  }
  std::vector<Tally> tallies(ids.size());
  counter.count_batch(ids, tallies);
  const double microseconds = static_cast<double>(microseconds_since(start));
  double costs = 0;
  for (const std::size_t id : ids) costs += static_cast<double>(engine.cost(id));
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const double share =
        costs > 0 ? static_cast<double>(engine.cost(ids[i])) / costs : 1.0 / static_cast<double>(ids.size());
    done.push_back({ids[i], tallies[i], static_cast<std::uint64_t>(std::llround(microseconds * share))});
  }
}

std::uint64_t microseconds_since(std::chrono::steady_clock::time_point start) {
  const auto elapsed = std::chrono::steady_clock::now() - start;
  return static_cast<std::uint64_t>(std::chrono::round<std::chrono::microseconds>(elapsed).count());
}

Totals run_units(const Engine& engine, int threads, const UnitObserver& observer, const std::vector<std::size_t>& ids,
                 const std::atomic<bool>* stop) {
  TimedUnitObserver timed;
  if (observer) timed = [&observer](const UnitCount& unit) { observer(unit.id, unit.tally); };
  const std::vector<std::size_t> order = run_order(engine, ids);
  RunArena arena(threads);
  return run_timed_units(engine, arena, timed, order, stop);
}

Totals run_timed_units(const Engine& engine, RunArena& arena, const TimedUnitObserver& observer,
                       std::span<const std::size_t> order, const std::atomic<bool>* stop) {
  const AllocationStage stage("counting the units");
  tbb::enumerable_thread_specific<PaddedTotals> per_thread;
  CounterPool counters(engine);
  const Batches batches{order, engine.batch_starts(order)};
  const std::vector<std::size_t> deals = deal_bounds(batches, engine.deal_starts(order, arena.threads()));
  // For ThreadSanitizer only: the setup above is seen by every task, every task by the reduction.
  detail::hand_over(&started);
  // Every thread takes the next deal of batches in the engine's order from one shared counter,
  // so the units start costliest first on any number of threads and the run ends on its
  // cheapest ones. (A parallel_for over the batches would hand a second thread the back half of
  // the order at once.) One counter step per deal is nil beside units of milliseconds to minutes.
  std::atomic<std::size_t> next{0};
  const auto take_batches = [&](int /*worker*/) {
    detail::take_over(&started);
    Totals& mine = per_thread.local().totals;
    UnitCounter& counter = counters.local();
    std::vector<UnitCount> done;
    // A stop request is read once per batch: it ends the run between units, at no cost to the
    // search itself.
    const auto stopped = [stop] { return stop && stop->load(std::memory_order_relaxed); };
    while (!stopped()) {
      const std::size_t deal = next.fetch_add(1, std::memory_order_relaxed);
      if (deal + 1 >= deals.size()) break;
      for (std::size_t i = deals[deal]; i < deals[deal + 1]; ++i) {
        if (i > deals[deal] && stopped()) break;
        done.clear();
        count_timed_batch(engine, counter, batches[i], done);
        for (const UnitCount& unit : done) {
          mine += unit.tally;
          if (observer) observer(unit);
        }
      }
    }
    detail::hand_over(&finished);
  };
  // One task per thread of the arena; a task that starts late finds the counter drained.
  arena.execute([&] { tbb::parallel_for(0, arena.threads(), take_batches, tbb::simple_partitioner{}); });
  detail::take_over(&finished);

  std::vector<Totals> totals;
  for (const PaddedTotals& padded : per_thread) totals.push_back(padded.totals);
  return reduce(totals);
}

}  // namespace nqueens
