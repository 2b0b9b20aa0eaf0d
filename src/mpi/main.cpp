// The `nqueens-mpi` program: only wiring. Every rank parses the same command line with the
// options of `nqueens count`; mpi_count.cpp spreads each N over the ranks; rank 0 prints with
// the reporters of `nqueens`, so the output is the same, format for format.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "engine/memory_budget.hpp"
#include "mpi_count.hpp"
#include "nqueens/n_spec.hpp"
#include "nqueens/version.hpp"
#include "run/journal_place.hpp"
#include "run/prepare.hpp"
#include "run/registry.hpp"
#include "run/run_arena.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/help_formatter.hpp"
#include "shell/options/memory_advice.hpp"
#include "shell/options/number_options.hpp"
#include "shell/options/parse_errors.hpp"
#include "shell/output/report.hpp"
#include "shell/output/shard_output.hpp"
#include "shell/output/standard_output.hpp"
#include "shell/output/verify.hpp"
#include "shell/supervision/cost_notice.hpp"
#include "shell/supervision/delayed_notice.hpp"
#include "shell/supervision/exit_codes.hpp"
#include "shell/supervision/signals.hpp"
#include "shell/supervision/supervisor.hpp"
#include "text/echo.hpp"
#include "world.hpp"

namespace {

using namespace nqueens;
using namespace nqueens::shell;
using mpi::World;

// Bad input: every rank finds the same fault in the same command line, so each ends with the
// same code and no rank waits for another; only rank 0 says why.
int usage_error(const World& world, const std::string& message) {
  if (world.root()) fmt::print(stderr, "nqueens-mpi: error: {}\n", nqueens::detail::one_line(message));
  return kUsage;
}

// CLI11 2.1 answers a mistyped command with "A subcommand is required"; name the word instead.
std::string unknown_command(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-' || std::string(argv[1]) == "count") return {};
  return "unknown command " + nqueens::detail::echo(argv[1]) + " (commands: count)";
}

// Rank 0 logs as `nqueens` does; the other ranks name themselves.
void set_up_logging(const World& world) {
  spdlog::set_default_logger(
      make_console_logger("nqueens-mpi", world.root() ? std::string() : fmt::format("rank {}: ", world.rank())));
}

// More threads than this rank may use is legal, but under mpirun it is nearly always a binding
// left at its default (one core per rank), which would make the threads share one core.
void warn_if_bound_too_tightly(const World& world, int threads) {
  if (threads > hardware_threads())
    spdlog::warn(
        "{}{} threads but only {} CPU(s) in this rank's binding; with mpirun, add --bind-to none "
        "or --map-by ppr:1:node:pe={} (see docs/cluster.md)",
        world.root() ? "rank 0: " : "", threads, hardware_threads(), threads);  // the others' log names them
}

// The command line, parsed and checked.
struct Job {
  CountArgs args;
  std::vector<int> sizes;
  CountOptions options;
  RunSettings session;
  //! This rank's preparation of each N's run (run/prepare.hpp, made once by prepare_command):
  //! rank 0's from the command line and the journals, the others' with the engines rank 0 chose.
  PreparedRuns runs;
  //! This rank's own default budget, before the job took the least of the ranks' (0: --memory).
  std::uint64_t own_default = 0;
};

// A step that may fail, as the exit code and the line every rank then agrees on: bad input
// (std::invalid_argument) exit 2, anything else 3 (out of memory with the --memory advice, as
// `nqueens` gives it).
struct Verdict {
  int code = kOk;
  std::string message;
};

template <class Step>
Verdict attempt(Step&& step) {
  try {
    step();
    return {};
  } catch (const std::invalid_argument& refused) {
    return {kUsage, refused.what()};
  } catch (const std::exception& failure) {
    return {kRuntime, failure_text(failure)};
  }
}

// Rank 0's verdict, on every rank: a failure ends every rank alike, with one line from rank 0,
// instead of leaving the others waiting in the next collective call. The other ranks pass none.
void agree_on_root(const World& world, const Verdict& verdict) {
  int code = verdict.code;
  mpi::broadcast(world, code);
  if (code != kOk) throw mpi::AgreedExit(code, verdict.message);
}

// Rank 0 claims the shard file's place before anything is counted (see ShardOutput), and every
// rank learns whether that worked: a path that cannot be written ends every rank alike.
std::unique_ptr<ShardOutput> claim_output(const World& world, const Job& job) {
  if (job.session.selection.whole()) return nullptr;
  std::unique_ptr<ShardOutput> output;
  // The write policy's refusal is bad input.
  const auto claim = [&] {
    output = std::make_unique<ShardOutput>(job.args.output, output_policy(job.args, job.sizes));
  };
  agree_on_root(world, world.root() ? attempt(claim) : Verdict{});
  return output;
}

// Rank 0's output for one N: the shard file, or a row of the report. What every rank does next:
// go on, end quietly (stdout's reader has gone), or end with the code of rank 0's failure. A
// failure to write is agreed on like any other rank 0 found, not an abort: the other ranks are
// only waiting for the next N, and every rank can end normally.
enum class AfterPrint : int { go_on = 0, reader_gone = 1, failed = 2 };

AfterPrint print_result(const Job& job, const RunOutcome& counted, ShardOutput* output, Reporter* reporter, int& code) {
  try {
    if (output) {
      output->write(counted, job.session.selection.file_shard());
      return AfterPrint::go_on;
    }
    CountRecord record = make_record(counted.result, job.args.verify);
    record.counted_here = counted.counted_here;
    record.totals_here = counted.totals_here;
    if (record.verified == false) code = kMismatch;
    reporter->row(to_json(record));
    return AfterPrint::go_on;
  } catch (const ReaderGone&) {
    return AfterPrint::reader_gone;
  } catch (const std::exception& failure) {
    fmt::print(stderr, "nqueens-mpi: error: rank 0: {}\n", nqueens::detail::one_line(failure_text(failure)));
    code = kRuntime;
    return AfterPrint::failed;
  }
}

// Without --memory each rank's default budget is its node's (its memory, its limits), and the
// nodes of a job may differ. Every rank must plan the same run under one budget, before any rank
// builds an engine (prepare_command): so the job takes the least of them.
void agree_on_memory_budget(const World& world, Job& job) {
  if (!job.args.memory.empty()) return;  // given: the same on every rank
  job.own_default = job.options.memory_bytes;
  const std::vector<std::uint64_t> budgets = mpi::gather(world, job.options.memory_bytes);
  std::uint64_t least = job.options.memory_bytes;
  if (world.root()) {
    const auto smallest = std::min_element(budgets.begin(), budgets.end());
    least = *smallest;
    if (least < job.options.memory_bytes)
      spdlog::info("memory budget {} on every rank: rank {}'s default, the least of the job's (its log says why)",
                   nqueens::format_bytes(least), smallest - budgets.begin());
  }
  mpi::broadcast(world, least);
  job.options.memory_bytes = least;
}

// The engine of each N's run, as rank 0 prepared it (a resumed journal's, which only rank 0
// reads), on every rank: by its place in the registry, which every rank of one build shares.
std::vector<std::string> agreed_engines(const World& world, const PreparedRuns& runs) {
  const std::span<const EngineDescription* const> engines = registered_engines();
  std::vector<std::uint64_t> chosen;
  for (const RunRequest& request : runs.requests)
    chosen.push_back(
        static_cast<std::uint64_t>(std::find(engines.begin(), engines.end(), request.engine) - engines.begin()));
  mpi::broadcast(world, chosen);
  std::vector<std::string> names;
  names.reserve(chosen.size());
  for (const std::uint64_t at : chosen) names.emplace_back(engines[static_cast<std::size_t>(at)]->name);
  return names;
}

// A default budget refused under `ulimit -v` says the way on, as `nqueens count` does: the job's
// default is the least of its ranks' (agree_on_memory_budget), and the way on is that of the rank
// whose default it is, under its own limit ("rank 1's default budget is what the address-space
// limit ... leaves beside 2 threads: raise the limit to ..."), added to rank 0's refusal. Every
// rank checked the same runs under that budget, so each noted its least. Collective.
void advise_on_refused_default(const World& world, const Job& job, RunArena& arena, Verdict& checked) {
  // Rank 0's refusal was of the budget: the least its engine noted is above it.
  const LeastBudget least = noted_least_budget();
  const RunRequest& first = job.runs.requests.front();
  const bool of_budget =
      checked.code == kUsage && least.threads == first.threads && least.on(first.threads) > first.memory_bytes;
  int refused = of_budget ? 1 : 0;
  mpi::broadcast(world, refused);  // rank 0's
  if (refused == 0 || !job.args.memory.empty()) return;
  std::string advice;
  if (job.own_default == job.options.memory_bytes)
    advice = refused_default_budget_advice(job.runs.requests, arena, fmt::format("rank {}'s", world.rank()));
  checked.message += mpi::first_said(world, advice);
}

// Before the first N is counted, every rank prepares the command's runs once (run/prepare.hpp),
// as `nqueens count` and count() prepare theirs, and makes the one arena it counts every N in.
// Rank 0 prepares the runs from the command line and the journals (`auto` resumes a journal with
// the engine it was started with; a whole count planned past a day on every rank's threads keeps
// a journal, the one named or one made by default, rank 0's: it is the rank that writes journals)
// and checks each: its rough cost on every rank's threads (announced past an hour, refused past a
// year without --force: before any plan is made), its memory plan under the budget, its journal
// (held by no other process; with several N, its header against the run). Every other rank takes
// the engines rank 0 chose and makes its requests and memory plans once, on its own threads (-t
// is each rank's, its default the CPUs the rank may use), while rank 0 checks. Every rank learns each verdict: a run
// that cannot be done, or does not fit a rank, ends the job before anything is counted, in one
// line from rank 0 (naming the rank when it is not 0), rather than an abort half-way through the N.
std::unique_ptr<RunArena> prepare_command(const World& world, Job& job) {
  std::vector<std::string> announced;  // rank 0's, said once the checks pass or while they take long
  const auto prepare = [&] {
    mpi::out_of_memory_test_step(world.rank(), "prepare");
    job.runs = prepare_runs(job.sizes, job.options, job.session,
                            {.processes = world.size(), .journal_by_default = !job.args.no_checkpoint});
    static_cast<RunPlace&>(job.session) = job.runs.place;
    // A run of centuries is refused here, before any rank plans its memory (minutes at N = 30).
    announced = announce_costs(job.session, job.runs.requests, job.runs.threads, job.args.force);
  };
  agree_on_root(world, world.root() ? attempt(prepare) : Verdict{});
  const std::vector<std::string> engines = agreed_engines(world, job.runs);
  const auto follow = [&] {
    mpi::out_of_memory_test_step(world.rank(), "prepare");
    job.runs = follow_runs(job.sizes, job.options, engines, {.processes = world.size()});
  };
  const Verdict followed = world.root() ? Verdict{} : attempt(follow);
  mpi::agree_on_step(world, followed.code, followed.message);
  // Every N's threads are the one --threads, resolved alike on a rank (command_threads).
  std::unique_ptr<RunArena> arena = mpi::rank_arena(world, command_threads(job.runs.requests));
  const auto check = [&] {
    mpi::out_of_memory_test_step(world.rank(), "check");
    if (!world.root()) return check_runs(job.runs, *arena);  // each N's memory plan, made once
    // A refusal found at once is one line.
    DelayedNotice notice(std::move(announced));
    check_every_run(job.session, job.runs, *arena, false);
    notice.say();
  };
  Verdict checked = attempt(check);
  advise_on_refused_default(world, job, *arena, checked);
  // Rank 0's refusal in its own words first; then another rank's, named.
  agree_on_root(world, world.root() ? checked : Verdict{});
  mpi::agree_on_step(world, world.root() ? kOk : checked.code, checked.message);
  return arena;
}

// Rank 0 alone writes journals and the report: it makes the journals' folder and begins the
// report, and every rank learns whether that worked (a folder it cannot create ends the job, exit
// 3, in one line rather than MPI's abort). The report on rank 0 when the whole run is counted.
std::unique_ptr<Reporter> ready_output(const World& world, const Job& job) {
  std::unique_ptr<Reporter> reporter;
  const auto ready = [&] {
    mpi::out_of_memory_test_step(world.rank(), "output");
    if (job.session.checkpoint) create_journal_directory(*job.session.checkpoint, job.sizes.size());
    if (!job.session.selection.whole()) return;
    reporter = make_reporter(parse_format(job.args.format), parse_json_counts(job.args.json_counts));
    reporter->begin({"count", job.runs.requests.front().threads, job.sizes, job.args.wide});
  };
  agree_on_root(world, world.root() ? attempt(ready) : Verdict{});
  return reporter;
}

// One run of `count`: the N of the spec in order, each counted by every rank, printed by rank 0.
// After each N every rank learns whether rank 0 could print it: once stdout's reader has gone
// (`| head`), every rank ends quietly, as `nqueens count` does, instead of counting on; once
// rank 0 could not write, every rank ends with its failure.
int run_count(const World& world, Job& job) {
  const std::unique_ptr<RunArena> arena = prepare_command(world, job);
  const std::unique_ptr<ShardOutput> output = claim_output(world, job);
  const std::unique_ptr<Reporter> reporter = ready_output(world, job);
  int code = kOk;
  for (const int n : job.sizes) {
    const std::optional<RunOutcome> counted = mpi::count_distributed(
        world, request_for(job.runs.requests, n), settings_for_size(job.session, n, job.sizes.size()), *arena);
    int after = static_cast<int>(AfterPrint::go_on);
    if (counted) {
      const CountResult& result = counted->result;
      spdlog::info("N={}: {} work units ({} engine), {} ranks x {} threads, {:.3f} s; {}", n, result.work_units,
                   result.engine, world.size(), result.threads, result.seconds,
                   unit_time_text(result, counted->unit_time_here));
      after = static_cast<int>(print_result(job, *counted, output.get(), reporter.get(), code));
    }
    mpi::broadcast(world, after);
    if (after == static_cast<int>(AfterPrint::reader_gone)) return kOk;
    if (after == static_cast<int>(AfterPrint::failed)) return kRuntime;
  }
  if (reporter) reporter->end();
  // One on each rank for the whole command, whatever its N: its threads are started and proven once.
  spdlog::debug("{} thread arena(s) made by this process", RunArena::made());
  mpi::broadcast(world, code);  // every rank ends with rank 0's verdict
  return code;
}

// Every rank parses and checks the same command line alike, before any communication. Returns
// an exit code when there is nothing to count: help, version, or bad input.
std::optional<int> parse_job(const World& world, int argc, char** argv, Job& job) {
  CLI::App app{"nqueens-mpi: count the solutions of the N-Queens problem over the ranks of an MPI job", "nqueens-mpi"};
  nqueens::shell::use_help_formatter(app);  // before the command, which takes it from the app
  app.set_version_flag("--version", std::string("nqueens-mpi ") + kVersion);
  app.require_subcommand(1);
  add_count_options(*app.add_subcommand("count", "Count all solutions for one or more board sizes"), job.args);
  require_decimal_numbers(app);
  if (const std::string unknown = unknown_command(argc, argv); !unknown.empty()) return usage_error(world, unknown);
  try {
    app.parse(argc, argv);
    apply_logging(job.args.log);
    job.sizes = parse_n_spec(job.args.spec);
    job.options = engine_options(job.args);
    check_every_size(job.sizes, job.options);  // on every rank alike: one verdict, no communication
    // The default budget is the node's: its ranks share the machine's memory.
    settle_memory_budget(job.options, job.sizes, world.ranks_on_this_node());
    job.session = run_settings(job.args, job.sizes);
    mpi::emulated_latency();  // test settings, checked like options
    mpi::out_of_memory_test_unit(world.rank());
    mpi::out_of_memory_test_step(world.rank(), "parse");
  } catch (const CLI::Success& done) {  // --help, --version: rank 0 prints
    return world.root() ? app.exit(done) : kOk;
  } catch (const CLI::ParseError& error) {
    return usage_error(
        world, nqueens::detail::cut_arguments(nqueens::shell::in_our_words(error),
                                              std::span<char* const>(argv + 1, static_cast<std::size_t>(argc - 1))));
  } catch (const std::invalid_argument& error) {
    return usage_error(world, error.what());
  }
  // Only rank 0 shows progress: it is the rank that sees every unit finish.
  job.session.progress.enabled = job.session.progress.enabled && world.root();
  return std::nullopt;
}

// Every rank reaches this step, whether its command line was counted, refused or asked for help:
// a rank that failed alone while parsing (out of memory) ends every rank in one line from rank 0,
// not through MPI's abort. Bad input is found alike on every rank (parse_job).
std::optional<int> parse_agreed(const World& world, int argc, char** argv, Job& job) {
  std::optional<int> done;
  const Verdict parsed = attempt([&] { done = parse_job(world, argc, argv, job); });
  mpi::agree_on_step(world, parsed.code, parsed.message);
  return done;
}

int run_program(const World& world, int argc, char** argv) {
  set_up_logging(world);
  std::signal(SIGPIPE, SIG_IGN);  // a closed stdout is seen as EPIPE (standard_output.hpp), as by `nqueens`
  remove_temporaries_on_signal();
  try {
    Job job;
    if (const std::optional<int> code = parse_agreed(world, argc, argv, job)) return *code;
    warn_if_bound_too_tightly(world, job.args.threads);
    catch_interrupts();
    agree_on_memory_budget(world, job);
    return run_count(world, job);
  } catch (const mpi::AgreedExit& failure) {
    if (world.root()) fmt::print(stderr, "nqueens-mpi: error: {}\n", nqueens::detail::one_line(failure.what()));
    return failure.code;
  }
}

}  // namespace

// Any other failure is this rank's alone: it says so and ends the whole job (exit 3), so that
// no other rank waits for it in a collective call.
int main(int argc, char** argv) {
  handle_failures_in_main();
  share_heap_under_address_limit();
  load_unwinder();
  World world(argc, argv);
  nqueens::shell::remember_room_at_start();  // MPI's own mappings are the program's
  try {
    return run_program(world, argc, argv);
  } catch (const std::bad_alloc&) {
    mpi::abort_job(world, nqueens::shell::out_of_memory_advice(), kRuntime);
  } catch (const std::exception& error) {
    mpi::abort_job(world, nqueens::shell::failure_text(error), kRuntime);
  } catch (...) {
    mpi::abort_job(world, "unknown exception", kRuntime);
  }
}
