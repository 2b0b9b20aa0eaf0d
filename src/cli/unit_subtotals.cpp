#include "unit_subtotals.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "files/file_io.hpp"
#include "nqueens/files/unit_record.hpp"
#include "records/format3.hpp"
#include "text/echo.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::cli {

namespace {

// Format 2 names the run by its engine's settings (none for the join). Format 1 gave every file
// two fixed fields, symmetry and split_depth, as journal format 3 did (records/format3.hpp):
// still read, its fields turned into the settings they stood for.
constexpr std::string_view kMagic = "nqueens-subtotals 2 ";
constexpr std::string_view kMagicFormat1 = "nqueens-subtotals 1 ";
// The longest unit line: an id and five counts of 20 digits, their spaces and the newline.
constexpr std::size_t kMaxLine = std::size_t{6} * 21;
constexpr std::size_t kMaxHead = 4096;

// The engine's settings as a run header writes them, between N and the units.
std::string head_line(const RunHeader& run) {
  std::string settings;
  for (const auto& [name, value] : run.settings) settings += setting_key(name) + "=" + value + " ";
  return fmt::format("{}n={} {}units={} fingerprint={}\n", kMagic, run.n, settings, run.unit_count,
                     fingerprint_hex(run.fingerprint));
}

std::string unit_line(const UnitSubtotal& unit) {
  const Tally& t = unit.tally;
  return fmt::format("{} {} {} {} {} {}\n", unit.id, t.total, t.orbits[0], t.orbits[1], t.orbits[2], t.orbits[3]);
}

std::string end_line(std::size_t units, std::uint32_t crc) {
  return fmt::format("end units={} crc={}\n", units, checksum_hex(crc));
}

[[noreturn]] void refuse(const std::filesystem::path& path, std::size_t line, const std::string& why) {
  throw std::invalid_argument(fmt::format("{} line {}: {} (not a subtotals file of `nqueens merge --subtotals`)",
                                          detail::shown_path(path.string()), line, why));
}

// "n=17 split_depth=3 symmetry=full units=1031 fingerprint=5d2c..." after the magic: any word
// but n, units and fingerprint is a setting.
std::optional<RunHeader> parse_head(std::string_view words) {
  std::istringstream in{std::string(words)};
  RunHeader run;
  std::string word;
  int fields = 0;
  while (in >> word) {
    const std::size_t equals = word.find('=');
    if (equals == std::string::npos) return std::nullopt;
    const std::string key = word.substr(0, equals);
    const std::string value = word.substr(equals + 1);
    bool read = false;
    if (key == "n") read = (run.n = detail::parse_whole<int>(value).value_or(0)) >= 1 && run.n <= 32;
    if (key == "units") read = (run.unit_count = detail::parse_whole<std::size_t>(value).value_or(0)) > 0;
    if (key == "fingerprint") {
      const auto print = detail::parse_whole<std::uint64_t>(value, 16);
      read = print.has_value();
      run.fingerprint = print.value_or(0);
    }
    const bool setting = key != "n" && key != "units" && key != "fingerprint";
    if (setting)
      read =
          !value.empty() && key.find('-') == std::string::npos && run.settings.emplace(setting_name(key), value).second;
    if (!read) return std::nullopt;
    fields += setting ? 0 : 1;
  }
  if (fields != 3) return std::nullopt;
  return run;
}

// A format-1 header's symmetry and split_depth as the settings they stood for; a file written in
// format 1 after settings replaced them (none for the join, both words for the dfs) reads alike.
std::optional<RunHeader> parse_format1_head(std::string_view words) {
  std::optional<RunHeader> run = parse_head(words);
  if (!run || run->settings.empty()) return run;
  const auto symmetry = run->settings.find("symmetry");
  const auto depth = run->settings.find("split-depth");
  if (run->settings.size() != 2 || symmetry == run->settings.end() || depth == run->settings.end()) return std::nullopt;
  const std::optional<int> split_depth = detail::parse_whole<int>(depth->second);
  std::optional<EngineSettings> settings =
      split_depth ? detail::format3_settings(symmetry->second, *split_depth) : std::nullopt;
  if (!settings) return std::nullopt;
  run->settings = std::move(*settings);
  return run;
}

std::optional<UnitSubtotal> parse_unit(std::string_view line) {
  std::istringstream in{std::string(line)};
  std::string fields[6];
  for (std::string& field : fields)
    if (!(in >> field)) return std::nullopt;
  if (std::string rest; in >> rest) return std::nullopt;
  UnitSubtotal unit;
  const auto id = detail::parse_whole<std::size_t>(fields[0]);
  const auto total = detail::parse_whole<std::uint64_t>(fields[1]);
  if (!id || !total) return std::nullopt;
  unit.id = *id;
  unit.tally.total = *total;
  for (std::size_t slot = 0; slot < 4; ++slot) {
    const auto orbit = detail::parse_whole<std::uint64_t>(fields[slot + 2]);
    if (!orbit) return std::nullopt;
    unit.tally.orbits[slot] = *orbit;
  }
  return unit;
}

std::string counts_text(const Tally& tally) {
  return fmt::format("total {}, orbits {} {} {} {}", tally.total, tally.orbits[0], tally.orbits[1], tally.orbits[2],
                     tally.orbits[3]);
}

}  // namespace

