// `nqueens merge FILES...`: shard files back into one result. It prints the result the way
// `count` does, but only when the files cover every unit of one run exactly once; otherwise it
// names the units that are missing, doubled, conflicting or altered, prints no total, and
// exits 1.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "file_kind.hpp"
#include "files/file_io.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/report.hpp"
#include "shell/output/verify.hpp"
#include "text/echo.hpp"
#include "unit_subtotals.hpp"

namespace nqueens::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> files;
  bool verify = false;
  std::string format = "text";
  std::string json_counts = "number";
  bool wide = false;
  std::string missing_file;
  std::string subtotals_file;  // --subtotals: the per-unit subtotals written here
  std::string compare_file;    // --compare: another run's subtotals, compared unit by unit
  LogArgs log;
};

// Ids listed at most this many runs long before the rest is summarised.
constexpr std::size_t kMaxRuns = 20;
// A recount command is printed with its ids in full up to this many runs.
constexpr std::size_t kMaxRecountRuns = 200;

// "unit 7" or "units 0-16,40,52-53", cut after kMaxRuns ranges.
std::string id_ranges(const std::vector<std::size_t>& ids) {
  return (ids.size() == 1 ? "unit " : "units ") + format_id_ranges(ids, kMaxRuns);
}

// The files' names, cut after kMaxRuns of them.
std::string file_list(const std::vector<std::size_t>& files, const std::vector<ShardFile>& shards) {
  std::string text;
  for (std::size_t i = 0; i < files.size() && i < kMaxRuns; ++i)
    text += (i ? ", " : "") + detail::shown_path(shards[files[i]].source);
  if (files.size() > kMaxRuns) text += fmt::format(", ... ({} files in all)", files.size());
  return text;
}

// One line per set of files: a doubled shard file gives one line, not one per unit. At most
// kMaxRuns lines, however the problems are spread over the files.
void print_problems(const char* what, const std::vector<UnitProblem>& problems, const std::vector<ShardFile>& shards) {
  std::map<std::vector<std::size_t>, std::vector<std::size_t>> by_files;
  for (const UnitProblem& problem : problems) by_files[problem.files].push_back(problem.id);
  std::size_t lines = 0;
  for (const auto& [files, ids] : by_files) {
    if (lines++ == kMaxRuns) {
      fmt::print(stderr, "nqueens: error: {}: {} units in all, in {} sets of files\n", what, problems.size(),
                 by_files.size());
      break;
    }
    fmt::print(stderr, "nqueens: error: {}: {} in {}\n", what, id_ranges(ids), file_list(files, shards));
  }
}

// Shards of different splits (1/4 beside 1/8) overlap and leave gaps however many are given:
// each split deals the units out anew. Say so, naming one file of each split, rather than let
// the duplicates and gaps speak alone.
bool print_mixed_splits(const std::vector<ShardFile>& shards) {
  std::map<int, const ShardFile*> by_count;  // k -> the first file of a split into k
  for (const ShardFile& shard : shards)
    if (shard.head_trusted && shard.shard.count > 0) by_count.try_emplace(shard.shard.count, &shard);
  if (by_count.size() < 2) return false;
  std::string splits;
  for (const auto& [count, shard] : by_count) {
    if (!splits.empty()) splits += ", ";
    splits += std::to_string(shard->shard.index) + "/" + std::to_string(count) + " (" +
              detail::shown_path(shard->source) + ")";
  }
  fmt::print(stderr,
             "nqueens: error: the files are shards of {} different splits: {}; each split deals the units out "
             "anew, so merge the shards of one split (all of 1/K .. K/K for one K)\n",
             by_count.size(), splits);
  return true;
}

