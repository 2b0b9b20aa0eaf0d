// `nqueens count`: parse the options, count each N, print each result as it is ready.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "nqueens/count.hpp"
#include "nqueens/n_spec.hpp"
#include "run/journal_place.hpp"
#include "run/registry.hpp"
#include "run/run_arena.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/memory_advice.hpp"
#include "shell/output/report.hpp"
#include "shell/output/shard_output.hpp"
#include "shell/output/verify.hpp"
#include "shell/supervision/cost_notice.hpp"
#include "shell/supervision/delayed_notice.hpp"
#include "shell/supervision/signals.hpp"
#include "shell/supervision/supervisor.hpp"

namespace nqueens::cli {

namespace {

int run_shard(const CountArgs& args, const std::vector<int>& sizes, const RunRequest& request,
              const RunSettings& session, RunArena& arena) {
  // Before the count: a path that cannot be written fails now.
  ShardOutput output(args.output, output_policy(args, sizes));
  output.write(count_run(request, session, arena), session.selection.file_shard());
  return kOk;
}

// Every N's journal and memory, before N = sizes.front() is counted. A default budget refused
// under `ulimit -v` says the way on: the default is the limit's, not a setting the user gave.
void check_runs_before_counting(const CountArgs& args, const RunSettings& session, PreparedRuns& runs,
                                RunArena& arena) {
  try {
    check_every_run(session, runs, arena);
  } catch (const std::invalid_argument& refused) {
    if (!args.memory.empty()) throw;
    const std::string advice = shell::refused_default_budget_advice(runs.requests, arena);
    if (advice.empty()) throw;
    throw std::invalid_argument(refused.what() + advice);
  }
}

int run(const CountArgs& args) {
  apply_logging(args.log);
  const std::vector<int> sizes = parse_n_spec(args.spec);
  CountOptions options = engine_options(args);
  check_every_size(sizes, options);
  settle_memory_budget(options, sizes);
  RunSettings session = run_settings(args, sizes);
  // Each N's decisions, once (run/prepare.hpp); a whole count planned past a day keeps a journal,
  // the one named or one made by default.
  PreparedRuns runs =
      prepare_runs(sizes, options, session, {.processes = 1, .journal_by_default = !args.no_checkpoint});
  static_cast<RunPlace&>(session) = runs.place;
  const std::vector<RunRequest>& requests = runs.requests;
  // Announced once the checks below pass, or while they take long (a memory plan at the largest N
  // takes minutes): a refusal they find at once is the command's one line.
  DelayedNotice notice(announce_costs(session, requests, runs.threads, args.force));
  catch_interrupts();
  // The command's one arena: the checks build in it, and every N counts in it.
  RunArena arena(command_threads(requests));
  check_runs_before_counting(args, session, runs, arena);
  notice.say();
  if (session.checkpoint) create_journal_directory(*session.checkpoint, sizes.size());
  if (!session.selection.whole())
    return run_shard(args, sizes, requests.front(), settings_for_size(session, sizes.front(), 1), arena);

  auto reporter = make_reporter(parse_format(args.format), parse_json_counts(args.json_counts));
  reporter->begin({"count", requests.front().threads, sizes, args.wide});
  bool mismatch = false;
  count_each(requests, session, arena, [&](const RunOutcome& counted) {
    const CountResult& result = counted.result;
    spdlog::info("N={}: {} work units ({} engine), {} threads, {:.3f} s; {}", result.n, result.work_units,
                 result.engine, result.threads, result.seconds, unit_time_text(result, counted.unit_time_here));
    CountRecord record = make_record(result, args.verify);
    record.counted_here = counted.counted_here;
    record.totals_here = counted.totals_here;
    mismatch = mismatch || record.verified == false;
    reporter->row(to_json(record));
  });
  reporter->end();
  // One for the whole command, whatever its N: its threads are started and proven once.
  spdlog::debug("{} thread arena(s) made by this process", RunArena::made());
  return mismatch ? kMismatch : kOk;
}

}  // namespace

Registered add_count_command(CLI::App& app) {
  auto args = std::make_shared<CountArgs>();
  CLI::App* command = app.add_subcommand("count", "Count all solutions for one or more board sizes");
  add_count_options(*command, *args);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
