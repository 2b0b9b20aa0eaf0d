#pragma once
// The options of a count: which engine with which settings, threads, memory, a checkpoint
// journal, and the hooks that watch or stop it. Every stage of the library reads them, so they
// stand apart from count() itself (nqueens/count.hpp), which runs them.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "nqueens/counts.hpp"
#include "nqueens/export.hpp"

namespace nqueens {

//! Settings of one engine beyond the options every engine shares, by name, each value spelt as
//! on the command line: the dfs engine's "symmetry" ("none", "mirror" or "full", its default)
//! and "split-depth" (rows fixed per work unit; "0", its default, chooses from N). An engine
//! refuses a setting it does not take (std::invalid_argument), and `auto` passes over it.
using EngineSettings = std::map<std::string, std::string, std::less<>>;

//! Called once per finished unit with its id and counts, from whichever thread ran it: it must
//! be thread-safe. This is the hook journals and progress reports attach to.
using UnitObserver = std::function<void(std::size_t id, const Tally& tally)>;

//! How far a count has come: in work units, and as the share of the work done, for a progress bar
//! or a percentage. Units differ in cost by orders of magnitude (the costliest are counted first),
//! so `work_done` is what a percentage should show: each unit weighted by its engine's estimated
//! cost, as the program's own progress line weighs them.
struct Progress {
  std::size_t units_done = 0;   //!< counted so far, those a checkpoint journal held included
  std::size_t units_total = 0;  //!< the run's units
  double work_done = 0;         //!< 0 to 1: the cost of the units done over the cost of them all
};

//! Called once before the first unit with what a checkpoint journal already held, then as units
//! finish: at most about ten times a second, and always when the last unit finishes. Calls come
//! from the counting threads but one at a time, never two at once, and their values only grow;
//! a slow callback holds up the workers that finish a unit meanwhile. For every unit, use
//! CountOptions::on_unit_done.
using ProgressObserver = std::function<void(const Progress& progress)>;

//! How count() counts: the engine and its settings, threads, memory, a checkpoint journal, and
//! the hooks that watch or stop it.
struct CountOptions {
  //! An engine's name (available_engines()), or "auto": the engine measured fastest for this N.
  std::string engine = "auto";
  EngineSettings settings{};  //!< the chosen engine's own settings (EngineInfo::settings)
  int threads = 0;            //!< 0: every hardware thread
  //! The most memory the count may hold, in bytes; 0: the default budget, as `nqueens count` takes
  //! it: half of the memory this process may use (physical memory, a cgroup's or `ulimit -v`'s
  //! limit), after the room its threads take. An engine that cannot count N within it refuses
  //! (std::invalid_argument).
  std::uint64_t memory_bytes = 0;
  //! Not empty: a checkpoint journal. Units it holds are not counted again, every unit counted
  //! is appended to it, and an interrupted count (stop, a crash) resumes from it when called
  //! again with the same N and options. With engine "auto", a journal is resumed with the engine
  //! it was started with where that engine can count N, as `nqueens count` and `nqueens-mpi`
  //! resume it. A journal of another run is refused (JournalMismatch).
  std::filesystem::path checkpoint{};
  UnitObserver on_unit_done{};     //!< not empty: called once per finished unit
  ProgressObserver on_progress{};  //!< not empty: called as the count advances (throttled, serialised)
  //! Not null: once it reads true no further unit starts (units running finish), and count()
  //! throws Cancelled. Set it from the observer, another thread or a signal handler.
  const std::atomic<bool>* stop = nullptr;
};

//! count() was stopped through CountOptions::stop before every unit was counted.
struct NQUEENS_EXPORT Cancelled : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! Largest thread count accepted: beyond this a request is a typo, not a machine.
inline constexpr int kMaxThreads = 4096;

//! Hardware threads available to this process.
NQUEENS_EXPORT int hardware_threads();

//! The thread count a run uses for a request: 0 means every hardware thread. Throws
//! std::invalid_argument outside 0..kMaxThreads.
NQUEENS_EXPORT int resolve_threads(int requested);

}  // namespace nqueens
