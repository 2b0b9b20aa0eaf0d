#include "shell/output/plan_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "plan/memory_ask.hpp"

namespace nqueens::shell {

namespace {

std::string decimal(double value) { return value >= 100 ? fmt::format("{:.1f}", value) : fmt::format("{:.2f}", value); }

}  // namespace

std::string duration_text(double seconds) {
  struct Unit {
    const char* name;
    double seconds;
  };
  constexpr Unit units[] = {{"years", 365.25 * 86400}, {"days", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}};
  for (const Unit& unit : units)
    if (seconds >= 2 * unit.seconds || (unit.seconds == 1 && seconds >= 1))
      return decimal(seconds / unit.seconds) + " " + unit.name;
  return decimal(seconds * 1e3) + " ms";
}

// A bar as wide as the estimate comes of a sample that timed too little of the costliest units.
std::string bar_text(double seconds, double error) {
  if (error < seconds) return duration_text(seconds) + " +- " + duration_text(error);
  return "about " + duration_text(seconds) + ", unbounded";
}

namespace {

std::string bytes_text(double bytes) {
  constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  for (; bytes >= 1024 && unit < 5; ++unit) bytes /= 1024;
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[unit]);
}

std::string plural(std::int64_t count, const char* word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

}  // namespace

nlohmann::ordered_json plan_json(const PlanRecord& record) {
  const plan::RunPlan& plan = record.plan;
  const double wall = record.setup_seconds + plan.counting_seconds;
  nlohmann::ordered_json json;
  json["type"] = "plan";
  json["n"] = record.engine.n();
  json["engine"] = record.engine.header().engine;
  json["threads"] = record.threads;
  json["ranks"] = record.ranks;
  json["work_units"] = plan.units;
  json["strata"] = plan.strata;
  json["sampled_units"] = plan.sampled_units;
  json["sampled_share"] = plan.sampled_share;
  json["sample_seconds"] = plan.sample_seconds;
  json["sample_budget_seconds"] = plan.sample_budget_seconds;
  json["setup_seconds"] = record.setup_seconds;
  json["confidence"] = plan.confidence;
  json["thread_seconds"] = plan.thread.total;
  json["thread_seconds_error"] = plan.half_width;
  json["thread_seconds_sampling_error"] = plan.thread.standard_error;
  json["extrapolated_bands"] = plan.extrapolated_bands;
  json["extrapolated_share"] = plan.extrapolated_share;
  json["units_in_parts"] = plan.units_in_parts;
  json["parts_timed"] = plan.parts_timed;
  json["journal_thread_seconds"] = plan.journal_thread.total;
  json["journal_thread_seconds_error"] = plan.journal_half_width;
  json["largest_unit_seconds"] = plan.largest_unit_seconds;
  json["counting_seconds"] = plan.counting_seconds;
  json["efficiency"] = plan.efficiency;
  json["wall_seconds"] = wall;
  // Under a load seen while sampling, the bar takes in the counting at that load too.
  json["wall_seconds_error"] = nqueens::plan::counting_error_seconds(plan);
  json["busy_cores"] = plan.busy_cores;
  json["busy_factor"] = plan.busy_factor;
  json["busy_cpus"] = plan.busy_cpus;
  json["wall_seconds_at_load"] = record.setup_seconds + plan.counting_seconds * plan.busy_factor;
  json["memory_bytes"] = record.program_memory_bytes + plan.counting_memory_bytes;
  json["counting_memory_bytes"] = plan.counting_memory_bytes;
  json["program_memory_bytes"] = record.program_memory_bytes;
  json["count_memory"] = nqueens::plan::count_memory_option(plan.counting_memory_bytes);
  json["ranks_per_node"] = record.ranks_per_node;
  const std::uint64_t node =
      nqueens::plan::node_memory_bytes(record.program_memory_bytes + plan.counting_memory_bytes, record.ranks_per_node);
  json["node_memory_bytes"] = node;
  json["slurm_mem"] = nqueens::plan::slurm_mem_option(node);
  json["journal_bytes"] = plan.journal_bytes;
  json["checkpoint_advised"] = wall > kCheckpointAdvisedSeconds;
  json["advised_sample_seconds"] = plan.advised_sample_seconds;
  json["advised_thread_seconds_error"] = plan.advised_half_width;
  if (!record.part.empty()) {
    json["part"] = record.part;
    json["part_units"] = plan.part_units;
    json["part_thread_seconds"] = plan.part_thread.total;
    json["part_thread_seconds_error"] = plan.part_half_width;
  }
  return json;
}

std::string plan_text(const nlohmann::ordered_json& r) {
  const auto number = [&r](const char* key) { return r[key].get<double>(); };
  const auto count = [&r](const char* key) { return r[key].get<std::int64_t>(); };
  std::string text = fmt::format("N={}, {} engine, {}, {} x {}\n", count("n"), r["engine"].get<std::string>(),
                                 plural(count("work_units"), "work unit"), plural(count("threads"), "thread"),
                                 plural(count("ranks"), "rank"));
  text += fmt::format("sampled:     {} in {} ({:.1f} % of the thread time) in {} of a {} budget; setup {}\n",
                      plural(count("sampled_units"), "unit"), plural(count("strata"), "cost band"),
                      100 * number("sampled_share"), duration_text(number("sample_seconds")),
                      duration_text(number("sample_budget_seconds")), duration_text(number("setup_seconds")));
  if (count("extrapolated_bands") == count("strata"))
    text += fmt::format(
        "untimed:     all {}: not even the cheapest band's first units fit the budget; estimated from the rate of "
        "its lightest units, with a wider error\n",
        plural(count("strata"), "cost band"));
  else if (count("extrapolated_bands") > 0)
    text += fmt::format(
        "untimed:     the {} costliest of the {} ({:.1f} % of the thread time): no unit of theirs fits the budget; "
        "estimated from the cheaper bands' rates, with a wider error\n",
        count("extrapolated_bands"), plural(count("strata"), "cost band"), 100 * number("extrapolated_share"));
  if (count("units_in_parts") > 0)
    text += fmt::format(
        "in parts:    {} of the costliest bands, beyond the budget whole, timed on {} drawn at random and "
        "scaled by what each unit holds\n",
        plural(count("units_in_parts"), "unit"), plural(count("parts_timed"), "exact part"));
  text += fmt::format("thread time: {} ({:.0f} % confidence), largest unit {}\n",
                      bar_text(number("thread_seconds"), number("thread_seconds_error")), 100 * number("confidence"),
                      duration_text(number("largest_unit_seconds")));
  if (number("thread_seconds_error") >= number("thread_seconds"))
    text += fmt::format(
        "unbounded:   the {:.0f} % bar is wider than the estimate: what the sample timed does not bound the cost\n",
        100 * number("confidence"));
  // The bars hold for cores the count has to itself: the sample is timed by CPU clocks, so other
  // work on the machine during the count lengthens it beyond them, which the line says.
  if (r.contains("part"))
    text += fmt::format("part:        {}: {}, thread time {} +- {}\n", r["part"].get<std::string>(),
                        plural(count("part_units"), "unit"), duration_text(number("part_thread_seconds")),
                        duration_text(number("part_thread_seconds_error")));
  text += fmt::format("wall time:   {} on {} x {} of its own (counting at {:.1f} % efficiency, then setup)\n",
                      bar_text(number("wall_seconds"), number("wall_seconds_error")),
                      plural(count("threads"), "thread"), plural(count("ranks"), "rank"), 100 * number("efficiency"));
  if (number("busy_factor") > nqueens::plan::kBusyFactor)
    text += fmt::format(
        "load:        other processes kept {:.1f} of the {} it may run on busy while it sampled: at that load "
        "counting takes about {:.2f} times as long ({} in all), which the wall time's bar takes in\n",
        number("busy_cores"), plural(count("busy_cpus"), "CPU"), number("busy_factor"),
        duration_text(number("wall_seconds_at_load")));
  text += fmt::format("memory:      {} per process ({} counting, {} the program)\n", bytes_text(number("memory_bytes")),
                      bytes_text(number("counting_memory_bytes")), bytes_text(number("program_memory_bytes")));
  text += fmt::format("ask for:     count --memory {} per process; Slurm --mem={} a node of {} ({} + 10 % + 64 MiB)\n",
                      r["count_memory"].get<std::string>(), r["slurm_mem"].get<std::string>(),
                      plural(count("ranks_per_node"), "rank"),
                      count("ranks_per_node") == 1 ? std::string("the process")
                                                   : fmt::format("{} x the process", count("ranks_per_node")));
  text += fmt::format("journal:     {} ({} records)\n", bytes_text(number("journal_bytes")), count("work_units"));
  if (number("advised_sample_seconds") > 0)
    text += fmt::format(
        "advice:      sampling for about {} (--sample-seconds {:.10g}) would narrow the bar to about +- {}\n",
        duration_text(number("advised_sample_seconds")), number("advised_sample_seconds"),
        duration_text(number("advised_thread_seconds_error")));
  if (r["checkpoint_advised"].get<bool>())
    text += "advice:      a run this long is worth a --checkpoint journal (resumable after an interruption)\n";
  return text;
}

}  // namespace nqueens::shell
