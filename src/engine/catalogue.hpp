#pragma once
// The engine catalogue: what every engine says of itself (EngineDescription) and the lookups
// over all of them. An engine is a folder under src/ (its splitter, its kernel) and one
// description of itself, made in that folder; run/registry.cpp lists the descriptions, and that
// list is the only place outside an engine's folder that names it. Everything else (option
// lists, --help, the choice behind `auto`, file headers, check and merge advice, bench,
// `version`) reads the catalogue, so a new engine is a folder and a registry line.
//
// The catalogue stands on the ground floor with the engine interface (engine.hpp), below the
// engines and the file formats that read it, and links none of them: the registry hands it its
// entries. Building engines (choose_engine, make_engine) is the run's (run/registry.hpp).
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/engine.hpp"
#include "engine/run_request.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/options.hpp"

namespace nqueens {

//! A whole run's thread time at one N, measured: what the cost notice (run/rough_cost.hpp)
//! says before anything is built.
struct RoughCost {
  int n;
  double thread_seconds;
};

//! A setting an engine takes (CountOptions::settings), declared once by its engine: the command
//! line's option (--<name>) with its help and completion, the run header's word and the
//! records' column (<name> with '_' for '-', setting_key()) are all made from it. Its value is
//! the default, one of `choices` or, where there are none, a whole number from `least` to `most`.
struct SettingDescription {
  std::string_view name;           //!< "split-depth": --split-depth
  std::string_view help;           //!< one line for --help
  std::string_view default_value;  //!< what the engine takes when it is not given ("0": chosen from N)
  std::span<const std::string_view> choices = {};
  long long least = 0;
  long long most = 0;
  //! Whether results and records show the value as a number (a whole-number setting) or a word.
  bool whole_number() const { return choices.empty(); }
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
  //! Builds the run's units (called only when refusal() is empty), on the caller's arena, from
  //! the resolved request: its threads and budget are final (never 0).
  std::unique_ptr<Engine> (*make)(const RunRequest& request);
  //! Why no run of this engine can have `header` (N, the unit count and its settings' values
  //! checked against what the splitter can make; the settings are already known to be those it
  //! declares, each present); "" when one could. Files are checked with it before anything is
  //! sized by their unit count.
  std::string (*header_problem)(const RunHeader& header);
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
  //! What the run of `request` will hold under its budget (RunRequest::memory_bytes), worked out
  //! before anything is allocated: its line for the log, and the figures make() builds the run
  //! from when the request carries the plan (engine/memory_plan.hpp); throws
  //! std::invalid_argument with the reason when the budget is too small. Null for an engine whose
  //! memory does not grow with N.
  std::shared_ptr<const MemoryPlan> (*memory_plan)(const RunRequest& request) = nullptr;
  //! For an engine without a memory_plan, whose run holds little but its unit list: why the
  //! budget of `options` cannot hold even that (unit_list_refusal), "" when it can, so that a
  //! budget is honoured by every engine, never passed over in silence. Null: no such check.
  std::string (*budget_refusal)(int n, const CountOptions& options) = nullptr;
  //! Who chose cpu_path, as `version` says it: "(on this CPU)".
  std::string_view path_seen_by = "this CPU";
  //! The settings it takes (CountOptions::settings), in the order --help and run options show
  //! them; a run's header holds each of them, resolved.
  std::span<const SettingDescription> settings = {};
  //! Thread-seconds of whole runs at measured N, ascending (at least two for an estimate); empty
  //! for an engine whose speed depends on what it runs on (a device), which is then not announced.
  std::span<const RoughCost> rough_costs = {};
  //! Whether the run of `header` counts whole symmetry orbits, which give the unique count and
  //! the counts of boards fixed by a turn; null: always. False where a setting cut the search by
  //! less than every symmetry.
  bool (*counts_orbits)(const RunHeader& header) = nullptr;
  //! The engine whose units, and counts of them, this one shares ("join" for the join's units
  //! counted on other hardware); empty: its own. One run's shard files may mix such engines.
  std::string_view shares_units_of = {};
  //! A second way to count this engine's units that shares none of its counting code, for `check
  //! --recount --by independent`: builds it for the run of `header`, a run of this engine or of
  //! one that shares its units (held to the header's unit count and fingerprint;
  //! std::invalid_argument otherwise). Its tallies agree with the engine's in totals and orbit
  //! counts; their nodes are its own. Null: the engine has none.
  std::unique_ptr<Engine> (*independent_recount)(const RunHeader& header) = nullptr;
  //! What that path does, in a few words for check's report.
  std::string_view independent_recount_text = {};
};

//! The engine whose units `engine` counts: shares_units_of where set, else `engine` itself (and
//! an unknown name stays itself).
std::string_view unit_family(std::string_view engine);

//! The name --engine takes for "the fastest engine for this N".
inline constexpr std::string_view kAutomaticEngine = "auto";

//! Every engine, in the order `auto` considers them: the entries the registry (run/registry.cpp)
//! hands the catalogue as the library loads. The catalogue links no engine, so neither do the
//! file formats that check headers against it; the registry, floors above, links them all.
std::span<const EngineDescription* const> registered_engines();

//! Takes the registry's entries (they outlive every use): called once, by the registry alone.
void catalogue_engines(std::span<const EngineDescription* const> engines);

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
//! `header` (every setting it holds, in its engine's order), for the advice of check and merge.
std::string run_options_text(const RunHeader& header);

//! The setting of that name `engine` declares, or nullptr.
const SettingDescription* find_setting(const EngineDescription& engine, std::string_view name);

//! Why `value` is no value of `setting`: "--split-depth must be a whole number from 1 to 8, not
//! 0"; "" when it is one (its default included).
std::string setting_value_problem(const SettingDescription& setting, std::string_view value);

//! Why `engine` cannot take `settings`: a name it does not declare ("the join engine takes no
//! --symmetry"), or a value that setting cannot have; "" when it takes them all.
std::string settings_problem(const EngineDescription& engine, const EngineSettings& settings);

}  // namespace nqueens
