#pragma once
// Work of a known thread time, for tests of what times units (plan's sample and budget).
#include <ctime>

namespace nqueens::testing_support {

//! Spins the calling thread until its CPU clock has advanced by `seconds`: unlike a sleep, this
//! is time the thread's CPU clock counts, and unlike a loop of fixed length, it is the same on a
//! fast, slow or busy machine.
inline void spin_for(double seconds) {
  const auto now = [] {
    timespec clock{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock);
    return static_cast<double>(clock.tv_sec) + 1e-9 * static_cast<double>(clock.tv_nsec);
  };
  const double end = now() + seconds;
  while (now() < end) {
  }
}

}  // namespace nqueens::testing_support
