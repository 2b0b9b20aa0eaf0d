// `nqueens status DIR`: a campaign's folder (shard files, journals, logs; shell/campaign.hpp) seen
// as a whole: where each shard stands, the units and solutions counted so far, the files that do
// not belong, the units in conflict, what remains, and the commands that finish the run. Read
// only: nothing is changed or locked. Exit 0 when every unit is counted and none conflicts (the
// total is the run's), 1 while the run is unfinished or in conflict, 2 for a folder of no run.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "engine/catalogue.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "nqueens/oeis.hpp"
#include "nqueens/symmetry.hpp"
#include "shell/options/engine_settings.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/campaign.hpp"
#include "shell/output/report.hpp"
#include "shell/output/standard_output.hpp"
#include "shell/supervision/cost_notice.hpp"

namespace nqueens::cli {

namespace {

using Json = nlohmann::ordered_json;

struct StatusArgs {
  std::string folder;
  int shards = 0;
  std::string format = "text";
  LogArgs log;
};

// Shard numbers and unit ids listed this many ranges long before the rest is only counted.
constexpr std::size_t kMaxRuns = 20;

constexpr ShardState kStates[] = {ShardState::done,   ShardState::running, ShardState::interrupted,
                                  ShardState::failed, ShardState::missing, ShardState::damaged};

std::vector<std::size_t> indices_in(const Campaign& campaign, ShardState state) {
  std::vector<std::size_t> indices;
  for (const CampaignShard& shard : campaign.shards)
    if (shard.state == state) indices.push_back(static_cast<std::size_t>(shard.index));
  return indices;
}

std::vector<std::size_t> unfinished(const Campaign& campaign) {
  std::vector<std::size_t> indices;
  for (const CampaignShard& shard : campaign.shards)
    if (shard.state != ShardState::done && shard.state != ShardState::running)
      indices.push_back(static_cast<std::size_t>(shard.index));
  return indices;
}

// The commands that take the campaign to its result, in the order to run them.
std::vector<std::string> finishing_commands(const Campaign& campaign) {
  std::vector<std::string> commands;
  const std::string dir = campaign.folder.string();
  const RunHeader& run = *campaign.header;
  const int k = campaign.shard_count;
  if (!campaign.conflicting.empty())
    commands.push_back(
        fmt::format("nqueens count {} --units {} --output conflicts.json   # the conflicting units "
                    "counted again: the files whose records differ from it are wrong",
                    run_options_text(run), format_id_ranges(campaign.conflicting)));
  if (const std::vector<std::size_t> todo = unfinished(campaign); !todo.empty()) {
    const std::string shards = format_id_ranges(todo, kMaxRuns);
    commands.push_back(
        fmt::format("nqueens count {} --shard I/{} --checkpoint {}/shard-I.journal --output "
                    "{}/shard-I.json   # for I in {}",
                    run_options_text(run), k, dir, dir, shards));
    commands.push_back(
        fmt::format("ARRAY={} N={} K={} OUT_DIR={} slurm-shards.sh   # the same under Slurm, with the "
                    "run's other settings",
                    format_id_ranges(todo), run.n, k, dir));
  }
  if (campaign.count(ShardState::running) > 0)
    commands.push_back(fmt::format("# wait for the running shard{} {}",
                                   campaign.count(ShardState::running) == 1 ? "" : "s",
                                   format_id_ranges(indices_in(campaign, ShardState::running), kMaxRuns)));
  commands.push_back(fmt::format("nqueens merge --verify {}/shard-*.json", dir));
  return commands;
}

std::optional<bool> verified(const Campaign& campaign) {
  if (!campaign.complete()) return std::nullopt;
  const std::optional<std::uint64_t> expected = oeis_total(campaign.header->n);
  if (!expected) return std::nullopt;
  return campaign.totals.total == Count{*expected};
}

Json status_json(const Campaign& campaign) {
  const RunHeader& run = *campaign.header;
  Json json;
  json["type"] = "status";
  json["folder"] = campaign.folder.string();
  Json run_json = {{"n", run.n}, {"engine", run.engine}};
  shell::add_settings_json(run_json, run.settings);
  run_json["units"] = run.unit_count;
  json["run"] = std::move(run_json);
  json["shards"] = campaign.shard_count;
  Json states = Json::object();
  Json lists = Json::object();
  for (const ShardState state : kStates) {
    states[state_name(state)] = campaign.count(state);
    lists[state_name(state)] = format_id_ranges(indices_in(campaign, state));
  }
  json["states"] = states;
  json["shards_by_state"] = lists;
  json["units_counted"] = campaign.units_counted;
  json["unit_seconds"] = unit_seconds(campaign.unit_time.microseconds);
  json["counted_total"] = count_json(campaign.totals.total);
  json["complete"] = campaign.complete();
  if (campaign.complete()) json["total"] = count_json(campaign.totals.total);
  const std::optional<bool> check = verified(campaign);
  json["verified"] = check ? Json(*check) : Json(nullptr);
  json["conflicting_units"] = format_id_ranges(campaign.conflicting);
  Json left_out = Json::array();
  for (const LeftOut& file : campaign.left_out)
    left_out.push_back({{"file", file.path.string()}, {"why", file.reason}});
  json["left_out"] = left_out;
  if (const auto remaining = remaining_from_shards(campaign))
    json["remaining"] = {{"thread_seconds", remaining->thread_seconds}, {"error_95", remaining->error_95}};
  else
    json["remaining"] = nullptr;
  const std::optional<double> model = remaining_by_cost_model(campaign);
  json["remaining_by_cost_model"] = model ? Json(*model) : Json(nullptr);
  json["files_read"] = campaign.files_read;
  json["commands"] = finishing_commands(campaign);
  return json;
}

// Seconds below a minute and a half, else as the cost notice words a duration.
std::string duration_text(double seconds) {
  constexpr double kLongest = 90;
  return seconds < kLongest ? fmt::format("{:.3g} s", seconds) : rough_duration_text(seconds);
}

std::string remaining_text(const Campaign& campaign) {
  std::string text;
  if (const auto remaining = remaining_from_shards(campaign))
    text = fmt::format("{} of thread time (+- {}, 95 %, from the {} shards done)",
                       duration_text(remaining->thread_seconds), duration_text(remaining->error_95),
                       campaign.count(ShardState::done));
  else
    text = "not measured until two shards are done";
  if (const std::optional<double> model = remaining_by_cost_model(campaign))
    text += fmt::format("; by the engine's rough cost model {}", duration_text(*model));
  return text;
}

void print_text(const Campaign& campaign) {
  const RunHeader& run = *campaign.header;
  std::string text =
      fmt::format("{}: N={} {} engine ({}), {} units in {} shards; {} files read\n", campaign.folder.string(), run.n,
                  run.engine, run_options_text(run), run.unit_count, campaign.shard_count, campaign.files_read);
  for (const ShardState state : kStates) {
    const std::vector<std::size_t> indices = indices_in(campaign, state);
    text += fmt::format("  {:<12} {:>7}{}\n", state_name(state), indices.size(),
                        indices.empty() ? "" : "  " + format_id_ranges(indices, kMaxRuns));
  }
  for (const CampaignShard& shard : campaign.shards)
    if (!shard.note.empty() && (shard.state == ShardState::failed || shard.state == ShardState::damaged))
      text += fmt::format("  shard {}: {}\n", shard.index, shard.note);
  text += fmt::format("units counted: {} of {} ({:.1f} %), {:.3f} s of thread time\n", campaign.units_counted,
                      run.unit_count,
                      100.0 * static_cast<double>(campaign.units_counted) / static_cast<double>(run.unit_count),
                      unit_seconds(campaign.unit_time.microseconds));
  if (campaign.complete()) {
    const std::optional<bool> check = verified(campaign);
    text += fmt::format("total: {}{}\n", to_string(campaign.totals.total),
                        !check   ? ""
                        : *check ? " (verified against OEIS A000170)"
                                 : " (DIFFERS FROM OEIS A000170)");
  } else {
    text +=
        fmt::format("solutions in the units counted: {} (so far; not the total)\n", to_string(campaign.totals.total));
  }
  text += fmt::format("conflicting units: {}\n",
                      campaign.conflicting.empty() ? "none" : format_id_ranges(campaign.conflicting, kMaxRuns));
  for (const LeftOut& file : campaign.left_out)
    text += fmt::format("left out: {}: {}\n", file.path.string(), file.reason);
  if (!campaign.complete()) text += "remaining: " + remaining_text(campaign) + "\n";
  text += "to finish:\n";
  for (const std::string& command : finishing_commands(campaign)) text += "  " + command + "\n";
  print_stdout(text);
}

int run(const StatusArgs& args) {
  apply_logging(args.log);
  const Campaign campaign = read_campaign(args.folder, args.shards);
  if (args.format == "json")
    print_stdout(status_json(campaign).dump() + "\n");
  else
    print_text(campaign);
  const bool settled = campaign.complete() && verified(campaign) != false;
  return settled ? kOk : kMismatch;
}

}  // namespace

Registered add_status_command(CLI::App& app) {
  auto args = std::make_shared<StatusArgs>();
  CLI::App* command =
      app.add_subcommand("status", "Where a run counted in shards stands: its shards, units counted, what remains");
  command->add_option("folder", args->folder, "The folder of the shard files, journals and logs (OUT_DIR)")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("--shards", args->shards, "K, the shards of the run (default: what its shard files say)")
      ->check(CLI::Range(1, kMaxShards));
  command->add_option("--format", args->format, "Output format: text or json (one JSON object)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_logging_options(*command, args->log);
  return {command, [args] { return run(*args); }};
}

}  // namespace nqueens::cli
