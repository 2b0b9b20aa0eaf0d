// `nqueens count`: parse the options, count each N, print each result as it is ready.
#include <map>
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "logging.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/n_spec.hpp"
#include "nqueens/oeis.hpp"
#include "report.hpp"

namespace nqueens::cli {

namespace {

struct CountArgs {
  std::string spec;
  int threads = 0;
  std::string symmetry = "full";
  int split_depth = 0;
  bool verify = false;
  std::string format = "text";
  LogArgs log;
};

// Compares with the OEIS when asked; a size past the table is logged, not failed.
CountRecord make_record(const CountResult& result, bool verify) {
  CountRecord record{result, oeis_total(result.n), oeis_unique(result.n), std::nullopt};
  if (!verify) return record;
  if (!record.expected_total) {
    spdlog::warn("N={}: no OEIS value to verify against (the table stops at N={})", result.n, kOeisMaxN);
    return record;
  }
  bool ok = result.totals.total == *record.expected_total;
  if (result.unique && record.expected_unique) ok = ok && *result.unique == *record.expected_unique;
  record.verified = ok;
  if (!ok) spdlog::error("N={}: total {} disagrees with OEIS A000170 {}", result.n, to_string(result.totals.total),
                         *record.expected_total);
  return record;
}

int run(const CountArgs& args) {
  apply_logging(args.log);
  const std::vector<int> sizes = parse_n_spec(args.spec);
  CountOptions options;
  options.symmetry = *parse_symmetry(args.symmetry);
  options.split_depth = args.split_depth;
  options.threads = args.threads;

  auto reporter = make_reporter(parse_format(args.format), stdout);
  reporter->begin({"count", args.threads == 0 ? hardware_threads() : args.threads, sizes});
  bool mismatch = false;
  for (int n : sizes) {
    const CountResult result = count(n, options);
    spdlog::info("N={}: {} work units at split depth {}, {} threads, {:.3f} s", n, result.work_units,
                 result.split_depth, result.threads, result.seconds);
    const CountRecord record = make_record(result, args.verify);
    mismatch = mismatch || record.verified == false;
    reporter->row(to_json(record));
  }
  reporter->end();
  check_written(stdout);
  return mismatch ? kMismatch : kOk;
}

}  // namespace

Registered add_count_command(CLI::App& app) {
  auto args = std::make_shared<CountArgs>();
  CLI::App* command = app.add_subcommand("count", "Count all solutions for one or more board sizes");
  command->add_option("-n,--n", args->spec, "Board sizes: N, a range A-B, or a list such as 8,10,12-14 (1..32)")
      ->required();
  command->add_option("-t,--threads", args->threads, "Worker threads (default: all hardware threads)")
      ->check(CLI::Range(1, kMaxThreads));
  command->add_option("--symmetry", args->symmetry, "Symmetry used to cut the search: none, mirror or full")
      ->check(CLI::IsMember({"none", "mirror", "full"}))
      ->capture_default_str();
  command->add_option("--split-depth", args->split_depth, "Rows fixed per work unit (default: chosen from N)")
      ->check(CLI::Range(kMinSplitDepth, kMaxSplitDepth));
  command->add_flag("--verify", args->verify, "Compare with OEIS A000170/A002562; exit 1 on any mismatch");
  add_format_option(*command, args->format);
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
