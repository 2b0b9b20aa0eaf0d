#include "check_recount.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "engine/catalogue.hpp"
#include "nqueens/count.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "shell/options/count_options.hpp"

namespace nqueens::cli {

namespace {

// Units whose differences are spelled out before the rest are only counted.
constexpr std::size_t kMaxNamed = 20;

// The fields of a tally by the names that files and reports give them.
std::vector<std::pair<std::string_view, std::uint64_t>> fields(const Tally& tally) {
  return {{"total", tally.total},  {"o1", tally.orbits[0]}, {"o2", tally.orbits[1]},
          {"o4", tally.orbits[2]}, {"o8", tally.orbits[3]}, {"nodes", tally.nodes}};
}

// "unit 17 differs (total: recorded 5216, recounted 5208)".
std::string difference_text(const Recounted& unit) {
  const auto recorded = fields(unit.recorded.tally);
  const auto recounted = fields(unit.recounted);
  std::string text;
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    if (recorded[i].second == recounted[i].second) continue;
    if (recorded[i].first == "nodes" && unit.compared == Compared::all_but_nodes) continue;
    text += fmt::format("{}{}: recorded {}, recounted {}", text.empty() ? "" : "; ", recorded[i].first,
                        recorded[i].second, recounted[i].second);
  }
  return fmt::format("unit {} differs ({})", unit.recorded.id, text);
}

nlohmann::ordered_json tally_json(const Tally& tally) {
  nlohmann::ordered_json json;
  for (const auto& [name, value] : fields(tally)) json[std::string(name)] = value;
  return json;
}

// A whole number from `least` up, in decimal digits only: CLI11 2.1 reads "-3" into an unsigned
// option as 2^64 - 3, and "K" would read as no number at all.
CLI::Validator whole_number(std::uint64_t least, const std::string& what) {
  return CLI::Validator(
      [least, what](const std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        const bool digits =
            !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits && error == std::errc() && end == text.data() + text.size() && value >= least) return "";
        return fmt::format("{} must be a whole number from {} to {}, not '{}'", what, least,
                           std::numeric_limits<std::uint64_t>::max(), text);
      },
      "");
}

// The probability that a draw of `drawn` of `records` meets at least one of `wrong` records:
// 1 - C(records - wrong, drawn) / C(records, drawn), the hypergeometric chance of missing them all
// taken from 1, as a product of `drawn` ratios so that no binomial coefficient is formed.
double catch_probability(std::size_t records, std::size_t drawn, std::size_t wrong) {
  if (wrong == 0 || drawn == 0 || records == 0) return 0;
  if (drawn + wrong > records) return 1;
  double log_miss = 0;
  for (std::size_t i = 0; i < drawn; ++i)
    log_miss += std::log1p(-static_cast<double>(wrong) / static_cast<double>(records - i));
  return -std::expm1(log_miss);
}

// The fewest wrong records that the draw meets with probability 0.99 or more.
std::size_t wrong_caught_99(std::size_t records, std::size_t drawn) {
  constexpr double kSure = 0.99;
  std::size_t low = 1;
  std::size_t high = records;
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (catch_probability(records, drawn, middle) >= kSure)
      high = middle;
    else
      low = middle + 1;
  }
  return low;
}

// "a file with 1 wrong record is caught with probability 3.9 %; with 115 or more, 99 %".
std::string power_text(const RecountReport& report) {
  const std::size_t drawn = report.drawn.size();
  if (drawn >= report.records) return "every record recounted: any wrong record is caught";
  return fmt::format("a file with 1 wrong record is caught with probability {:.3g} %; with {} or more, 99 %",
                     100 * catch_probability(report.records, drawn, 1), wrong_caught_99(report.records, drawn));
}

}  // namespace

CLI::Option* add_recount_options(CLI::App& command, RecountArgs& args) {
  CLI::Option* recount =
      command.add_option("--recount", args.units, "Count K of each file's records again, drawn at random, and compare")
          ->type_name("K")
          ->check(whole_number(1, "K"));
  CLI::Option* seed = command.add_option("--seed", args.seed, "Seed of the --recount draw (default: drawn and shown)")
                          ->type_name("S")
                          ->check(whole_number(0, "the seed"))
                          ->needs(recount);
  command.add_option("-t,--threads", args.threads, "Worker threads to recount with (default: all)")
      ->check(CLI::Range(1, kMaxThreads));
  shell::add_memory_option(command, args.memory, "Most memory a recount may hold, as for count");
  command
      .add_option("--by", args.by,
                  "What --recount counts with: same (the file's engine) or independent (a second way to count "
                  "its units, sharing none of its counting code: the join's and gpu's)")
      ->check(CLI::IsMember({"same", "independent"}))
      ->capture_default_str()
      ->needs(recount);
  return seed;
}

