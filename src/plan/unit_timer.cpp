#include "plan/unit_timer.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <utility>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

#include "engine/tsan_handoff.hpp"
#include "run/schedule.hpp"

namespace nqueens::plan {

namespace {

// For ThreadSanitizer only (tsan_handoff.hpp): the tags of the hand-overs in count(), as the
// scheduler's (schedule.cpp).
const char started = 0, finished = 0;

double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// The thread CPU clock is a system call, not the vDSO: a few hundred nanoseconds, which is a
// tenth of the join's smallest units. The least of many empty intervals is what a reading adds.
double measured_clock_overhead() {
  double least = 1;
  for (int i = 0; i < 200; ++i) {
    const double start = thread_cpu_seconds();
    least = std::min(least, thread_cpu_seconds() - start);
  }
  return least;
}

}  // namespace

UnitTimer::UnitTimer(const Engine& engine, RunArena& arena)
    : engine_(engine), arena_(arena), counters_(engine), clock_overhead_(measured_clock_overhead()) {}

UnitTimer::UnitTimer(const Engine& engine, int threads)
    : engine_(engine),
      own_arena_(std::make_unique<RunArena>(threads)),
      arena_(*own_arena_),
      counters_(engine),
      clock_overhead_(measured_clock_overhead()) {}

std::vector<TimedUnit> UnitTimer::count(std::span<const std::size_t> ids) {
  std::vector<std::size_t> order(ids.begin(), ids.end());
  // Costliest first, as a run deals them, so that the batch does not end on one long unit.
  std::stable_sort(order.begin(), order.end(),
                   [this](std::size_t a, std::size_t b) { return engine_.cost(a) > engine_.cost(b); });
  std::vector<TimedUnit> timed(order.size());
  detail::hand_over(&started);
  arena_.execute([&] {
    // Grain 1, as the scheduler's: each unit is its own task (schedule.cpp).
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, order.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          detail::take_over(&started);
          UnitCounter& counter = counters_.local();
          for (std::size_t i = range.begin(); i != range.end(); ++i) {
            const auto prepare_start = std::chrono::steady_clock::now();
            counter.prepare(order[i]);
            const auto wall_start = std::chrono::steady_clock::now();
            const double cpu_start = thread_cpu_seconds();
            const Tally tally = counter.count(order[i]);
            const double cpu = thread_cpu_seconds() - cpu_start;
            const std::uint64_t microseconds = microseconds_since(wall_start);
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
            const double prepare = std::chrono::duration<double>(wall_start - prepare_start).count();
            timed[i] = {{order[i], tally, microseconds}, std::max(0.0, cpu - clock_overhead_), wall, prepare};
          }
          detail::hand_over(&finished);
        },
        tbb::simple_partitioner{});
  });
  detail::take_over(&finished);
  return timed;
}

// Parts that read one shared part (Engine::shared_part_of), as indices into `parts`: that part
// first, then the others in their order; groups in the order of their first part.
std::vector<std::vector<std::size_t>> UnitTimer::part_groups(std::span<const UnitPart> parts) const {
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto key = std::pair{parts[i].id, engine_.shared_part_of(parts[i].id, parts[i].part).value_or(parts[i].part)};
    const auto [place, added] = group_of.try_emplace(key, groups.size());
    if (added) groups.emplace_back();
    std::vector<std::size_t>& group = groups[place->second];
    group.insert(parts[i].part == key.second ? group.begin() : group.end(), i);
  }
  return groups;
}

// A group is one task, counted in turn on one thread: its shares find the shared part's work
// held by the counter that has just timed it. Spread part by part, each thread built it again for
// the shares it took, untimed: more of the plan's budget than the part itself where a thread took
// shares of several units in turn. The price: no more threads count at once than there are groups.
std::vector<TimedPart> UnitTimer::count_parts(std::span<const UnitPart> parts) {
  std::vector<TimedPart> timed(parts.size());
  const std::vector<std::vector<std::size_t>> groups = part_groups(parts);
  detail::hand_over(&started);
  arena_.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, groups.size(), 1),
        [&](const tbb::blocked_range<std::size_t>& range) {
          detail::take_over(&started);
          UnitCounter& counter = counters_.local();
          for (std::size_t g = range.begin(); g != range.end(); ++g)
            for (const std::size_t i : groups[g]) timed[i] = time_part(counter, parts[i]);
          detail::hand_over(&finished);
        },
        tbb::simple_partitioner{});
  });
  detail::take_over(&finished);
  return timed;
}

TimedPart UnitTimer::time_part(UnitCounter& counter, const UnitPart& part) const {
  const auto prepare_start = std::chrono::steady_clock::now();
  counter.prepare_part(part.id, part.part);
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = thread_cpu_seconds();
  counter.count_part(part.id, part.part);
  const double cpu = thread_cpu_seconds() - cpu_start;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double prepare = std::chrono::duration<double>(wall_start - prepare_start).count();
  return {part, std::max(0.0, cpu - clock_overhead_), wall, prepare};
}

}  // namespace nqueens::plan
