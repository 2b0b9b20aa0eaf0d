// `nqueens bench`: sweeps N and thread counts, with repeats, and compares every figure with the
// textbook baseline timed in the same run (these machines are noisy: only ratios travel).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "bench/bench.hpp"
#include "commands.hpp"
#include "nqueens/n_spec.hpp"
#include "run/registry.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/engine_settings.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/report.hpp"
#include "shell/supervision/cost_notice.hpp"

namespace nqueens::cli {

namespace {

struct BenchArgs {
  std::string spec = "14-16";
  std::vector<int> threads;
  Repeats repeats;
  SearchArgs search;
  std::vector<std::string> engines;  //!< several to compare them in one run; empty: --engine's one
  bool baseline = true;
  std::string format = "text";
  std::string json_counts = "number";
  bool wide = false;
  LogArgs log;
};

struct Baseline {
  Timing timing;
  std::uint64_t total = 0;  //!< its count, which the engine's must equal
};

// One measured (engine, threads) point of an N, for the N's summary.
struct Point {
  std::string engine;
  int threads = 0;
  Timing timing;
};

nlohmann::ordered_json optional_number(std::optional<double> value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// The statistics of one measurement, and every sample, as record fields.
void add_timing(nlohmann::ordered_json& json, const Timing& timing, Repeats repeats) {
  json["warmup"] = repeats.warmup;
  json["repeats"] = repeats.timed;
  json["inner_repeats"] = timing.inner_repeats;
  json["min_seconds"] = timing.min_seconds;
  json["median_seconds"] = timing.median_seconds;
  json["mean_seconds"] = timing.mean_seconds;
  json["max_seconds"] = timing.max_seconds;
  json["stddev_seconds"] = timing.stddev_seconds;
  json["samples"] = timing.seconds;
}

// One (N, threads) measurement as a record; the ratios are what docs/performance.md quotes.
// A ratio is null only where a run stayed too short to time however often it was repeated
// inside a sample (speed_ratio).
nlohmann::ordered_json bench_record(const CountResult& r, const Timing& timing, Repeats repeats,
                                    const std::optional<Timing>& one_thread, const std::optional<Timing>& yardstick,
                                    const std::optional<Baseline>& baseline, const CriticalPath& path) {
  const double seconds = timing.median_seconds;
  const double nodes = static_cast<double>(r.totals.nodes);
  auto ratio = [&timing](const std::optional<Timing>& other) { return speed_ratio(other, timing); };
  const std::optional<Timing> baseline_timing = baseline ? std::optional(baseline->timing) : std::nullopt;
  nlohmann::ordered_json json;
  json["n"] = r.n;
  json["engine"] = r.engine;
  json["threads"] = r.threads;
  json["total"] = count_json(r.totals.total);
  json["unique"] = r.unique ? count_json(*r.unique) : nlohmann::ordered_json(nullptr);
  add_settings_json(json, r.settings);
  add_timing(json, timing, repeats);
  json["solutions_per_second"] = seconds > 0 ? static_cast<double>(r.totals.total) / seconds : 0.0;
  json["nodes"] = count_json(r.totals.nodes);
  json["nodes_per_second"] = seconds > 0 ? nodes / seconds : 0.0;
  json["ns_per_node"] = nodes > 0 ? seconds * 1e9 * r.threads / nodes : 0.0;
  json["speedup_vs_1_thread"] = optional_number(ratio(one_thread));
  json[yardstick_column()] = optional_number(ratio(yardstick));
  json["baseline_seconds"] = optional_number(baseline ? std::optional(baseline->timing.median_seconds) : std::nullopt);
  json["vs_baseline"] = optional_number(ratio(baseline_timing));
  json["work_units"] = r.work_units;
  json["largest_unit_share"] = path.largest_unit_share;
  json["ceiling_16"] = path.ceiling_16;
  json["ceiling_64"] = path.ceiling_64;
  json["ceiling_256"] = path.ceiling_256;
  return json;
}

// The textbook baseline runs before the engines, on one thread and without progress: it is
// left out where one run of it would take longer than this, by the growth below.
constexpr double kMostBaselineSeconds = 60;

// One run of the baseline at n, in seconds: about 0.5 s at N = 15 on a desktop core and some
// 6.5 times more each N further (measured on N = 13..15): 21 s at N = 17, months at N = 24.
double baseline_run_seconds(int n) { return 0.5 * std::pow(6.5, n - 15); }

// The textbook baseline's time, after checking that it counts what the engine counted: a
// speed ratio between two programs that disagree would mean nothing. Left out, with a warning,
// past kMostBaselineSeconds.
std::optional<Baseline> measure_baseline(int n, const BenchArgs& args) {
  if (!args.baseline) return std::nullopt;
  if (const double seconds = baseline_run_seconds(n); seconds > kMostBaselineSeconds) {
    spdlog::warn(
        "N={}: the textbook baseline is left out: one run of it would take about {:.2g} s (0.5 s at N = 15, 6.5 "
        "times more each N), more than the {:.0f} s bench gives it; vs_baseline is empty (--no-baseline leaves it "
        "out without this warning)",
        n, seconds, kMostBaselineSeconds);
    return std::nullopt;
  }
  std::uint64_t total = 0;
  const Timing timing = time_textbook(n, args.repeats, total);
  spdlog::info("N={}: textbook baseline {:.3g} s (median of {}, {} runs each)", n, timing.median_seconds,
               args.repeats.timed, timing.inner_repeats);
  return Baseline{timing, total};
}

// The engines to time, resolved for n: `--engines dfs,join` compares them in one run. The
// yardstick engine goes first, so that every other row has its ratio whatever the order given.
std::vector<CountOptions> engines_for(int n, const BenchArgs& args) {
  std::vector<CountOptions> all;
  for (const std::string& name : args.engines.empty() ? std::vector<std::string>{args.search.engine} : args.engines) {
    SearchArgs search = args.search;
    search.engine = name;
    CountOptions options = search_options(search);
    options.engine = std::string(choose_engine(n, options).name);
    all.push_back(options);
  }
  std::stable_partition(all.begin(), all.end(),
                        [](const CountOptions& options) { return options.engine == yardstick_engine().name; });
  return all;
}

// Once per N it applies to: a ratio left out needs a reason, and a larger N is the remedy. Only
// a run that stays too short when repeated kMaxInnerRepeats times inside a sample is left out.
void warn_if_too_short(int n, const Timing& timing, bool& warned) {
  if (warned || timing.comparable) return;
  warned = true;
  spdlog::warn(
      "N={}: a run takes {:.2g} s, and {} of them under {} s, too short to time: its speedup and ratios are left "
      "out (null in JSON, - in text); bench a larger N to compare",
      n, timing.median_seconds, timing.inner_repeats, kShortestComparable);
}

std::string threads_text(int threads) { return fmt::format("{} thread{}", threads, threads == 1 ? "" : "s"); }

// The N's summary, on stderr and as a JSON "summary" record: its fastest point against the
// yardstick engine on as many threads or, where that is the fastest or was not timed, the
// textbook baseline, with the ratio's spread, as hyperfine gives "1.5 +- 0.1 times faster".
void summarize_size(int n, const std::vector<Point>& points, const std::map<int, Timing>& yardstick,
                    const std::optional<Baseline>& baseline, Reporter& reporter) {
  if (points.empty()) return;
  const Point& best = *std::min_element(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return a.timing.median_seconds < b.timing.median_seconds;
  });
  std::optional<Timing> reference;
  std::string reference_name;
  int reference_threads = best.threads;
  const auto same_threads = yardstick.find(best.threads);
  if (best.engine != yardstick_engine().name && same_threads != yardstick.end()) {
    reference = same_threads->second;
    reference_name = yardstick_engine().name;
  } else if (baseline) {
    reference = baseline->timing;
    reference_name = "textbook";
    reference_threads = 1;
  }
  const std::optional<double> ratio = speed_ratio(reference, best.timing);
  const std::optional<double> spread = speed_ratio_stddev(reference, best.timing);
  if (!ratio || !spread || *ratio <= 0) return;
  // Said of whichever ran faster, as "0.8 times faster" reads badly.
  const bool faster = *ratio >= 1;
  const double shown = faster ? *ratio : 1 / *ratio;
  const double shown_spread = faster ? *spread : *spread / (*ratio * *ratio);
  const std::string winner = faster ? best.engine : reference_name, loser = faster ? reference_name : best.engine;
  const int winner_threads = faster ? best.threads : reference_threads;
  const int loser_threads = faster ? reference_threads : best.threads;
  const std::string text =
      winner_threads == loser_threads
          ? fmt::format("N={}: {} ran {:.2f} +- {:.2f} times faster than {} on {}", n, winner, shown, shown_spread,
                        loser, threads_text(winner_threads))
          : fmt::format("N={}: {} on {} ran {:.2f} +- {:.2f} times faster than {} on {}", n, winner,
                        threads_text(winner_threads), shown, shown_spread, loser, threads_text(loser_threads));
  spdlog::info("{}", text);
  nlohmann::ordered_json record;
  record["n"] = n;
  record["engine"] = best.engine;
  record["threads"] = best.threads;
  record["reference"] = reference_name;
  record["reference_threads"] = reference_threads;
  record["ratio"] = *ratio;  // reference time / the engine's: above 1, the engine is faster
  record["ratio_stddev"] = *spread;
  record["text"] = text;
  reporter.summary(record);
}

// Times every engine and thread count for one N. Per-unit node counts from the last repeat
// give the critical path; they are written by unit id, each id by exactly one thread.
void bench_one_size(int n, const std::vector<CountOptions>& engines, const BenchArgs& args, Reporter& reporter) {
  const std::optional<Baseline> baseline = measure_baseline(n, args);
  std::map<int, Timing> yardstick_timings;  // by thread count, when the yardstick is timed in this run
  std::vector<Point> points;
  bool warned = false;
  for (CountOptions options : engines) {
    std::optional<Timing> one_thread;
    for (int threads : args.threads) {
      options.threads = threads;
      std::vector<std::uint64_t> unit_nodes(make_engine(n, options)->unit_count());
      options.on_unit_done = [&unit_nodes](std::size_t id, const Tally& tally) { unit_nodes[id] = tally.nodes; };
      CountResult last;
      const Timing timing = time_engine(n, options, args.repeats, last);
      if (baseline) check_against_baseline(last, baseline->total);
      if (threads == 1) one_thread = timing;
      if (last.engine == yardstick_engine().name) yardstick_timings[threads] = timing;
      const auto yardstick = yardstick_timings.find(threads);
      spdlog::info("N={} engine={} threads={}: median {:.3g} s ({} runs a sample)", n, last.engine, threads,
                   timing.median_seconds, timing.inner_repeats);
      warn_if_too_short(n, timing, warned);
      points.push_back({last.engine, threads, timing});
      reporter.row(bench_record(last, timing, args.repeats, one_thread,
                                yardstick == yardstick_timings.end() ? std::nullopt : std::optional(yardstick->second),
                                baseline, critical_path(unit_nodes)));
    }
  }
  summarize_size(n, points, yardstick_timings, baseline, reporter);
}

int run(BenchArgs args) {
  apply_logging(args.log);
  const std::vector<int> sizes = parse_n_spec(args.spec);
  if (args.threads.empty()) args.threads = {1, hardware_threads()};
  std::sort(args.threads.begin(), args.threads.end());  // 1 first, so speedups have their base
  args.threads.erase(std::unique(args.threads.begin(), args.threads.end()), args.threads.end());

  // Every (N, engine, options) is checked with the registry before anything runs: an engine that
  // cannot count the last N is refused now, not after the baselines and engines of the others
  // (days of them at N = 24).
  std::vector<std::vector<CountOptions>> engines;
  engines.reserve(sizes.size());
  for (int n : sizes) engines.push_back(engines_for(n, args));
  // A timed run that would take more than an hour is said before any starts (once per repeat:
  // the warning's cost is one run's, on the fewest threads timed).
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (const CountOptions& options : engines[i]) {
      const RunRequest request = request_run(sizes[i], options);
      warn_each(announce_costs({}, std::span(&request, 1), threads_that_run(args.threads.front()), true));
    }

  auto reporter = make_reporter(parse_format(args.format), parse_json_counts(args.json_counts));
  reporter->begin({"bench", args.threads.back(), sizes, args.wide});
  for (std::size_t i = 0; i < sizes.size(); ++i) bench_one_size(sizes[i], engines[i], args, *reporter);
  reporter->end();
  return kOk;
}

}  // namespace

Registered add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* command =
      app.add_subcommand("bench", "Time the engine over N and thread counts against the textbook baseline");
  // Also positional, as for count: `nqueens bench 16`.
  shell::add_board_sizes(*command, args->spec, "Board sizes: N, A-B or a list (1..32; default 14-16)", false);
  command->add_option("-t,--threads", args->threads, "Thread counts to sweep, e.g. 1,2 (default: 1 and all)")
      ->delimiter(',')
      ->check(CLI::Range(1, kMaxThreads));
  command
      ->add_option(
          "-r,--repeats", args->repeats.timed,
          "Timed samples per point; the median is compared (a run under 0.1 s is repeated within each sample until "
          "it lasts that long)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  command
      ->add_option("-w,--warmup", args->repeats.warmup,
                   "Warm-up runs, not timed, before the timed ones (caches, allocator, thread pool)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  add_search_options(*command, args->search);
  command
      ->add_option("--engines", args->engines,
                   "Engines to compare in one run, each also against " + std::string(yardstick_engine().name) +
                       " (the " + yardstick_column() + " column)")
      ->delimiter(',')
      ->check(CLI::IsMember(engine_names()))
      ->excludes("--engine");
  command->add_flag("!--no-baseline", args->baseline, "Skip the textbook baseline (slow past N = 17)");
  add_format_option(*command, args->format);
  add_json_counts_option(*command, args->json_counts);
  add_wide_option(*command, args->wide);
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