// When every file is a shard of the same k, the likely cause is a whole shard file left out or
// given twice: say which, as well as the unit ids. Shard numbers are listed as ranges, cut like
// unit ids, so one shard of a million prints two lines, not a million.
void print_shard_hints(const std::vector<ShardFile>& shards) {
  const int count = shards.front().shard.count;
  std::vector<int> files_per_shard(static_cast<std::size_t>(count) + 1);
  for (const ShardFile& shard : shards) {
    if (!shard.head_trusted || shard.shard.count != count || shard.shard.index < 1 || shard.shard.index > count) return;
    ++files_per_shard[static_cast<std::size_t>(shard.shard.index)];
  }
  std::vector<std::size_t> absent;
  std::map<int, std::vector<std::size_t>> given;  // times given -> shard indices
  for (int index = 1; index <= count; ++index) {
    const int files = files_per_shard[static_cast<std::size_t>(index)];
    if (files == 0) absent.push_back(static_cast<std::size_t>(index));
    if (files > 1) given[files].push_back(static_cast<std::size_t>(index));
  }
  if (!absent.empty())
    fmt::print(stderr, "nqueens: error: no file for shard{} {} of {}\n", absent.size() == 1 ? "" : "s",
               format_id_ranges(absent, kMaxRuns), count);
  for (const auto& [files, indices] : given)
    fmt::print(stderr, "nqueens: error: shard{} {} of {} {} given {} times\n", indices.size() == 1 ? "" : "s",
               format_id_ranges(indices, kMaxRuns), count, indices.size() == 1 ? "is" : "are", files);
}

// How to count what is missing into one more file for the merge, instead of running it all
// again: the ids in full on the command line when they are few, else through --missing FILE.
void print_recount(const MergeReport& report, const std::string& missing_file, detail::AtomicFile* list) {
  if (report.missing.empty()) return;
  std::string units = format_id_ranges(report.missing, kMaxRecountRuns);
  if (list != nullptr) {
    list->write(format_id_ranges(report.missing) + "\n");
    list->commit();
    units = "@" + detail::shown_path(missing_file);
  } else if (units.find("...") != std::string::npos) {
    fmt::print(stderr,
               "nqueens: error: to count the {} missing units again, merge with --missing FILE to list them in FILE, "
               "then: nqueens count {} --units @FILE --output recount.json\n",
               report.missing.size(), run_options_text(report.header));
    return;
  }
  fmt::print(stderr,
             "nqueens: error: to count the {} missing units again: nqueens count {} --units {} --output recount.json "
             "(then merge again with recount.json added)\n",
             report.missing.size(), run_options_text(report.header), units);
}

void print_report(const MergeReport& report, const std::vector<ShardFile>& shards, const std::string& missing_file,
                  const detail::WritePolicy& policy) {
  // Claimed before anything is printed: a --missing file that cannot be written (a live
  // journal, another process's FILE.partial) is refused in its one line, not after the report.
  std::unique_ptr<detail::AtomicFile> list;
  if (!report.missing.empty() && !missing_file.empty())
    list = std::make_unique<detail::AtomicFile>(missing_file, policy);
  if (!report.missing.empty())
    fmt::print(stderr, "nqueens: error: missing ({} of {} units): {}\n", report.missing.size(),
               report.header.unit_count, id_ranges(report.missing));
  print_problems("duplicated", report.duplicated, shards);
  print_problems("conflicting counts", report.conflicting, shards);
  print_problems("altered (checksum does not match the counts)", report.altered, shards);
  if (!print_mixed_splits(shards)) print_shard_hints(shards);
  print_recount(report, missing_file, list.get());
  fmt::print(stderr, "nqueens: error: no total: the files do not hold every unit of the run exactly once\n");
}

// The shards' own figures: their seconds added up (the machine time the run took), the widest
// thread count among them, and the time of the units merged.
CountResult merged_result(const MergeReport& report, const std::vector<ShardFile>& shards) {
  double seconds = 0;
  int threads = 0;
  for (const ShardFile& shard : shards) {
    seconds += shard.seconds;
    threads = std::max(threads, shard.threads);
  }
  return make_count_result(report.header, report.totals, report.unit_time, true, threads, seconds);
}

// What the run took of wall time had every shard run at once; `seconds` is their sum.
double longest_shard_seconds(const std::vector<ShardFile>& shards) {
  double longest = 0;
  for (const ShardFile& shard : shards) longest = std::max(longest, shard.seconds);
  return longest;
}

// The files, each losing at most what is damaged in it: a damaged entry, or its header line,
// whose run the entries are then checked under (the runs of the other files included). A file
// whose entries fit no run is left out; its units are missing unless other files hold them.
std::vector<ShardFile> read_shards(const std::vector<std::string>& paths) {
  std::vector<RunHeader> runs;
  for (const std::string& path : paths)
    if (const auto run = read_shard_run(path); run && std::find(runs.begin(), runs.end(), *run) == runs.end())
      runs.push_back(*run);
  std::vector<ShardFile> shards;
  std::vector<std::string> left_out;
  for (const std::string& path : paths) {
    try {
      shards.push_back(read_shard_file(path, runs));
    } catch (const ShardRunUnknown& unknown) {
      left_out.push_back(unknown.what());
    }
  }
  if (shards.empty()) throw ShardFileError(left_out.front());
  for (const std::string& why : left_out) spdlog::warn("{}; it is left out of the merge", why);
  for (const ShardFile& shard : shards) {
    if (shard.damaged.empty()) continue;
    const LineDamage& first = shard.damaged.front();
    spdlog::warn(
        "{} line {}: {}{}; its {} sound entries are used, the units of damaged ones count as missing unless "
        "another file holds them",
        shard.source, first.line, first.problem,
        shard.damaged.size() > 1 ? fmt::format(" (and {} more damaged lines)", shard.damaged.size() - 1) : "",
        shard.units.size());
  }
  return shards;
}

