#include "count_options.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "checkpoint_path.hpp"
#include "files/echo.hpp"
#include "nqueens/shard.hpp"
#include "nqueens/symmetry.hpp"
#include "report.hpp"
#include "run/registry.hpp"

namespace nqueens::shell {

namespace {

// CLI11 wants a checker that returns the reason as text; parse_shard_spec throws it.
std::string check_shard_spec(const std::string& text) {
  try {
    parse_shard_spec(text);
    return std::string();
  } catch (const std::invalid_argument& bad) {
    return std::string(bad.what());
  }
}

// An empty file name would otherwise mean "none": --checkpoint "" a run without a journal,
// --output "" the shard file on stdout, both without a word.
std::string check_file_name(const std::string& text) { return text.empty() ? "the file name is empty" : ""; }

// `--units @FILE`: a list too long for a command line, as `merge --missing FILE` writes it.
std::string read_unit_list(const std::string& path) {
  std::ifstream in(path);
  std::string list;
  if (!in || !std::getline(in, list)) throw std::invalid_argument("--units: cannot read the unit list in " + path);
  return list;
}

}  // namespace

detail::WritePolicy output_policy(const CountArgs& args, const std::vector<int>& sizes) {
  detail::WritePolicy policy{"--output", "the shard file", {}};
  if (!args.checkpoint.empty()) {
    const std::filesystem::path journal = journal_path(args.checkpoint, sizes.front(), sizes.size());
    policy.inputs.push_back({journal, "--checkpoint " + detail::shown_path(journal)});
  }
  if (args.units.starts_with('@'))
    policy.inputs.push_back({args.units.substr(1), "--units @" + detail::shown_path(args.units.substr(1))});
  return policy;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> names{std::string(kAutomaticEngine)};
  for (const EngineDescription* engine : registered_engines()) names.emplace_back(engine->name);
  return names;
}

std::string engine_option_help() {
  std::string help = "Counting engine: auto (the fastest for each N)";
  for (const EngineDescription* engine : registered_engines())
    help += ", " + std::string(engine->name) + " (" + std::string(engine->summary) + ")";
  return help;
}

void add_search_options(CLI::App& command, SearchArgs& args) {
  command.add_option("--engine", args.engine, engine_option_help())
      ->check(CLI::IsMember(engine_names()))
      ->capture_default_str();
  command.add_option("--symmetry", args.symmetry, "Symmetry used to cut the search: none, mirror or full (dfs)")
      ->check(CLI::IsMember({"none", "mirror", "full"}))
      ->capture_default_str();
  command
      .add_option("--split-depth", args.split_depth,
                  "Rows fixed per work unit, for an engine that splits by rows (default: chosen from N)")
      ->check(CLI::NonNegativeNumber);
}

CountOptions search_options(const SearchArgs& args) {
  CountOptions options;
  options.engine = args.engine;
  options.symmetry = *parse_symmetry(args.symmetry);
  options.split_depth = args.split_depth;
  return options;
}

void add_count_options(CLI::App& command, CountArgs& args) {
  // Also positional: `nqueens count 18` is `nqueens count -n 18`.
  command.add_option("-n,--n,N", args.spec, "Board sizes: N, a range A-B, or a list such as 8,10,12-14 (1..32)")
      ->required();
  command.add_option("-t,--threads", args.threads, "Worker threads (default: all hardware threads)")
      ->check(CLI::Range(1, kMaxThreads));
  add_search_options(command, args.search);
  command.add_flag("--verify", args.verify, "Compare with OEIS A000170/A002562; exit 1 on any mismatch");
  add_format_option(command, args.format);
  add_json_counts_option(command, args.json_counts);
  CLI::Option* shard =
      command
          .add_option("--shard", args.shard,
                      "Count only shard I of K (1-based) and write a shard file for `nqueens merge`; one N only")
          ->type_name("I/K")
          ->check(check_shard_spec);
  shard->excludes(command.get_option("--verify"))->excludes(command.get_option("--format"));
  command
      .add_option("--units", args.units,
                  "Count only these unit ids (as `check` and `merge` list them: 3,7-9) and write a shard file "
                  "for `nqueens merge`; one N only")
      ->type_name("LIST")
      ->excludes(shard)
      ->excludes(command.get_option("--verify"))
      ->excludes(command.get_option("--format"));
  command
      .add_option("--output", args.output, "With --shard or --units: write the shard file here instead of to stdout")
      ->type_name("FILE")
      ->check(check_file_name);
  CLI::Option* checkpoint =
      command
          .add_option("--checkpoint", args.checkpoint,
                      "Record finished work units in this journal and resume from it when run again; with several "
                      "N, a directory of journals, one per N")
          ->type_name("PATH")
          ->check(check_file_name);
  command
      .add_flag("--repair", args.repair,
                "With --checkpoint: keep the sound records of a damaged journal (and a copy of the file) and count "
                "the damaged or missing units again")
      ->needs(checkpoint);
  command
      .add_option("--progress-interval", args.progress_interval,
                  "Seconds between progress lines on stderr when it is not a terminal")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  command.add_flag("--no-progress", args.no_progress, "No progress on stderr (-q implies it)");
  add_logging_options(command, args.log);
}

void check_every_size(const std::vector<int>& sizes, const CountOptions& options) {
  for (const int n : sizes) choose_engine(n, options);
}

CountOptions engine_options(const CountArgs& args) {
  CountOptions options = search_options(args.search);
  options.threads = args.threads;
  return options;
}

RunSettings run_settings(const CountArgs& args, const std::vector<int>& sizes) {
  RunSettings session;
  if (!args.checkpoint.empty()) session.checkpoint = args.checkpoint;
  if (!args.shard.empty()) session.selection = Selection::shard(parse_shard_spec(args.shard));
  if (!args.units.empty())
    session.selection =
        Selection::units(args.units.starts_with('@') ? read_unit_list(args.units.substr(1)) : args.units);
  session.repair = args.repair;
  const bool part = !session.selection.whole();
  if (!args.output.empty() && !part) throw std::invalid_argument("--output needs --shard or --units");
  if (part && sizes.size() != 1)
    throw std::invalid_argument(std::string(args.units.empty() ? "--shard" : "--units") +
                                " needs a single board size, not '" + args.spec + "'");
  if (session.checkpoint) check_checkpoint(*session.checkpoint, sizes.size());
  if (!args.output.empty()) output_policy(args, sizes).target(args.output);  // refused now, before anything is touched
  session.progress.enabled = !args.no_progress && !args.log.quiet;
  session.progress.interval_seconds = args.progress_interval;
  return session;
}

}  // namespace nqueens::shell
