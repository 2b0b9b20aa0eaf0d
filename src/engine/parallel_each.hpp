#pragma once
// tbb::parallel_for over the indices [0, count), for the engines' setup (tables, unit lists,
// costs), with the hand-overs stated for ThreadSanitizer (tsan_handoff.hpp): the caller's setup
// is seen by every task, and every task by the caller. It runs on the calling arena's threads,
// so a run of --threads 1 builds its tables on one thread too. Each index first checks whether
// the setup was asked to stop (setup_stop.hpp): a stop ends the loop with Cancelled.
#include <oneapi/tbb/parallel_for.h>

#include "engine/setup_stop.hpp"
#include "engine/tsan_handoff.hpp"

namespace nqueens::detail {

// Not on the caller's stack: a task must take over before it reads anything through its
// closure, and a tag's address read from the closure would already be such a read.
inline const char parallel_each_setup_seen = 0;
inline const char parallel_each_tasks_done = 0;

template <typename Index, typename Body>
void parallel_each(Index count, const Body& body) {
  hand_over(&parallel_each_setup_seen);
  tbb::parallel_for(Index{0}, count, [&body](Index i) {
    take_over(&parallel_each_setup_seen);
    check_setup_stop();
    body(i);
    hand_over(&parallel_each_tasks_done);
  });
  take_over(&parallel_each_tasks_done);
}

}  // namespace nqueens::detail
