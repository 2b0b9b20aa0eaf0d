// `nqueens check FILE...`: reads journals and shard files without changing them and says what
// they hold: the run, the sound records, the damage, the units missing, the partial totals, and
// the command that repairs or completes them. With --recount K, K of each file's sound records,
// drawn with a stated seed, are counted again and compared with what the file says. Exit 0 when
// every file is whole (and every record recounted equal), 1 when one is damaged or incomplete or
// a record differs from its recount, 2 when one is not a journal or shard file of this build.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "check_recount.hpp"
#include "commands.hpp"
#include "engine/memory_budget.hpp"
#include "file_kind.hpp"
#include "files/file_io.hpp"
#include "nqueens/files/check.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/console.hpp"
#include "shell/output/report.hpp"
#include "shell/output/standard_output.hpp"
#include "text/echo.hpp"

namespace nqueens::cli {

namespace {

// Everything check prints goes to stdout through print_stdout (standard_output.hpp), so that a
// reader gone (`| head`) ends the command quietly and a failed write says why.
template <typename... Args>
void say(fmt::format_string<Args...> form, Args&&... args) {
  print_stdout(fmt::format(form, std::forward<Args>(args)...));
}

using Json = nlohmann::ordered_json;

struct CheckArgs {
  std::vector<std::string> files;
  std::string format = "text";
  RecountArgs recount;
  LogArgs log;
};

// Lists and damaged lines shown per file before the rest is only counted.
constexpr std::size_t kMaxShown = 20;

// A file that is not a journal or shard file of a run of this build: exit 2.
struct NotSuchFile : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A --memory budget too small for the engine of a file's run, or a --by its engine has not: bad
// usage, not a stranger file.
struct BudgetRefused : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// What --by asks for, or why the file's run cannot be recounted so: bad usage, like a budget refused.
std::pair<std::unique_ptr<Engine>, RecountPath> recount_path(std::unique_ptr<Engine> own, const FileCheck& check,
                                                             const RecountArgs& args, RunArena& arena) {
  try {
    return recount_engine(std::move(own), check.header, args, arena);
  } catch (const std::invalid_argument& why) {
    throw BudgetRefused(detail::shown_path(check.source) + ": " + why.what());
  }
}

// The engine of the file's run, built by this build in `arena` (the threads a recount counts on)
// and within the memory that `base` gives; refuses a run whose units differ here. A run whose
// engine cannot count on this machine (the gpu engine without a driver) gets the engine whose
// units it shares, which deals the same shards and counts the same units.
std::unique_ptr<Engine> engine_of(const RunHeader& header, const std::string& source, const CountOptions& base,
                                  RunArena& arena) {
  CountOptions options = options_of(header);
  options.threads = base.threads;
  options.memory_bytes = base.memory_bytes;
  RunHeader expected = header;
  RunRequest request;
  try {
    request = request_run(header.n, options);  // --threads is in range: only the engine can refuse
  } catch (const std::invalid_argument& why) {
    const std::string family(unit_family(header.engine));
    options.engine = family;
    expected.engine = family;
    try {
      if (family == header.engine) throw;
      request = request_run(header.n, options);
      spdlog::info("{}: the {} engine cannot count here ({}): its units are checked with the {} engine's",
                   detail::shown_path(source), header.engine, why.what(), family);
    } catch (const std::invalid_argument&) {
      throw NotSuchFile(source + ": no run of this build has its header: " + why.what());
    }
  }
  std::unique_ptr<Engine> engine;
  try {
    if (const std::string plan = plan_memory(request); !plan.empty())
      spdlog::info("{}: N={}: {}", detail::shown_path(source), header.n, plan);
    engine = make_engine(request, arena);
  } catch (const std::invalid_argument& why) {
    throw BudgetRefused(detail::shown_path(source) + ": " + why.what());
  }
  if (const std::string why = header_mismatch(engine->header(), expected); !why.empty())
    throw NotSuchFile(source + " belongs to a run this build does not make: " + why);
  return engine;
}

// file_kind.hpp's first bytes, with a path that is no regular file refused as no file of ours.
std::string first_bytes_of(const std::string& path) {
  try {
    return first_bytes(path);
  } catch (const std::invalid_argument& refused) {
    throw NotSuchFile(refused.what());
  }
}

// The ids a shard file should hold: its shard's, or its unit list's. Where a damaged header
// leaves them unchecked, they are taken only when every entry of the file is one of them.
std::optional<std::vector<std::size_t>> expected_ids(const ShardFile& file, const Engine& engine) {
  std::vector<std::size_t> ids;
  if (!file.unit_list.empty())
    ids = parse_id_ranges(file.unit_list, file.header.unit_count);
  else if (file.shard.index >= 1)
    ids = shard_ids(engine, file.shard);
  else
    return std::nullopt;
  if (file.head_trusted) return ids;
  auto listed = [&ids](std::size_t id) { return std::binary_search(ids.begin(), ids.end(), id); };
  for (const UnitCount& unit : file.units)
    if (!listed(unit.id)) return std::nullopt;
  for (const std::size_t id : file.altered)
    if (!listed(id)) return std::nullopt;
  return ids;
}

// What check found in a file: the verdict, the sound records (each unit once) and the engine of
// its run, which can count them again.
struct CheckedFile {
  FileCheck check;
  std::vector<UnitCount> records;
  std::unique_ptr<Engine> engine;
};

// A shard file's sound entries, each unit once: its first entry, unless its entries conflict.
std::vector<UnitCount> sound_entries(const ShardFile& file, const FileCheck& check) {
  std::vector<UnitCount> records;
  for (const UnitCount& unit : file.units) {
    const auto same = [&unit](const UnitCount& other) { return other.id == unit.id; };
    if (std::binary_search(check.conflicting.begin(), check.conflicting.end(), unit.id)) continue;
    if (std::none_of(records.begin(), records.end(), same)) records.push_back(unit);
  }
  return records;
}

// `runs`: those of the shard files checked together, for a shard file whose header is damaged.
CheckedFile check_file(const std::string& path, std::span<const RunHeader> runs, const CountOptions& base,
                       RunArena& arena) {
  if (looks_like_journal(first_bytes_of(path))) {
    std::size_t zeros = 0;
    const std::string bytes = read_journal(path, &zeros);
    JournalScan scan = scan_journal(bytes, path);
    scan.torn_bytes += zeros;
    // Held to the run this build makes before its units are listed.
    std::unique_ptr<Engine> engine = engine_of(scan.header, path, base, arena);
    FileCheck check = check_journal(scan, path);
    return {std::move(check), std::move(scan.units), std::move(engine)};
  }
  ShardFile file;
  try {
    file = read_shard_file(path, runs);
  } catch (const ShardFileError& error) {
    // A file that starts like a shard file and does not read is a damaged one, not a stranger.
    if (looks_like_shard_file(first_bytes_of(path))) throw;
    throw NotSuchFile(std::string(error.what()) + " (nor a journal)");
  }
  std::unique_ptr<Engine> engine = engine_of(file.header, path, base, arena);
  FileCheck check;
  if (const auto expected = expected_ids(file, *engine)) {
    check = check_shard(file, *expected);
  } else {
    // Its shard unknown: its own entries are what it should hold, its altered ones to count again.
    std::vector<std::size_t> own = file.altered;
    for (const UnitCount& unit : file.units) own.push_back(unit.id);
    std::sort(own.begin(), own.end());
    own.erase(std::unique(own.begin(), own.end()), own.end());
    check = check_shard(file, own);
    check.shard_unknown = true;
  }
  std::vector<UnitCount> records = sound_entries(file, check);
  return {std::move(check), std::move(records), std::move(engine)};
}

// "1 unit", "2 units".
std::string counted(std::size_t count, std::string_view what) {
  return fmt::format("{} {}{}", count, what, count == 1 ? "" : "s");
}

// `recount`: what --recount found, when it was asked for. A record that passes its checksum and
// fails its recount is the worst a file can hold: its totals are wrong and nothing else shows it.
std::string status(const FileCheck& check, const std::optional<RecountReport>& recount) {
  if (recount && !recount->all_equal()) return "wrong";
  return check.damaged_or_conflicting() ? "damaged" : check.whole() ? "whole" : "incomplete";
}

constexpr std::string_view kWrongAdvice =
    "do not use its totals: a record differs from its recount though its checksum holds, so the file was "
    "written wrong; count its units again";

// What to run next: repair a journal, or count a shard's missing units into a file for merge.
std::string advice(const FileCheck& check) {
  if (check.whole()) return "nothing to do";
  if (check.journal)
    return fmt::format("`nqueens count {} --checkpoint {}{}` {}", run_options_text(check.header),
                       detail::shown_path(check.source), check.damaged_or_conflicting() ? " --repair" : "",
                       check.damaged_or_conflicting() ? "keeps the sound records and counts the other units"
                                                      : "counts the missing units");
  const std::string unknown =
      check.shard_unknown
          ? "; its shard is unknown (the header is damaged): merge it with the other shard files of the run, which "
            "names every unit missing from them all"
          : "";
  if (!check.missing.empty())
    return fmt::format(
        "`nqueens count {} --units {} --output FILE` counts the {} units into a file to merge with this one{}",
        run_options_text(check.header), format_id_ranges(check.missing),
        check.damaged_or_conflicting() ? "damaged and missing" : "missing", unknown);
  if (!check.foreign.empty()) return "remove the entries named above (units outside the file's shard)";
  if (check.shard_unknown)
    return "merge it with the other shard files of its run (its shard is unknown: the header is damaged), which "
           "names every unit missing from them all";
  return "no unit is lost: merge uses every unit of the file, and a file written again (count --shard or --units) "
         "would be whole";
}

std::string what_file(const FileCheck& check) {
  if (check.journal) return "journal";
  if (check.shard_unknown) return "shard file of an unknown shard (its header is damaged)";
  if (!check.unit_list.empty())
    return "shard file of units " +
           format_id_ranges(parse_id_ranges(check.unit_list, check.header.unit_count), kMaxShown);
  return fmt::format("shard file of shard {}/{}", check.shard.index, check.shard.count);
}

void print_text(const FileCheck& check, const std::optional<RecountReport>& recount) {
  say("{}: {}, written by nqueens {}: {}\n", detail::shown_path(check.source), what_file(check), check.header.version,
      run_identity(check.header));
  say("  records: {} sound, {} repeated, {}, {} altered, {} with conflicting records\n", check.sound, check.repeated,
      counted(check.damaged.size(), "damaged line"), check.altered.size(), counted(check.conflicting.size(), "unit"));
  for (std::size_t i = 0; i < check.damaged.size() && i < kMaxShown; ++i)
    say("  damaged: line {}: {}\n", check.damaged[i].line, check.damaged[i].problem);
  if (check.damaged.size() > kMaxShown) say("  damaged: ... ({} lines in all)\n", check.damaged.size());
  if (!check.altered.empty()) say("  altered (checksum fails): units {}\n", format_id_ranges(check.altered, kMaxShown));
  if (!check.conflicting.empty()) say("  conflicting: units {}\n", format_id_ranges(check.conflicting, kMaxShown));
  if (!check.foreign.empty()) say("  not of this shard: units {}\n", format_id_ranges(check.foreign, kMaxShown));
  if (check.torn_bytes > 0) say("  torn last line: {} bytes (cut off when the run resumes)\n", check.torn_bytes);
  if (!check.missing.empty())
    say("  missing: {}: {}\n", counted(check.missing.size(), "unit"), format_id_ranges(check.missing, kMaxShown));
  say("  total over the sound records: {} (nodes {})\n", to_string(check.totals.total), to_string(check.totals.nodes));
  say("  unit time over the sound records: {:.3f} s\n", unit_seconds(check.unit_time.microseconds));
  if (recount) say("  recount by {}\n  recount: {}\n", recount_path_text(recount->path), recount_text(*recount));
  say("  status: {}: {}\n", status(check, recount),
      recount && !recount->all_equal() ? std::string(kWrongAdvice) : advice(check));
}

Json check_json(const FileCheck& check, const std::optional<RecountReport>& recount) {
  Json damaged = Json::array();
  for (const JournalDamage& line : check.damaged) damaged.push_back({{"line", line.line}, {"problem", line.problem}});
  Json record = {{"file", check.source},
                 {"kind", check.journal ? "journal" : "shard"},
                 {"run", run_identity(check.header)},
                 {"version", check.header.version}};
  if (!check.journal)
    record["shard"] = check.shard_unknown       ? "unknown"
                      : check.unit_list.empty() ? fmt::format("{}/{}", check.shard.index, check.shard.count)
                                                : check.unit_list;
  record.update({{"status", status(check, recount)},
                 {"sound", check.sound},
                 {"repeated", check.repeated},
                 {"damaged", damaged},
                 {"altered", format_id_ranges(check.altered)},
                 {"conflicting", format_id_ranges(check.conflicting)},
                 {"foreign", format_id_ranges(check.foreign)},
                 {"torn_bytes", check.torn_bytes},
                 {"missing", format_id_ranges(check.missing)},
                 {"missing_count", check.missing.size()},
                 {"total", count_json(check.totals.total)},
                 {"nodes", count_json(check.totals.nodes)},
                 {"format", check.format},
                 {"unit_seconds", unit_seconds(check.unit_time.microseconds)},
                 {"advice", recount && !recount->all_equal() ? std::string(kWrongAdvice) : advice(check)}});
  if (recount) record["recount"] = recount_json(*recount);
  return record;
}

// A name longer than any path the system takes (PATH_MAX) is cut where an error repeats it: a
// 120 KB name was echoed twice in full. Every real path is shown whole.
constexpr std::size_t kLongestPathShown = 4096;

// `path` as an error names it, and the error's text about it.
std::string named(const std::string& path) {
  return detail::cut_repeats(detail::shown_path(path), path, kLongestPathShown);
}
std::string about(const std::string& path, const char* what) {
  return detail::one_line(detail::cut_repeats(what, path, kLongestPathShown));
}

// One file's verdict as an exit code, having printed what it found. The report is printed
// outside the try: a failure to write it is stdout's (a reader gone: exit 0; a full disk: exit
// 3, once, from main), never the file's.
int check_one(const std::string& path, const CheckArgs& args, const CountOptions& base, std::span<const RunHeader> runs,
              RunArena& arena) {
  const bool json = args.format == "json";
  int code = kOk;
  Json record;
  std::optional<FileCheck> found;
  std::optional<RecountReport> recount;
  try {
    CheckedFile checked = check_file(path, runs, base, arena);
    found = std::move(checked.check);
    if (args.recount.units > 0) {
      auto [engine, by] = recount_path(std::move(checked.engine), *found, args.recount, arena);
      recount = recount_records(std::move(engine), by, arena, checked.records, args.recount);
    }
    code = found->whole() && (!recount || recount->all_equal()) ? kOk : kMismatch;
    record = check_json(*found, recount);
  } catch (const JournalCorrupt& damaged) {  // the run header itself, or the file's size
    code = kMismatch;
    record = {{"file", path}, {"kind", "journal"}, {"status", "damaged"}, {"error", damaged.what()}};
    if (!json) say("{}: journal: {}\n  status: damaged\n", named(path), about(path, damaged.what()));
  } catch (const ShardFileError& damaged) {
    code = kMismatch;
    record = {{"file", path}, {"kind", "shard"}, {"status", "damaged"}, {"error", damaged.what()}};
    if (!json) say("{}: shard file: {}\n  status: damaged\n", named(path), about(path, damaged.what()));
  } catch (const BudgetRefused& refused) {
    code = kUsage;
    record = {{"file", path}, {"status", "not checked"}, {"error", refused.what()}};
    if (!json) shell::Console::err().line(fmt::format("nqueens: error: {}", about(path, refused.what())));
  } catch (const std::invalid_argument& stranger) {  // JournalMismatch, NotSuchFile
    code = kUsage;
    record = {{"file", path}, {"status", "not a journal or shard file"}, {"error", stranger.what()}};
    // An error, not a report: stderr, where every error goes.
    if (!json)
      shell::Console::err().line(fmt::format("nqueens: error: {}: not a journal or shard file of this build: {}",
                                             named(path), about(path, stranger.what())));
  } catch (const std::runtime_error& unreadable) {
    code = kUsage;
    record = {{"file", path}, {"status", "unreadable"}, {"error", unreadable.what()}};
    if (!json)
      shell::Console::err().line(fmt::format("nqueens: error: {}: {}", named(path), about(path, unreadable.what())));
  }
  if (found && !json) print_text(*found, recount);
  if (json) say("{}\n", record.dump());
  return code;
}

// A FILE.partial beside a file checked (or beside its repair's backup), held by no process, was
// left by a write killed outright: named, since check changes nothing, with the run that removes it.
void name_leftovers(const std::string& path) {
  for (const std::string& target : {path, path + ".damaged"}) {
    const std::filesystem::path partial = detail::temporary_path(target);
    std::error_code unknown;
    if (std::filesystem::is_regular_file(std::filesystem::symlink_status(partial, unknown)) &&
        detail::locked_by_another(partial).empty())
      spdlog::warn(
          "{} was left by a run killed while it wrote {}; the next run that writes it (a count with this "
          "--checkpoint or --output) removes it",
          detail::shown_path(partial), detail::shown_path(target));
  }
}

int run(CheckArgs args) {
  apply_logging(args.log);
  for (const std::string& path : args.files) name_leftovers(path);
  if (args.recount.units > 0 && !args.recount.seeded) args.recount.seed = fresh_seed();
  CountOptions base;
  base.threads = resolve_threads(args.recount.threads);  // once for every file
  if (!args.recount.memory.empty()) base.memory_bytes = parse_memory_size(args.recount.memory);
  // The runs of the sound shard files given, under which the entries of one whose header is
  // damaged or lost are tried too.
  std::vector<RunHeader> runs;
  for (const std::string& path : args.files)
    if (const auto run = read_shard_run(path); run && std::find(runs.begin(), runs.end(), *run) == runs.end())
      runs.push_back(*run);
  // One arena for the command: every file's engine is built in it and its units recounted in it.
  RunArena arena(base.threads);
  int code = kOk;
  for (const std::string& path : args.files) code = std::max(code, check_one(path, args, base, runs, arena));
  return code;
}

}  // namespace

Registered add_check_command(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* command = app.add_subcommand(
      "check", "Check journals and shard files without changing them: damage, missing units, partial totals");
  command->add_option("files", args->files, "Journals (count --checkpoint) and shard files (count --shard, --units)")
      ->required();
  command->add_option("--format", args->format, "Output format: text or json (one JSON object per file)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  CLI::Option* seed = add_recount_options(*command, args->recount);
  add_logging_options(*command, args->log);
  return {command, [args, seed] {
            args->recount.seeded = seed->count() > 0;
            return run(*args);
          }};
}

}  // namespace nqueens::cli
