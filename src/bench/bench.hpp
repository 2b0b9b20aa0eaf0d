#pragma once
// Measurement helpers behind `nqueens bench`: warmed-up, repeated timed runs and their
// statistics, the rule for which runs are long enough to compare, and the critical path of a
// plan (how far more threads could ever speed it up).
#include <cstdint>
#include <optional>
#include <vector>

#include "nqueens/count.hpp"

namespace nqueens {

//! The timed repeats of one measurement (warm-up runs left out) and their statistics.
struct Timing {
  std::vector<double> seconds;  //!< every timed repeat, in run order
  double min_seconds = 0;
  double median_seconds = 0;
  double mean_seconds = 0;
  double max_seconds = 0;
  double stddev_seconds = 0;  //!< sample standard deviation (n - 1); 0 for a single repeat
};

//! The statistics of `samples` (kept in run order).
Timing summarize(std::vector<double> samples);

//! How many runs, and how many of them only warm caches, the allocator and the thread pool.
struct Repeats {
  int warmup = 1;
  int timed = 3;
};

//! The engine's run for one N: `repeats.warmup` warm-up runs, not timed, then `repeats.timed` timed runs;
//! `last` receives the final run's result.
Timing time_engine(int n, const CountOptions& options, Repeats repeats, CountResult& last);

//! The textbook baseline for one N, the same way (its count is checked against the engine's).
Timing time_textbook(int n, Repeats repeats, std::uint64_t& count);

//! Throws std::runtime_error when the engine counted other than the textbook baseline's
//! `baseline_total`: a speed ratio between two programs that disagree would mean nothing.
void check_against_baseline(const CountResult& result, std::uint64_t baseline_total);

//! Runs shorter than this are not compared with one another: starting a thread arena, first
//! touches of memory and the clock's own cost are then a large part of what is measured (at
//! N = 10, 1 against 2 threads once read as an 18x speedup on 2 cores).
inline constexpr double kShortestComparable = 0.1;

//! `slower / faster` as a speedup, from medians; nullopt when either is missing or was too
//! short to time (below kShortestComparable).
std::optional<double> speed_ratio(std::optional<double> reference_seconds, double seconds);

//! How the work of a plan is spread over its units, measured in search nodes.
struct CriticalPath {
  double largest_unit_share = 0;  //!< the costliest unit's nodes over all nodes
  //! Speedup ceilings at 16, 64 and 256 threads: no schedule beats total / max(total/T, largest).
  double ceiling_16 = 0, ceiling_64 = 0, ceiling_256 = 0;
};

CriticalPath critical_path(const std::vector<std::uint64_t>& unit_nodes);

double median(std::vector<double> values);

}  // namespace nqueens
