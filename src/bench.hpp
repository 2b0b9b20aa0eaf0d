#pragma once
// Measurement helpers behind `nqueens bench`: repeated timed runs, medians, and the critical
// path of a plan (how far more threads could ever speed it up).
#include <cstdint>
#include <vector>

#include "nqueens/engine.hpp"

namespace nqueens {

struct Timing {
  double median_seconds = 0;
  std::vector<double> seconds;  //!< every repeat, in run order
};

//! The engine's run for one N, repeated; `last` receives the final repeat's result.
Timing time_engine(int n, const CountOptions& options, int repeats, CountResult& last);

//! The textbook baseline for one N, repeated (its count is checked against the engine's).
Timing time_textbook(int n, int repeats, std::uint64_t& count);

//! How the work of a plan is spread over its units, measured in search nodes.
struct CriticalPath {
  double largest_unit_share = 0;  //!< the costliest unit's nodes over all nodes
  //! Speedup ceilings at 16, 64 and 256 threads: no schedule beats total / max(total/T, largest).
  double ceiling_16 = 0, ceiling_64 = 0, ceiling_256 = 0;
};

CriticalPath critical_path(const std::vector<std::uint64_t>& unit_nodes);

double median(std::vector<double> values);

}  // namespace nqueens
