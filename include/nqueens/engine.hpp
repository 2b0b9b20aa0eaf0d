#pragma once
// The engine: split, schedule, reduce, in one call. This is what the CLI and other programs use.
#include <cstddef>
#include <optional>

#include "nqueens/reduce.hpp"
#include "nqueens/schedule.hpp"
#include "nqueens/symmetry.hpp"

namespace nqueens {

struct CountOptions {
  Symmetry symmetry = Symmetry::full;
  int split_depth = 0;  //!< 0: automatic (auto_split_depth)
  int threads = 0;      //!< 0: every hardware thread
  UnitObserver on_unit_done;
};

struct CountResult {
  int n = 0;
  Totals totals;
  std::optional<Count> unique;  //!< set when the symmetry mode yields it (full)
  Symmetry symmetry = Symmetry::full;
  int split_depth = 0;
  std::size_t work_units = 0;
  int threads = 0;
  double seconds = 0;
};

//! Largest thread count accepted: beyond this a request is a typo, not a machine.
inline constexpr int kMaxThreads = 4096;

//! Hardware threads available to this process.
int hardware_threads();

//! Counts all solutions on an n x n board. Throws std::invalid_argument on bad options.
CountResult count(int n, const CountOptions& options = {});

}  // namespace nqueens
