#pragma once
// A count's cost before anything is built: the thread time of a whole run of N, from seconds
// measured per N on a 2-core x86-64 machine (docs/performance.md) that each engine gives with its
// description (EngineDescription::rough_costs), interpolated geometrically
// between measured sizes and carried beyond the last one by the growth per N measured between
// the last two. It answers "how long?" before a setup that takes minutes at the largest N, so
// that a count of months is announced and one of centuries refused; `nqueens plan` times a
// sample of the run's own units for a measured estimate.
#include <optional>

#include "engine/catalogue.hpp"

namespace nqueens {

//! Thread-seconds of a whole run of n (1..32) with `engine`, or nullopt for an engine without
//! measurements (its speed depends on a device). Below the first measured N, that N's figure: an
//! upper bound of a count that takes under a second.
std::optional<double> rough_thread_seconds(const EngineDescription& engine, int n);

//! The wall time of `thread_seconds` spread over `threads` threads (at least 1).
double rough_wall_seconds(double thread_seconds, int threads);

}  // namespace nqueens