// --missing FILE is never one of the shard files read, nor anything but a regular file: checked
// before any file is read, so a refusal leaves everything as it was.
detail::WritePolicy missing_policy(const MergeArgs& args) {
  detail::WritePolicy policy{"--missing", "the list of missing units", {}};
  for (const std::string& file : args.files)
    policy.inputs.push_back({file, "the shard file " + detail::shown_path(file)});
  if (!args.missing_file.empty()) policy.target(args.missing_file);
  return policy;
}

detail::WritePolicy subtotals_policy(const MergeArgs& args) {
  detail::WritePolicy policy{"--subtotals", "the subtotals file", {}};
  for (const std::string& file : args.files)
    policy.inputs.push_back({file, "the shard file " + detail::shown_path(file)});
  if (!args.compare_file.empty()) policy.inputs.push_back({args.compare_file, "the --compare file"});
  if (!args.subtotals_file.empty()) policy.target(args.subtotals_file);
  return policy;
}

// --subtotals and --compare, on a complete merge: the per-unit file written, and every unit whose
// counts differ from the other run's named on stderr. True when the runs agree (or nothing was
// compared).
bool subtotals_agree(const MergeArgs& args, const MergeReport& report, const std::vector<ShardFile>& shards,
                     const detail::WritePolicy& policy) {
  if (args.subtotals_file.empty() && args.compare_file.empty()) return true;
  const Subtotals here = subtotals_of(report.header, shards);
  const std::string text = subtotals_text(here);
  if (!args.subtotals_file.empty()) {
    detail::write_file_atomically(args.subtotals_file, text, policy);
    spdlog::info("{}: the subtotals of {} units, {}", detail::shown_path(args.subtotals_file), here.units.size(),
                 text.substr(text.rfind("crc="), 12));
  }
  if (args.compare_file.empty()) return true;
  const Subtotals there = read_subtotals(args.compare_file);
  const std::string name = detail::shown_path(args.compare_file);
  const std::vector<std::string> differences = subtotal_differences(here, there, name);
  for (const std::string& difference : differences) fmt::print(stderr, "nqueens: error: {}\n", difference);
  if (differences.empty())
    spdlog::info("every one of the {} units agrees with {} (crc={})", here.units.size(), name, there.crc);
  else
    fmt::print(stderr, "nqueens: error: {} unit{} from {}\n", differences.size(),
               differences.size() == 1 ? " differs" : "s differ", name);
  return differences.empty();
}

// Why `path` cannot be read as a shard file, or "". A file that is not there where FILE.partial
// is, held by no process, was being written by a count killed outright (SIGKILL): said, with the
// way on.
std::string not_a_readable_shard_file(const std::string& path) {
  std::string why = detail::not_regular_file(path);
  std::error_code unknown;
  const std::filesystem::path partial = detail::temporary_path(path);
  if (why.empty() || std::filesystem::exists(std::filesystem::symlink_status(path, unknown)) ||
      !std::filesystem::is_regular_file(std::filesystem::symlink_status(partial, unknown)) ||
      !detail::locked_by_another(partial).empty())
    return why;
  return fmt::format(
      "{}; {} beside it was left by a count killed before it finished the file: count that shard again with the "
      "same --output (the leftover is replaced)",
      why, detail::shown_path(partial));
}

// A journal or a file of no kind of ours is bad input, named as what it is, before any shard file
// is read: only a file that starts like a shard file and does not read is a damaged one.
void refuse_other_kinds(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    const std::string shown = detail::shown_path(path);
    switch (file_kind(path)) {
      case FileKind::journal:
        throw std::invalid_argument(fmt::format(
            "{} is a checkpoint journal, not a shard file: merge takes the files of `nqueens count --shard`; "
            "`nqueens check {}` reads a journal",
            shown, shown));
      case FileKind::other:
        throw std::invalid_argument(fmt::format(
            "{} is not a shard file (nor a journal): merge takes the files of `nqueens count --shard`", shown));
      case FileKind::shard_file:
      case FileKind::unreadable: break;  // read_shards() reads it, or says why it cannot
    }
  }
}