std::pair<std::unique_ptr<Engine>, RecountPath> recount_engine(std::unique_ptr<Engine> own, const RunHeader& header,
                                                               const RecountArgs& args, RunArena& arena) {
  if (args.by == "same") {
    // check built the engine whose units the run shares where the run's own cannot count here.
    const std::string built = own->header().engine;
    std::string text = built == header.engine ? "the run's own engine, " + built
                                              : fmt::format(
                                                    "the {} engine, whose units the {} run shares (the {} "
                                                    "engine cannot count on this machine)",
                                                    built, header.engine, header.engine);
    if (const EngineDescription* engine = find_engine(built); engine && !engine->cpu_path_key.empty())
      text += fmt::format(" ({} {})", engine->cpu_path_key, engine->cpu_path());
    return {std::move(own), RecountPath{"same", text + "; every count compared", Compared::every_count}};
  }
  const EngineDescription* family = find_engine(unit_family(header.engine));
  if (family == nullptr || family->independent_recount == nullptr)
    throw std::invalid_argument(fmt::format(
        "--by independent: the {} engine's units have no independent recount path (--by same counts them again "
        "with the engine itself)",
        header.engine));
  own.reset();  // its tables are not needed: the independent path builds its own
  std::unique_ptr<Engine> engine = arena.execute([&] { return family->independent_recount(header); });
  return {std::move(engine),
          RecountPath{"independent",
                      fmt::format("the {} units' independent path: {}; totals and orbit counts compared, not nodes",
                                  family->name, family->independent_recount_text),
                      Compared::all_but_nodes}};
}

std::uint64_t fresh_seed() {
  std::random_device source;
  // random_device gives 32 bits a call; 53 of them make a repeated default draw unlikely.
  const std::uint64_t bits = (static_cast<std::uint64_t>(source()) << 32) | source();
  return bits & ((std::uint64_t{1} << 53) - 1);
}

RecountReport recount_records(std::unique_ptr<Engine> engine, const RecountPath& path, RunArena& arena,
                              const std::vector<UnitCount>& records, const RecountArgs& args) {
  std::vector<std::size_t> ids;
  ids.reserve(records.size());
  for (const UnitCount& record : records) ids.push_back(record.id);
  const std::vector<std::size_t> drawn = draw_ids(ids, args.units, args.seed);
  std::vector<UnitCount> chosen;
  chosen.reserve(drawn.size());
  for (const UnitCount& record : records)
    if (std::binary_search(drawn.begin(), drawn.end(), record.id)) chosen.push_back(record);
  RecountReport report{path, args.seed, drawn, records.size(), {}};
  for (Recounted& unit : recount(std::move(engine), chosen, arena, path.compared))
    if (!unit.equal()) report.differ.push_back(unit);
  return report;
}

std::string recount_text(const RecountReport& report) {
  std::string text =
      fmt::format("{} of {} units recounted (seed {}): ", report.drawn.size(), report.records, report.seed);
  if (report.all_equal()) return text + "all equal (" + power_text(report) + ")";
  for (std::size_t i = 0; i < report.differ.size() && i < kMaxNamed; ++i)
    text += (i == 0 ? "" : ", ") + difference_text(report.differ[i]);
  if (report.differ.size() > kMaxNamed) text += fmt::format(", ... ({} units differ in all)", report.differ.size());
  return text;
}

std::string recount_path_text(const RecountPath& path) { return path.by + ": " + path.text; }

nlohmann::ordered_json recount_json(const RecountReport& report) {
  nlohmann::ordered_json differ = nlohmann::ordered_json::array();
  for (const Recounted& unit : report.differ)
    differ.push_back({{"id", unit.recorded.id},
                      {"recorded", tally_json(unit.recorded.tally)},
                      {"recounted", tally_json(unit.recounted)}});
  return {{"by", report.path.by},
          {"path", report.path.text},
          {"seed", report.seed},
          {"units", format_id_ranges(report.drawn)},
          {"recounted", report.drawn.size()},
          {"records", report.records},
          {"all_equal", report.all_equal()},
          {"differ", differ},
          {"catch_one_wrong", catch_probability(report.records, report.drawn.size(), 1)},
          {"wrong_caught_99", wrong_caught_99(report.records, report.drawn.size())}};
}

}  // namespace nqueens::cli
