// `nqueens merge FILES...`: shard files back into one result. It prints the result the way
// `count` does, but only when the files cover every unit of one run exactly once; otherwise it
// names the units that are missing, doubled, conflicting or altered, prints no total, and
// exits 1.
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "nqueens/shard.hpp"
#include "session.hpp"
#include "shell/logging.hpp"
#include "shell/report.hpp"
#include "shell/verify.hpp"

namespace nqueens::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> files;
  bool verify = false;
  std::string format = "text";
  std::string json_counts = "number";
  LogArgs log;
};

// Ids listed at most this many runs long before the rest is summarised.
constexpr std::size_t kMaxRuns = 20;

ShardFile read_shard_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) throw std::runtime_error("cannot read " + path);
  return parse_shard_json(text.str(), path);
}

// "units 0-16, 40, 52-53" (and "... (1234 units in all)" past kMaxRuns runs); ids ascending.
std::string id_ranges(const std::vector<std::size_t>& ids) {
  std::string text = ids.size() == 1 ? "unit " : "units ";
  const std::size_t start = text.size();
  std::size_t runs = 0;
  for (std::size_t i = 0; i < ids.size(); ++runs) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (runs == kMaxRuns) return text + ", ... (" + std::to_string(ids.size()) + " units in all)";
    text +=
        (text.size() == start ? "" : ", ") + (i == j ? std::to_string(ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j + 1;
  }
  return text;
}

std::string file_list(const std::vector<std::size_t>& files, const std::vector<ShardFile>& shards) {
  std::string text;
  for (const std::size_t file : files) text += (text.empty() ? "" : ", ") + shards[file].source;
  return text;
}

// One line per set of files: a doubled shard file gives one line, not one per unit.
void print_problems(const char* what, const std::vector<UnitProblem>& problems, const std::vector<ShardFile>& shards) {
  std::map<std::vector<std::size_t>, std::vector<std::size_t>> by_files;
  for (const UnitProblem& problem : problems) by_files[problem.files].push_back(problem.id);
  for (const auto& [files, ids] : by_files)
    fmt::print(stderr, "nqueens: error: {}: {} in {}\n", what, id_ranges(ids), file_list(files, shards));
}

// When every file is a shard of the same k, the likely cause is a whole shard file left out or
// given twice: say which, as well as the unit ids.
void print_shard_hints(const std::vector<ShardFile>& shards) {
  const int count = shards.front().shard.count;
  std::vector<int> files_per_shard(static_cast<std::size_t>(count) + 1);
  for (const ShardFile& shard : shards) {
    if (shard.shard.count != count || shard.shard.index < 1 || shard.shard.index > count) return;
    ++files_per_shard[static_cast<std::size_t>(shard.shard.index)];
  }
  for (int index = 1; index <= count; ++index) {
    const int files = files_per_shard[static_cast<std::size_t>(index)];
    if (files == 0) fmt::print(stderr, "nqueens: error: no file for shard {}/{}\n", index, count);
    if (files > 1) fmt::print(stderr, "nqueens: error: shard {}/{} is given {} times\n", index, count, files);
  }
}

void print_report(const MergeReport& report, const std::vector<ShardFile>& shards) {
  if (!report.missing.empty())
    fmt::print(stderr, "nqueens: error: missing ({} of {} units): {}\n", report.missing.size(),
               report.header.unit_count, id_ranges(report.missing));
  print_problems("duplicated", report.duplicated, shards);
  print_problems("conflicting counts", report.conflicting, shards);
  print_problems("altered (checksum does not match the counts)", report.altered, shards);
  print_shard_hints(shards);
  fmt::print(stderr, "nqueens: error: no total: the files do not hold every unit of the run exactly once\n");
}

// The shards' own figures: their seconds added up (the machine time the run took), and the
// widest thread count among them.
CountResult merged_result(const MergeReport& report, const std::vector<ShardFile>& shards) {
  double seconds = 0;
  int threads = 0;
  for (const ShardFile& shard : shards) {
    seconds += shard.seconds;
    threads = std::max(threads, shard.threads);
  }
  return make_count_result(report.header, report.totals, true, threads, seconds);
}

int run(const MergeArgs& args) {
  apply_logging(args.log);
  std::vector<ShardFile> shards;
  for (const std::string& path : args.files) shards.push_back(read_shard_file(path));
  const MergeReport report = merge_shards(shards);
  if (!report.versions.empty())
    spdlog::warn("the shard files were written by different nqueens versions ({}); their work units agree",
                 fmt::join(report.versions, ", "));
  if (!report.complete()) {
    print_report(report, shards);
    return kMismatch;
  }
  const CountRecord record = make_record(merged_result(report, shards), args.verify);
  auto reporter = make_reporter(parse_format(args.format), parse_json_counts(args.json_counts));
  reporter->begin({"merge", record.result.threads, {record.result.n}});
  reporter->row(to_json(record));
  reporter->end();
  return record.verified == false ? kMismatch : kOk;
}

}  // namespace

Registered add_merge_command(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* command = app.add_subcommand("merge", "Merge shard files of one run (count --shard) into its result");
  command->add_option("files", args->files, "Shard files written by `nqueens count --shard I/K`")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_flag("--verify", args->verify, "Compare with OEIS A000170/A002562; exit 1 on any mismatch");
  add_format_option(*command, args->format);
  add_json_counts_option(*command, args->json_counts);
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
