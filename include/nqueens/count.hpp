#pragma once
// Counting in one call: split, schedule, reduce. This is what the CLI and other programs use;
// its options are nqueens/options.hpp.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/counts.hpp"
#include "nqueens/export.hpp"
#include "nqueens/options.hpp"
#include "nqueens/symmetry.hpp"

namespace nqueens {

//! An engine the library can count with: its name (what CountOptions::engine takes), what it
//! does in one line, and the settings it takes. Engines differ in what a work unit is and how
//! it is counted; everything after that (scheduler, reduction, journal, shards, MPI) is shared.
struct EngineInfo {
  std::string name;                   //!< what CountOptions::engine takes
  std::string summary;                //!< what the engine does, in one line
  std::vector<std::string> settings;  //!< the EngineSettings names it takes
};

//! Every engine of this build, in the order CountOptions::engine = "auto" considers them.
NQUEENS_EXPORT std::vector<EngineInfo> available_engines();

//! What count() returns: the totals of N and how they were counted.
struct CountResult {
  int n = 0;                                //!< the board size
  Totals totals;                            //!< every solution, and the orbit counts that give `unique`
  std::optional<Count> unique;              //!< set when the run yields it (full symmetry, whole run)
  std::optional<Count> half_turn_fixed;     //!< S180, set with `unique`
  std::optional<Count> quarter_turn_fixed;  //!< S90, set with `unique`
  std::string engine;                       //!< the engine that counted (never "auto")
  //! The engine's settings as the run used them, each it takes (EngineInfo::settings), resolved:
  //! the dfs engine's "symmetry" and its "split-depth" as chosen from N. Empty for an engine
  //! that takes none.
  EngineSettings settings;
  std::size_t work_units = 0;  //!< the run's units
  int threads = 0;             //!< the threads that counted
  double seconds = 0;          //!< wall time of this process's count
  //! The sum over the units of the result of the wall time each took on its worker thread
  //! (close to their CPU time: a worker runs one unit at a time), in every run that counted
  //! them: units replayed from a journal or read from shard files included.
  std::uint64_t unit_microseconds = 0;
};

//! Counts all solutions on an n x n board. Throws std::invalid_argument on bad options, and
//! Cancelled when `options.stop` ended the count early.
NQUEENS_EXPORT CountResult count(int n, const CountOptions& options = {});

}  // namespace nqueens