int run(const MergeArgs& args) {
  apply_logging(args.log);
  const detail::WritePolicy policy = missing_policy(args);
  const detail::WritePolicy subtotals_write = subtotals_policy(args);
  refuse_other_kinds(args.files);
  // A --missing FILE.partial of a merge killed outright (SIGKILL) goes now, whether or not this
  // merge writes the list: nothing missing writes nothing, which left it for good.
  if (!args.missing_file.empty())
    if (const std::string said = detail::remove_stale_temporary(policy.target(args.missing_file)); !said.empty())
      spdlog::warn("{}", said);
  if (!args.subtotals_file.empty())
    if (const std::string said = detail::remove_stale_temporary(subtotals_write.target(args.subtotals_file));
        !said.empty())
      spdlog::warn("{}", said);
  const std::vector<ShardFile> shards = read_shards(args.files);
  const MergeReport report = merge_shards(shards);
  if (!report.versions.empty())
    spdlog::warn("the shard files were written by different nqueens versions ({}); their work units agree",
                 fmt::join(report.versions, ", "));
  if (!report.complete()) {
    print_report(report, shards, args.missing_file, policy);
    return kMismatch;
  }
  for (const UnitProblem& problem : report.altered)
    spdlog::warn("unit {} in {} fails its checksum and was left out; another file holds it intact", problem.id,
                 file_list(problem.files, shards));
  const CountRecord record = make_record(merged_result(report, shards), args.verify);
  spdlog::info("N={}: merged {} files, {} work units ({} engine), {:.3f} s in the shards' processes; {}",
               record.result.n, shards.size(), record.result.work_units, record.result.engine, record.result.seconds,
               unit_time_text(record.result, std::nullopt));
  auto reporter = make_reporter(parse_format(args.format), parse_json_counts(args.json_counts));
  reporter->begin({"merge", record.result.threads, {record.result.n}, args.wide});
  nlohmann::ordered_json row = to_json(record);
  row["longest_shard_seconds"] = longest_shard_seconds(shards);
  if (report.units_by_engine.size() > 1) {  // engines that share units: which counted how many
    std::string counted;
    for (const auto& [engine, units] : report.units_by_engine) {
      row["units_by_engine"][engine] = units;
      counted += fmt::format("{}{} {}", counted.empty() ? "" : ", ", engine, units);
    }
    spdlog::info("N={}: the units were counted by {} engines: {}", record.result.n, report.units_by_engine.size(),
                 counted);
  }
  reporter->row(row);
  reporter->end();
  const bool agree = subtotals_agree(args, report, shards, subtotals_write);
  return record.verified == false || !agree ? kMismatch : kOk;
}

}  // namespace

Registered add_merge_command(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* command = app.add_subcommand("merge", "Merge shard files of one run (count --shard) into its result");
  command->add_option("files", args->files, "Shard files written by `nqueens count --shard I/K`")
      ->required()
      // A directory, a device or a FIFO given as a shard file is bad input (exit 2), refused
      // before any file is read, as a file that does not exist is.
      ->check(not_a_readable_shard_file);
  command->add_flag("--verify", args->verify, "Compare with OEIS A000170/A002562; exit 1 on any mismatch");
  add_format_option(*command, args->format);
  add_json_counts_option(*command, args->json_counts);
  add_wide_option(*command, args->wide);
  command
      ->add_option("--missing", args->missing_file,
                   "When units are missing, write their ids to this file, for `nqueens count --units @FILE`")
      ->type_name("FILE")
      ->check([](const std::string& text) { return text.empty() ? std::string("the file name is empty") : ""; });
  command
      ->add_option("--subtotals", args->subtotals_file,
                   "Write the run's per-unit subtotals (id, counts; a CRC of the whole) to this file")
      ->type_name("FILE")
      ->check([](const std::string& text) { return text.empty() ? std::string("the file name is empty") : ""; });
  command
      ->add_option("--compare", args->compare_file,
                   "Compare with another run's --subtotals FILE unit by unit; exit 1 on any difference")
      ->type_name("FILE")
      ->check(not_a_readable_shard_file);
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
