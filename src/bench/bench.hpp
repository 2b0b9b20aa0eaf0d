#pragma once
// Measurement helpers behind `nqueens bench`: warmed-up, repeated timed runs and their
// statistics, the rule for which runs are long enough to compare, and the critical path of a
// plan (how far more threads could ever speed it up).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "nqueens/count.hpp"

namespace nqueens {

//! Samples shorter than this are not compared with one another: starting a thread arena, first
//! touches of memory and the clock's own cost are then a large part of what is measured (at
//! N = 10, 1 against 2 threads once read as an 18x speedup on 2 cores). A shorter run is
//! repeated inside a sample until the sample lasts this long (time_calibrated).
inline constexpr double kShortestComparable = 0.1;

//! The timed repeats of one measurement (warm-up runs left out) and their statistics. A sample
//! times `inner_repeats` runs in a row, so that it lasts at least kShortestComparable; its time
//! divided by them is the time of one run, which every figure here is.
struct Timing {
  std::vector<double> seconds;  //!< every timed repeat (one run's time), in run order
  double min_seconds = 0;
  double median_seconds = 0;
  double mean_seconds = 0;
  double max_seconds = 0;
  double stddev_seconds = 0;  //!< sample standard deviation (n - 1); 0 for a single repeat
  int inner_repeats = 1;      //!< runs per sample
  //! Whether the samples were long enough to compare (kShortestComparable): what speed_ratio needs.
  bool comparable = false;
};

//! The statistics of `samples` (kept in run order), each the time of one run of a sample of
//! `inner_repeats` runs; comparable when a sample's median lasts kShortestComparable.
Timing summarize(std::vector<double> samples, int inner_repeats = 1);

//! How many runs, and how many of them only warm caches, the allocator and the thread pool.
struct Repeats {
  int warmup = 1;
  int timed = 3;
};

//! The most runs one sample repeats: a run that never reaches
//! kShortestComparable (N = 1 takes microseconds) is timed over this many at most.
inline constexpr int kMaxInnerRepeats = 1 << 20;

//! Times `run`, calibrating itself as Google Benchmark's min time and hyperfine's minimum run
//! time do: a run shorter than kShortestComparable is repeated inside each sample until the
//! sample lasts that long (the runs that find how many are warm-ups, and count as such); then
//! `repeats.warmup` warm-up samples in all, not timed, and `repeats.timed` timed samples.
Timing time_calibrated(const std::function<void()>& run, Repeats repeats);

//! The engine's run for one N, timed by time_calibrated; `last` receives the final run's result.
Timing time_engine(int n, const CountOptions& options, Repeats repeats, CountResult& last);

//! The textbook baseline for one N, the same way (its count is checked against the engine's).
Timing time_textbook(int n, Repeats repeats, std::uint64_t& count);

//! Throws std::runtime_error when the engine counted other than the textbook baseline's
//! `baseline_total`: a speed ratio between two programs that disagree would mean nothing.
void check_against_baseline(const CountResult& result, std::uint64_t baseline_total);

//! `reference / timing` as a speedup, from medians; nullopt when either is missing or its
//! samples were too short to time (not comparable).
std::optional<double> speed_ratio(const std::optional<Timing>& reference, const Timing& timing);

//! The standard deviation of speed_ratio(reference, timing), from both relative deviations
//! (as hyperfine gives its "1.5 ± 0.1 times faster"); nullopt where the ratio is.
std::optional<double> speed_ratio_stddev(const std::optional<Timing>& reference, const Timing& timing);

//! How the work of a plan is spread over its units, measured in search nodes.
struct CriticalPath {
  double largest_unit_share = 0;  //!< the costliest unit's nodes over all nodes
  //! Speedup ceilings at 16, 64 and 256 threads: no schedule beats total / max(total/T, largest).
  double ceiling_16 = 0, ceiling_64 = 0, ceiling_256 = 0;
};

CriticalPath critical_path(const std::vector<std::uint64_t>& unit_nodes);

double median(std::vector<double> values);

}  // namespace nqueens
