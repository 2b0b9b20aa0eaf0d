#include "nqueens/schedule.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include "tsan_handoff.hpp"

namespace nqueens {

namespace {

// A thread's running totals on cache lines of their own, so that two threads adding at the
// end of their units never write to the same line.
struct alignas(64) PaddedTotals {
  Totals totals;
};

std::uint64_t extensions(const WorkUnit& unit, int n, int rows_left) {
  if (rows_left == 0 || unit.rows == n) return 1;
  std::uint64_t sum = 0;
  const Mask attacked = unit.cols | unit.left_diag | unit.right_diag;
  for (Mask free = allowed_columns(n, unit, unit.rows) & ~attacked; free != 0; free &= free - 1) {
    WorkUnit next = unit;
    place_queen(next, column_of(free & (0 - free)));
    sum += extensions(next, n, rows_left - 1);
  }
  return sum;
}

}  // namespace

std::uint64_t estimated_cost(const WorkUnit& unit, int n) { return extensions(unit, n, 2); }

std::vector<std::size_t> costliest_first(const WorkPlan& plan) {
  std::vector<std::uint64_t> cost(plan.units.size());
  for (std::size_t id = 0; id < plan.units.size(); ++id) cost[id] = estimated_cost(plan.units[id], plan.n);
  std::vector<std::size_t> order(plan.units.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&cost](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  return order;
}

namespace {

// The plan's ids, costliest first, restricted to `ids` unless that is empty.
std::vector<std::size_t> run_order(const WorkPlan& plan, const std::vector<std::size_t>& ids) {
  std::vector<std::size_t> order = costliest_first(plan);
  if (ids.empty()) return order;
  std::vector<bool> wanted(plan.units.size());
  for (const std::size_t id : ids) {
    if (id >= plan.units.size())
      throw std::invalid_argument("unit id " + std::to_string(id) + " is out of range: the plan has " +
                                  std::to_string(plan.units.size()) + " units");
    if (wanted[id]) throw std::invalid_argument("unit id " + std::to_string(id) + " is listed twice");
    wanted[id] = true;
  }
  std::erase_if(order, [&wanted](std::size_t id) { return !wanted[id]; });
  return order;
}

}  // namespace

Totals run_units(const WorkPlan& plan, int threads, const UnitObserver& observer, const std::vector<std::size_t>& ids,
                 const std::atomic<bool>* stop) {
  if (threads < 1) throw std::invalid_argument("thread count must be at least 1, got " + std::to_string(threads));
  const std::vector<std::size_t> order = run_order(plan, ids);

  // TBB caps all arenas at the hardware thread count unless told otherwise; asking for more
  // threads than cores is legitimate (tests do it), so lift the cap for this run.
  std::unique_ptr<tbb::global_control> allow_more;
  if (threads > tbb::info::default_concurrency())
    allow_more = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                       static_cast<std::size_t>(threads));

  tbb::enumerable_thread_specific<PaddedTotals> per_thread;
  // For ThreadSanitizer only: the setup above is seen by every task, every task by the reduction.
  const char started = 0, finished = 0;
  detail::hand_over(&started);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    // Grain 1 with the simple partitioner: each unit is its own task. Units cost milliseconds
    // to minutes, so task overhead is nil, and the finest grain lets idle threads steal the
    // last units instead of waiting on a thread that holds a batch of them.
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, order.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          detail::take_over(&started);
          Totals& mine = per_thread.local().totals;
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            // Once per unit: a stop request ends the run at unit granularity, at no cost to
            // the search itself.
            if (stop && stop->load(std::memory_order_relaxed)) break;
            const std::size_t id = order[i];
            const Tally tally = count_from(plan.units[id], plan.n);
            mine += tally;
            if (observer) observer(id, tally);
          }
          detail::hand_over(&finished);
        },
        tbb::simple_partitioner{});
  });
  detail::take_over(&finished);

  std::vector<Totals> totals;
  for (const PaddedTotals& padded : per_thread) totals.push_back(padded.totals);
  return reduce(totals);
}

}  // namespace nqueens
