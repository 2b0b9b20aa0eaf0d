#pragma once
// Counting in one call: split, schedule, reduce. This is what the CLI and other programs use.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "nqueens/export.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/symmetry.hpp"

namespace nqueens {

//! The two ways of counting. Both split N into numbered work units and share everything after
//! that (scheduler, journal, shards, MPI); they differ in what a unit is and how it is counted.
enum class EngineKind {
  automatic,  //!< the engine measured fastest for this N on this kind of machine
  dfs,        //!< board prefixes completed by the bitmask depth-first search
  join,       //!< row sets whose east and west half-boards are joined by diagonal keys
};

NQUEENS_EXPORT std::string_view to_string(EngineKind kind);
NQUEENS_EXPORT std::optional<EngineKind> parse_engine(std::string_view text);  //!< "auto", "dfs" or "join"

//! Called once per finished unit with its id and counts, from whichever thread ran it: it must
//! be thread-safe. This is the hook journals and progress reports attach to.
using UnitObserver = std::function<void(std::size_t id, const Tally& tally)>;

struct CountOptions {
  EngineKind engine = EngineKind::automatic;
  Symmetry symmetry = Symmetry::full;  //!< dfs only: the join engine always folds every symmetry
  int split_depth = 0;                 //!< dfs only; 0: automatic (auto_split_depth)
  int threads = 0;                     //!< 0: every hardware thread
  UnitObserver on_unit_done;
  //! Not null: once it reads true no further unit starts (units running finish), and count()
  //! throws Cancelled. Set it from the observer, another thread or a signal handler.
  const std::atomic<bool>* stop = nullptr;
};

//! count() was stopped through CountOptions::stop before every unit was counted.
struct NQUEENS_EXPORT Cancelled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CountResult {
  int n = 0;
  Totals totals;
  std::optional<Count> unique;              //!< set when the run yields it (full symmetry, whole run)
  std::optional<Count> half_turn_fixed;     //!< S180, set with `unique`
  std::optional<Count> quarter_turn_fixed;  //!< S90, set with `unique`
  EngineKind engine = EngineKind::dfs;      //!< the engine that counted (never automatic)
  Symmetry symmetry = Symmetry::full;
  int split_depth = 0;
  std::size_t work_units = 0;
  int threads = 0;
  double seconds = 0;  //!< wall time of this process's count
  //! The sum over the units of the result of the wall time each took on its worker thread
  //! (close to their CPU time: a worker runs one unit at a time), in every run that counted
  //! them: units replayed from a journal or read from shard files included.
  std::uint64_t unit_microseconds = 0;
  std::size_t untimed_units = 0;  //!< units of the result with no known time (format 2 files)
};

//! Largest thread count accepted: beyond this a request is a typo, not a machine.
inline constexpr int kMaxThreads = 4096;

//! Hardware threads available to this process.
NQUEENS_EXPORT int hardware_threads();

//! The thread count a run uses for a request: 0 means every hardware thread. Throws
//! std::invalid_argument outside 0..kMaxThreads.
NQUEENS_EXPORT int resolve_threads(int requested);

//! Counts all solutions on an n x n board. Throws std::invalid_argument on bad options, and
//! Cancelled when `options.stop` ended the count early.
NQUEENS_EXPORT CountResult count(int n, const CountOptions& options = {});

}  // namespace nqueens