Subtotals subtotals_of(const RunHeader& run, std::span<const ShardFile> shards) {
  std::vector<const UnitCount*> by_id(run.unit_count, nullptr);
  for (const ShardFile& shard : shards)
    for (const UnitCount& unit : shard.units)
      if (unit.id < by_id.size() && by_id[unit.id] == nullptr) by_id[unit.id] = &unit;
  Subtotals subtotals{run, {}, {}};
  subtotals.units.reserve(by_id.size());
  for (const UnitCount* unit : by_id) {
    if (unit == nullptr) continue;
    Tally counts = unit->tally;
    counts.nodes = 0;
    subtotals.units.push_back({unit->id, counts});
  }
  return subtotals;
}

std::string subtotals_text(const Subtotals& subtotals) {
  std::string text = head_line(subtotals.run);
  for (const UnitSubtotal& unit : subtotals.units) text += unit_line(unit);
  return text + end_line(subtotals.units.size(), crc32(text));
}

Subtotals read_subtotals(const std::filesystem::path& path) {
  const detail::ReadFile file(path);
  const std::string head = detail::read_from(file.fd(), path, 0, kMaxHead);
  const std::size_t newline = head.find('\n');
  const bool format1 = head.rfind(kMagicFormat1, 0) == 0;
  if ((!format1 && head.rfind(kMagic, 0) != 0) || newline == std::string::npos) refuse(path, 1, "no subtotals header");
  const std::string_view words = std::string_view(head).substr(kMagic.size(), newline - kMagic.size());
  const std::optional<RunHeader> run = format1 ? parse_format1_head(words) : parse_head(words);
  if (!run) refuse(path, 1, "a header that does not read");
  // Nothing is sized by the header before the file's size is held to it.
  const std::size_t most = newline + 1 + run->unit_count * kMaxLine + kMaxHead;
  if (file.size() > most)
    refuse(path, 1, fmt::format("{} bytes, more than {} units can take", file.size(), run->unit_count));
  const std::string bytes = detail::read_from(file.fd(), path, 0, file.size());
  Subtotals subtotals{*run, {}, {}};
  std::size_t at = newline + 1;
  for (std::size_t line = 2;; ++line) {
    const std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos) refuse(path, line, "the file ends before its end line");
    const std::string_view text = std::string_view(bytes).substr(at, end - at);
    if (text.rfind("end ", 0) == 0) {
      const std::string expected = end_line(subtotals.units.size(), crc32(std::string_view(bytes).substr(0, at)));
      if (std::string(text) + "\n" != expected)
        refuse(path, line,
               fmt::format("its end line says '{}', its lines make '{}'", detail::one_line(std::string(text)),
                           expected.substr(0, expected.size() - 1)));
      if (end + 1 != bytes.size()) refuse(path, line + 1, "bytes after the end line");
      subtotals.crc = expected.substr(expected.find("crc=") + 4, 8);
      return subtotals;
    }
    const std::optional<UnitSubtotal> unit = parse_unit(text);
    if (!unit) refuse(path, line, "not a unit line (id, total and four orbit counts)");
    if (unit->id >= run->unit_count)
      refuse(path, line, fmt::format("unit {} of a run of {} units", unit->id, run->unit_count));
    if (!subtotals.units.empty() && unit->id <= subtotals.units.back().id) refuse(path, line, "ids out of order");
    subtotals.units.push_back(*unit);
    at = end + 1;
  }
}

std::vector<std::string> subtotal_differences(const Subtotals& here, const Subtotals& there, const std::string& name) {
  RunHeader a = here.run;
  RunHeader b = there.run;
  a.engine = b.engine = "";
  a.version = b.version = "";
  if (const std::string why = header_mismatch(a, b); !why.empty())
    return {fmt::format("{} holds the subtotals of other units: {}", name, why)};
  std::vector<std::string> differences;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < here.units.size() || j < there.units.size()) {
    if (j == there.units.size() || (i < here.units.size() && here.units[i].id < there.units[j].id)) {
      differences.push_back(
          fmt::format("unit {}: {} here, not in {}", here.units[i].id, counts_text(here.units[i].tally), name));
      ++i;
    } else if (i == here.units.size() || there.units[j].id < here.units[i].id) {
      differences.push_back(
          fmt::format("unit {}: not here, {} in {}", there.units[j].id, counts_text(there.units[j].tally), name));
      ++j;
    } else {
      if (!(here.units[i].tally == there.units[j].tally))
        differences.push_back(fmt::format("unit {}: {} here, {} in {}", here.units[i].id,
                                          counts_text(here.units[i].tally), counts_text(there.units[j].tally), name));
      ++i;
      ++j;
    }
  }
  return differences;
}

}  // namespace nqueens::cli
