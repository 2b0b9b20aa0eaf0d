// `nqueens count`: parse the options, count each N, print each result as it is ready.
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "logging.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/n_spec.hpp"
#include "report.hpp"
#include "session.hpp"
#include "shard_output.hpp"
#include "signals.hpp"
#include "verify.hpp"

namespace nqueens::cli {

namespace {

struct CountArgs {
  std::string spec;
  int threads = 0;
  std::string symmetry = "full";
  int split_depth = 0;
  bool verify = false;
  std::string format = "text";
  std::string checkpoint;
  std::string shard;
  std::string output;
  double progress_interval = 60;
  bool no_progress = false;
  LogArgs log;
};

// The options that make a session more than a plain count. A journal or a shard names one run,
// so both need a single N.
SessionOptions session_options(const CountArgs& args, const std::vector<int>& sizes) {
  SessionOptions session;
  if (!args.checkpoint.empty()) session.checkpoint = args.checkpoint;
  if (!args.shard.empty()) session.shard = parse_shard_spec(args.shard);
  if ((session.checkpoint || session.shard) && sizes.size() != 1)
    throw std::invalid_argument(std::string(session.checkpoint ? "--checkpoint" : "--shard") +
                                " needs a single board size, not '" + args.spec + "'");
  session.progress.enabled = !args.no_progress && !args.log.quiet;
  session.progress.interval_seconds = args.progress_interval;
  return session;
}

int run_shard(const CountArgs& args, int n, const CountOptions& options, const SessionOptions& session) {
  const SessionResult counted = count_session(n, options, session);
  write_shard_file(counted, *session.shard, args.output);
  return kOk;
}

int run(const CountArgs& args) {
  apply_logging(args.log);
  const std::vector<int> sizes = parse_n_spec(args.spec);
  CountOptions options;
  options.symmetry = *parse_symmetry(args.symmetry);
  options.split_depth = args.split_depth;
  options.threads = args.threads;
  const SessionOptions session = session_options(args, sizes);
  catch_interrupts();
  if (session.shard) return run_shard(args, sizes.front(), options, session);

  auto reporter = make_reporter(parse_format(args.format), stdout);
  reporter->begin({"count", args.threads == 0 ? hardware_threads() : args.threads, sizes});
  bool mismatch = false;
  for (int n : sizes) {
    const CountResult result = count_session(n, options, session).result;
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
  CLI::Option* shard =
      command
          ->add_option("--shard", args->shard,
                       "Count only shard I of K (1-based) and write a shard file for `nqueens merge`; one N only")
          ->type_name("I/K")
          ->check([](const std::string& text) {
            try {
              parse_shard_spec(text);
              return std::string();
            } catch (const std::invalid_argument& bad) {
              return std::string(bad.what());
            }
          });
  shard->excludes(command->get_option("--verify"))->excludes(command->get_option("--format"));
  command->add_option("--output", args->output, "With --shard: write the shard file here instead of to stdout")
      ->type_name("FILE")
      ->needs(shard);
  command->add_option("--checkpoint", args->checkpoint,
                      "Record finished work units in this journal and resume from it when run again; one N only")
      ->type_name("FILE");
  command->add_option("--progress-interval", args->progress_interval,
                      "Seconds between progress lines on stderr when it is not a terminal")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  command->add_flag("--no-progress", args->no_progress, "No progress on stderr (-q implies it)");
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
