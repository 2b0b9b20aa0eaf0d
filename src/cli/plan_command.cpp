// `nqueens plan`: build the run's engine as `count` would, sample its units, print the plan.
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "engine/memory_budget.hpp"
#include "nqueens/board.hpp"
#include "nqueens/n_spec.hpp"
#include "plan/memory_ask.hpp"
#include "plan/plan.hpp"
#include "run/registry.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/gpu_model_plan.hpp"
#include "shell/output/plan_report.hpp"
#include "shell/output/standard_output.hpp"

namespace nqueens::cli {

namespace {

struct PlanArgs {
  std::string spec;  //!< -n: one N, or a list or range (22-28) planned one after another
  int threads = 0;
  int ranks = 1;
  int ranks_per_node = 1;
  SearchArgs search;
  std::string memory;  //!< --memory SIZE; empty: the default budget, as for count
  std::string card;    //!< --card NAME: the gpu engine priced by its device model of that card
  std::string shard;   //!< --shard I/K: the part whose thread time is predicted besides the run's
  std::string units;   //!< --units LIST: likewise
  double sample_seconds = 0;
  double confidence = 0.95;
  std::string format = "text";
  LogArgs log;
};

// Each band's measurements, costliest first: what a plan's estimate and its bar are made of.
void log_bands(const plan::RunPlan& plan) {
  for (const plan::PilotUnit& unit : plan.pilots)
    spdlog::debug("pilot: weight {:.4g}, {:.4g} s counting, {:.4g} s preparing", unit.weight, unit.cpu_seconds,
                  unit.prepare_seconds);
  for (std::size_t h = 0; h < plan.bands.size(); ++h) {
    const plan::BandPlan& band = plan.bands[h];
    spdlog::debug(
        "band {:2}: {} units, weight {:.4g}, {} timed{} ({:.4g} s counting, {:.4g} s preparing): "
        "{:.4g} +- {:.3g} s{}",
        h, band.units, band.weight, band.sampled,
        band.parts_timed > 0 ? fmt::format(" on {} of their parts", band.parts_timed) : "", band.counted_seconds,
        band.prepare_seconds, band.thread_seconds, band.standard_error, band.extrapolated ? ", extrapolated" : "");
  }
}

// How the plan's part is named: "shard 3/512", "units 7-9", or "" for none.
std::string part_name(const PlanArgs& args) {
  if (!args.shard.empty()) return "shard " + args.shard;
  if (!args.units.empty()) return "units " + args.units;
  return "";
}

// The gpu engine on a card it is not running on: priced by the device model, as a model.
void plan_by_model(const PlanArgs& args, int n) {
  const shell::GpuModelRequest request{n, args.card, args.threads, args.ranks, args.sample_seconds};
  const nlohmann::ordered_json json = shell::gpu_model_plan_json(request);
  print_stdout(args.format == "json" ? json.dump() + '\n' : shell::gpu_model_plan_text(json));
}

// One N's plan: its engine built as count builds it, its units sampled, its record printed.
void plan_one(const PlanArgs& args, int n, std::uint64_t program) {
  if (args.search.engine == "gpu" && shell::gpu_plan_by_model(args.card)) return plan_by_model(args, n);
  CountOptions options = search_options(args.search);
  options.threads = args.threads;
  if (!args.memory.empty()) options.memory_bytes = parse_memory_size(args.memory);
  shell::settle_memory_budget(options, std::vector<int>{n});
  const RunRequest request = request_run(n, options);
  plan::PlanOptions planning;
  planning.threads = request.threads;
  // Built for the run's threads, as count builds it: its memory plan shares the budget among
  // them (each thread's buffers, the cache's blocks), and a budget too small for them is refused
  // as count refuses it. It is built in the one arena the sample is then counted on: this
  // machine's cores at most (plan::sampling_threads).
  const auto start = std::chrono::steady_clock::now();
  RunArena arena(plan::sampling_threads(planning));
  const std::unique_ptr<Engine> engine = make_engine(request, arena);
  const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("N={}: {}, built in {:.3f} s", n, engine->describe(), setup);

  planning.ranks = args.ranks;
  planning.sample_seconds = args.sample_seconds;
  planning.confidence = args.confidence;
  const Selection part = shell::part_selection(args.shard, args.units);
  if (!part.whole()) planning.part = part.ids(*engine);
  const shell::PlanRecord record{*engine,
                                 plan::plan_run(*engine, planning, arena),
                                 request.threads,
                                 args.ranks,
                                 args.ranks_per_node,
                                 setup,
                                 program,
                                 part_name(args)};
  log_bands(record.plan);
  const nlohmann::ordered_json json = plan_json(record);
  print_stdout(args.format == "json" ? json.dump() + '\n' : plan_text(json));
}

int run(const PlanArgs& args) {
  apply_logging(args.log);
  if (args.ranks_per_node > args.ranks)
    throw std::invalid_argument(
        fmt::format("--ranks-per-node {} is more than --ranks {}: a node holds some of the ranks", args.ranks_per_node,
                    args.ranks));
  if (!args.card.empty() && args.search.engine != "gpu")
    throw std::invalid_argument("--card prices the gpu engine by its device model: give it with --engine gpu");
  const std::vector<int> sizes = parse_n_spec(args.spec);
  if ((!args.shard.empty() || !args.units.empty()) && sizes.size() != 1)
    throw std::invalid_argument(std::string(args.shard.empty() ? "--units" : "--shard") +
                                " names units of one run: give a single board size");
  if ((!args.shard.empty() || !args.units.empty()) && args.search.engine == "gpu" &&
      shell::gpu_plan_by_model(args.card))
    throw std::invalid_argument("the device model prices whole runs: --shard and --units need a plan that samples");
  const std::uint64_t program = plan::program_memory_bytes();  // before anything is built for the run
  // Each N's engine is built and let go in turn: the next one's memory plan has the whole budget.
  for (const int n : sizes) plan_one(args, n, program);
  return kOk;
}

}  // namespace

Registered add_plan_command(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* command = app.add_subcommand(
      "plan", "Estimate a count's thread time, wall time, memory and journal from a sample of its units");
  shell::add_board_sizes(*command, args->spec,
                         "Board sizes (1..32): one N, a list or a range (22-28), each planned in turn; with --format "
                         "json, one JSON object a line");
  command->add_option("-t,--threads", args->threads, "Worker threads per process (default: all hardware threads)")
      ->check(CLI::Range(1, kMaxThreads));
  command->add_option("--ranks", args->ranks, "Processes counting at once: MPI ranks or shards run together")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command
      ->add_option("--ranks-per-node", args->ranks_per_node,
                   "Of the ranks, those on one node: its Slurm --mem is theirs (at most --ranks)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  add_search_options(*command, args->search);
  add_memory_option(
      *command, args->memory,
      "The count's memory budget, e.g. 512M, 4G (default: as for count): the plan is of a count under it");
  command
      ->add_option(
          "--sample-seconds", args->sample_seconds,
          "Sampling budget in CPU seconds of each sampling thread (default: 2 % of the predicted wall time, 3 to 60 "
          "s; up to 15 min for a run priced past a day)")
      ->check(CLI::Range(0.001, 1e7));
  command
      ->add_option("--card", args->card,
                   "With --engine gpu: price the run by the device model of this card (" + shell::known_card_names() +
                       "), as where no device is present (then " + shell::kDefaultModelCard + ")")
      ->type_name("NAME");
  CLI::Option* shard =
      command
          ->add_option("--shard", args->shard,
                       "Also predict the thread time of shard I of K (as count --shard deals it); one N only")
          ->type_name("I/K")
          ->check(shell::shard_spec_problem);
  command
      ->add_option("--units", args->units,
                   "Also predict the thread time of these unit ids (3,7-9, or @FILE, as count --units takes them); "
                   "one N only")
      ->type_name("LIST")
      ->excludes(shard);
  command->add_option("--confidence", args->confidence, "Confidence of the error bars")
      ->check(CLI::Range(0.5, 0.9999))
      ->capture_default_str();
  command->add_option("--format", args->format, "text, or json (one JSON object)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
