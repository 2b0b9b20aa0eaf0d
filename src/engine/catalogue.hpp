#pragma once
// The engine catalogue: what every engine says of itself (EngineDescription) and the lookups
// over all of them. An engine is a folder under src/ (its splitter, its kernel) and one
// description of itself, made in that folder; run/registry.cpp lists the descriptions, and that
// list is the only place outside an engine's folder that names it. Everything else (option
// lists, --help, the choice behind `auto`, file headers, check and merge advice, bench,
// `version`) reads the catalogue, so a new engine is a folder and a registry line.
//
// The catalogue stands on the ground floor with the engine interface (engine.hpp), below the
// engines and the file formats that read it; building engines (choose_engine, make_engine) is
// the run's (run/registry.hpp).
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/engine.hpp"
#include "nqueens/options.hpp"
#include "nqueens/run_header.hpp"

namespace nqueens {

//! A whole run's thread time at one N, measured: what the cost notice (plan/rough_cost.hpp)
//! says before anything is built.
struct RoughCost {
  int n;
  double thread_seconds;
};

struct EngineDescription {
  std::string_view name;     //!< as --engine, run headers and results spell it
  std::string_view summary;  //!< one line for --help and `version`
  //! Why this engine cannot count n with these options (a board it cannot split, an option it
  //! does not take), in the words of the library's options; "" when it can.
  std::string (*refusal)(int n, const CountOptions& options);
  //! Whether `auto` may take this engine for n: the registry asks in its order and takes the
  //! first that says yes and does not refuse.
  bool (*preferred_for)(int n, const CountOptions& options);
  //! Builds the run's units (called only when refusal() is empty), on the caller's arena.
  std::unique_ptr<Engine> (*make)(int n, const CountOptions& options);
  //! Why no run of this engine can have `header` (N, symmetry, split depth and unit count
  //! checked against what the splitter can make); "" when one could. Files are checked with it
  //! before anything is sized by their unit count.
  std::string (*header_problem)(const RunHeader& header);
  //! The `count` options beyond -n and --engine that make the run of `header` again
  //! (" --symmetry none --split-depth 3"), for the advice of check and merge; often "".
  std::string (*run_options)(const RunHeader& header);
  //! Whether a part of a run (a shard, a unit list) reports unique counts. False where units
  //! carry weights of partial structures, whose share in a part means nothing on its own.
  bool partial_runs_report_unique;
  //! The one engine `bench` compares the others with (its vs_<name> column): the general one,
  //! which counts every N with every option, so that every engine is judged on one yardstick.
  bool yardstick;
  //! The hardware path the engine's kernel takes here (the SIMD path on this CPU, the devices a
  //! driver sees), for `version` and the JSON context, under this key ("dfs_kernel": "avx2"); an
  //! empty key for an engine without one.
  std::string_view cpu_path_key;
  std::string (*cpu_path)();
  //! What a run of n will hold under the budget of `options` (CountOptions::memory_bytes), in
  //! one line for the log before anything is allocated; throws std::invalid_argument with the
  //! reason when the budget is too small. Null for an engine whose memory does not grow with N.
  std::string (*memory_plan)(int n, const CountOptions& options) = nullptr;
  //! Who chose cpu_path, as `version` says it: "(on this CPU)".
  std::string_view path_seen_by = "this CPU";
  //! The CountOptions::settings it takes, by name; refusal() refuses any other.
  std::span<const std::string_view> settings = {};
  //! Thread-seconds of whole runs at measured N, ascending (at least two for an estimate); empty
  //! for an engine whose speed depends on what it runs on (a device), which is then not announced.
  std::span<const RoughCost> rough_costs = {};
  //! The engine whose units, and counts of them, this one shares ("join" for the join's units
  //! counted on other hardware); empty: its own. One run's shard files may mix such engines.
  std::string_view shares_units_of = {};
};

//! The engine whose units `engine` counts: shares_units_of where set, else `engine` itself (and
//! an unknown name stays itself).
std::string_view unit_family(std::string_view engine);

//! The name --engine takes for "the fastest engine for this N".
inline constexpr std::string_view kAutomaticEngine = "auto";

//! Every engine, in the order `auto` considers them (defined by the registry, run/registry.cpp).
std::span<const EngineDescription* const> registered_engines();

//! The engine of that name, or nullptr.
const EngineDescription* find_engine(std::string_view name);

//! The engine whose `yardstick` is set.
const EngineDescription& yardstick_engine();

//! "auto, join, dfs, reference": what --engine accepts, for messages.
std::string engine_choices();

//! Why an engine that takes no setting cannot count with `options`: "<because>, so it takes no
//! --symmetry mirror" (settings are named as the command line spells them); "" when it has none.
std::string settings_refused(const CountOptions& options, std::string_view because);

//! "-n 17 --engine dfs --symmetry none --split-depth 3": `count` options for the run of
//! `header`, for the advice of check and merge.
std::string run_options_text(const RunHeader& header);

}  // namespace nqueens
