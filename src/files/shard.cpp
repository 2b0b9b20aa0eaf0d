#include "nqueens/shard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "files/file_io.hpp"
#include "nqueens/unit_ranges.hpp"
#include "text/echo.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kFormat = "nqueens-shard";
// Development builds before the first release wrote format_version 1 (no header checksum, unit
// checksums over the unit's own text) and 2 (no unit times); they are refused, never read.
constexpr int kOldestFormat = 1;

// ---- writing ----------------------------------------------------------------------------------

Json run_json(const RunHeader& header) {
  return {{"version", header.version},
          {"engine", header.engine},
          {"n", header.n},
          {"symmetry", std::string(to_string(header.symmetry))},
          {"split_depth", header.split_depth},
          {"units", header.unit_count},
          {"fingerprint", fingerprint_hex(header.fingerprint)}};
}

Json unit_json(const RunHeader& run, const UnitCount& unit) {
  const Tally& t = unit.tally;
  return {{"id", unit.id},
          {"total", t.total},
          {"orbits", {t.orbits[0], t.orbits[1], t.orbits[2], t.orbits[3]}},
          {"nodes", t.nodes},
          {"microseconds", unit.microseconds},
          {"crc", checksum_hex(unit_checksum(run, unit))}};
}

Json shard_spec_json(const ShardFile& shard) {
  if (!shard.unit_list.empty()) return {{"units", shard.unit_list}};
  return {{"index", shard.shard.index}, {"count", shard.shard.count}};
}

// Everything before the units, in file order: the header checksum is computed over its text,
// on writing from the file's values and on reading from the values read, so any edit of them
// (N, the shard, the seconds) shows.
Json head_json(const ShardFile& shard) {
  return {{"format", kFormat},
          {"format_version", kShardFormat},
          {"run", run_json(shard.header)},
          {"shard", shard_spec_json(shard)},
          {"threads", shard.threads},
          {"seconds", shard.seconds}};
}

std::string head_checksum(const ShardFile& shard) { return checksum_hex(crc32(head_json(shard).dump())); }

// ---- reading ----------------------------------------------------------------------------------

// A unit entry is under 300 bytes (its numbers at 20 digits each); a header line under 600.
constexpr std::size_t kMaxEntryBytes = 320;
constexpr std::size_t kMaxHeaderBytes = 4096;
// The header's checksum, as the writer puts it after the header's fields.
constexpr std::string_view kCrcMarker = ",\"crc\":\"";
// Where each unit entry starts, as the writer spells it.
constexpr std::string_view kEntryStart = "{\"id\":";
// A damaged header line up to this long is tried with each of its bits flipped (shard.hpp).
constexpr std::size_t kMaxCorrectedLine = 1024;

struct Reader {
  const std::string& source;

  [[noreturn]] void fail(const std::string& what) const {
    throw ShardFileError(source + ": not a valid shard file: " + what);
  }

  const Json& field(const Json& object, const char* key) const {
    if (!object.is_object() || !object.contains(key)) fail(std::string("no \"") + key + "\" field");
    return object[key];
  }

  template <typename T>
  T number(const Json& object, const char* key) const {
    const Json& value = field(object, key);
    if (!value.is_number_unsigned()) fail(std::string("\"") + key + "\" is not a whole number");
    const auto raw = value.get<std::uint64_t>();
    if (raw > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
      fail(std::string("\"") + key + "\" is too large");
    return static_cast<T>(raw);
  }

  std::string text(const Json& object, const char* key) const {
    const Json& value = field(object, key);
    if (!value.is_string()) fail(std::string("\"") + key + "\" is not a string");
    return value.get<std::string>();
  }

  // The run's fields, not yet held to what this build can run.
  RunHeader run_fields(const Json& run) const {
    RunHeader h;
    h.version = text(run, "version");
    h.engine = text(run, "engine");
    if (h.engine.empty()) fail("no engine");
    h.n = number<int>(run, "n");
    const auto symmetry = parse_symmetry(text(run, "symmetry"));
    if (!symmetry) fail("unknown symmetry mode");
    h.symmetry = *symmetry;
    h.split_depth = number<int>(run, "split_depth");
    h.unit_count = number<std::size_t>(run, "units");
    const std::string print = text(run, "fingerprint");
    const auto fingerprint = detail::parse_whole<std::uint64_t>(print, 16);
    if (!fingerprint || print.size() != 16) fail("bad fingerprint");
    h.fingerprint = *fingerprint;
    return h;
  }

  RunHeader header(const Json& run) const {
    RunHeader h = run_fields(run);
    if (const std::string why = header_problem(h); !why.empty()) fail("no run has this header: " + why);
    return h;
  }

  // The shard an i/k object names, or the unit list of a `count --units` file.
  void shard(const Json& spec, ShardFile& file) const {
    if (spec.is_object() && spec.contains("units")) {
      file.unit_list = text(spec, "units");
      file.shard = {0, 0};
      try {
        parse_id_ranges(file.unit_list, file.header.unit_count);
      } catch (const std::invalid_argument& bad) {
        fail(std::string("\"units\" is not a unit list of the run: ") + bad.what());
      }
      return;
    }
    file.shard = {number<int>(spec, "index"), number<int>(spec, "count")};
    if (file.shard.count < 1 || file.shard.count > kMaxShards || file.shard.index < 1 ||
        file.shard.index > file.shard.count)
      fail("shard " + std::to_string(file.shard.index) + "/" + std::to_string(file.shard.count) + " does not exist");
  }

  // Everything before the units: the run, the shard, threads and seconds. The checksum is the
  // caller's to compare.
  void head(const Json& json, ShardFile& file) const {
    file.header = header(field(json, "run"));
    shard(field(json, "shard"), file);
    file.threads = number<int>(json, "threads");
    if (file.threads < 1) fail("\"threads\" is 0");
    const Json& seconds = field(json, "seconds");
    if (!seconds.is_number() || !std::isfinite(seconds.get<double>()) || seconds.get<double>() < 0)
      fail("\"seconds\" is not a time (a number of seconds, 0 or more)");
    file.seconds = seconds.get<double>();
  }
};

// The format_version of a file's first object, refused in one line when it is one of the older
// formats (where the header's checksum holds, `checked`, or the entries have no time: a digit of
// format 3 flipped is damage, read on), or unknown (only where the checksum holds).
void check_format_version(const Json& json, const std::string& source, bool entries_timed, bool checked) {
  const Reader read{source};
  if (!json.is_object() || !json.contains("format") || json["format"] != kFormat) {
    if (checked) read.fail("\"format\" is not \"nqueens-shard\"");
    return;
  }
  if (!json.contains("format_version") || !json["format_version"].is_number_unsigned()) {
    if (checked) read.fail("\"format_version\" is not a whole number");
    return;
  }
  const auto version = json["format_version"].get<std::uint64_t>();
  if (version >= kOldestFormat && version < kShardFormat && (checked || !entries_timed))
    throw ShardFileError(source + ": a format " + std::to_string(version) +
                         " shard file, written by a development build of nqueens; this build reads format " +
                         std::to_string(kShardFormat) + " only: count the shard again");
  if (checked && version != kShardFormat) read.fail("unknown format_version " + std::to_string(version));
}

// A unit entry as read, before its checksum is checked under a run.
struct Entry {
  std::size_t line = 0;
  UnitCount unit;
  std::optional<std::uint32_t> crc;  //!< nullopt: not 8 lower-case hex digits, as no writer spells it
};

// The fields of an entry object into `entry`; "" or why it is no entry.
std::string entry_of(const Json& json, Entry& entry) {
  if (!json.is_object()) return "not a unit entry";
  for (const char* key : {"id", "total", "orbits", "nodes", "microseconds", "crc"})
    if (!json.contains(key)) return std::string("no \"") + key + "\" field";
  auto number = [&json](const char* key, std::uint64_t& value) {
    if (!json[key].is_number_unsigned()) return false;
    value = json[key].get<std::uint64_t>();
    return true;
  };
  std::uint64_t id = 0;
  if (!number("id", id) || id > std::numeric_limits<std::size_t>::max()) return "\"id\" is not a whole number";
  entry.unit.id = static_cast<std::size_t>(id);
  if (!number("total", entry.unit.tally.total)) return "\"total\" is not a whole number";
  const Json& orbits = json["orbits"];
  if (!orbits.is_array() || orbits.size() != 4) return "\"orbits\" is not a list of 4 numbers";
  for (std::size_t i = 0; i < 4; ++i) {
    if (!orbits[i].is_number_unsigned()) return "\"orbits\" is not a list of 4 numbers";
    entry.unit.tally.orbits[i] = orbits[i].get<std::uint64_t>();
  }
  if (!number("nodes", entry.unit.tally.nodes)) return "\"nodes\" is not a whole number";
  if (!number("microseconds", entry.unit.microseconds)) return "\"microseconds\" is not a whole number";
  if (!json["crc"].is_string()) return "\"crc\" is not a string";
  const std::string& crc = json["crc"].get_ref<const std::string&>();
  if (crc.size() == 8 && crc.find_first_not_of("0123456789abcdef") == std::string::npos)
    entry.crc = detail::parse_whole<std::uint32_t>(crc, 16);
  return {};
}

bool fits(const Entry& entry, const RunHeader& run) {
  return entry.unit.id < run.unit_count && entry.crc == unit_checksum(run, entry.unit);
}

std::size_t entries_fitting(const std::vector<Entry>& entries, const RunHeader& run) {
  return static_cast<std::size_t>(
      std::count_if(entries.begin(), entries.end(), [&run](const Entry& entry) { return fits(entry, run); }));
}

// Sorts the entries under the file's run: intact ones into `units`, the others into `altered`
// (a checksum that fails) or `damaged` (an id outside the run).
void sort_entries(const std::vector<Entry>& entries, ShardFile& file) {
  file.units.reserve(entries.size());
  for (const Entry& entry : entries) {
    if (entry.unit.id >= file.header.unit_count)
      file.damaged.push_back({entry.line, "unit id " + std::to_string(entry.unit.id) + " is out of range"});
    else if (fits(entry, file.header))
      file.units.push_back(entry.unit);
    else
      file.altered.push_back(entry.unit.id);
  }
}

std::string without_cr(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  return std::string(line);
}

// The lines of a text, each without its line end.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

// Whether a text is laid out as `count --shard` writes it, one entry a line (damaged or not), and
// so read line by line; otherwise it is read as one JSON document (a file reformatted by hand).
bool line_laid_out(const std::vector<std::string_view>& lines) {
  if (lines.empty()) return false;
  const std::string first = without_cr(lines.front());
  if (first.ends_with("\"units\":[") || first.starts_with(kEntryStart)) return true;
  for (std::size_t i = 1; i < lines.size() && i < 8; ++i)
    if (lines[i].starts_with(kEntryStart)) return true;
  return false;
}

// A header line as written: its fields (the text its checksum covers, less the closing brace),
// the checksum, and what follows it: {fields},"crc":"<8 hex>","units":[.
constexpr std::string_view kUnitsOpening = "\",\"units\":[";

struct HeaderParts {
  std::string_view fields;
  std::string_view checksum;
};

// The parts of a header line, found by the checksum's key or, that damaged, by what follows it.
std::optional<HeaderParts> header_parts(std::string_view line) {
  if (const std::size_t marker = line.find(kCrcMarker);
      marker != std::string_view::npos && line.size() >= marker + kCrcMarker.size() + 8)
    return HeaderParts{line.substr(0, marker), line.substr(marker + kCrcMarker.size(), 8)};
  const std::size_t opening = line.rfind(kUnitsOpening);
  if (opening == std::string_view::npos || opening < kCrcMarker.size() + 8) return std::nullopt;
  return HeaderParts{line.substr(0, opening - 8 - kCrcMarker.size()), line.substr(opening - 8, 8)};
}

// The header line's fields, the run held to what this build can run, when its checksum holds;
// nullopt when it does not. Throws ShardFileError for a sound header that no run can have, or
// one of an older format.
std::optional<ShardFile> sound_head(std::string_view line, const std::string& source, bool entries_timed) {
  const auto parts = header_parts(line);
  if (!parts) return std::nullopt;
  const std::string text = std::string(parts->fields) + "}";
  if (checksum_hex(crc32(text)) != parts->checksum) return std::nullopt;
  const Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded()) return std::nullopt;
  check_format_version(json, source, entries_timed, true);
  ShardFile file;
  file.source = source;
  Reader{file.source}.head(json, file);
  return file;
}

// What a damaged header line may say: the line with one bit flipped where its checksum then
// holds (every field trusted), and the run it reads as it is (only its run: the entries check
// it). `why` gets the reason the line's own run is none, for the message.
std::vector<ShardFile> head_candidates(std::string_view line, const std::string& source, std::string& why) {
  std::vector<ShardFile> candidates;
  const auto parts = header_parts(line);
  if (parts && parts->fields.size() <= kMaxCorrectedLine) {
    std::string text = std::string(parts->fields) + "}";
    const std::string stored(parts->checksum);
    for (std::size_t at = 0; at + 1 < text.size(); ++at)
      for (int bit = 0; bit < 8; ++bit) {
        text[at] = static_cast<char>(text[at] ^ (1 << bit));
        if (checksum_hex(crc32(text)) == stored) {
          const Json json = Json::parse(text, nullptr, false);
          ShardFile file;
          file.source = source;
          try {
            check_format_version(json, source, true, true);
            Reader{file.source}.head(json, file);
            candidates.push_back(file);
          } catch (const ShardFileError&) {
          }
        }
        text[at] = static_cast<char>(text[at] ^ (1 << bit));
      }
  }
  // As it reads: the fields before the checksum, or the whole line closed.
  for (const std::string& text :
       {parts ? std::string(parts->fields) + "}" : std::string(line) + "]}", std::string(line) + "]}"}) {
    const Json json = Json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("run")) continue;
    ShardFile file;
    file.source = source;
    try {
      file.header = Reader{file.source}.run_fields(json["run"]);
    } catch (const ShardFileError&) {
      break;
    }
    if (const std::string problem = header_problem(file.header); !problem.empty()) {
      why = "the run it reads as is no run of this build: " + problem;
      break;
    }
    // What else it says, where it says it plausibly: unchecked, shown for what it is.
    const Reader read{file.source};
    try {
      read.shard(json.value("shard", Json()), file);
    } catch (const ShardFileError&) {
      file.shard = {0, 0};
      file.unit_list.clear();
    }
    if (json.contains("threads") && json["threads"].is_number_unsigned() && json["threads"].get<std::uint64_t>() >= 1 &&
        json["threads"].get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      file.threads = json["threads"].get<int>();
    if (json.contains("seconds") && json["seconds"].is_number() && std::isfinite(json["seconds"].get<double>()) &&
        json["seconds"].get<double>() >= 0)
      file.seconds = json["seconds"].get<double>();
    file.head_trusted = false;
    candidates.push_back(file);
    break;
  }
  return candidates;
}

// The unit entries of the lines of a file laid out as written: a line holds one entry (more
// where a line end was damaged), each a JSON object of its own, and a line that reads as none
// is damage of that line only.
void read_entry_lines(const std::vector<std::string_view>& lines, std::size_t first, std::string_view rest_of_first,
                      std::vector<Entry>& entries, std::vector<LineDamage>& damaged) {
  bool closed = false;
  auto read_line = [&](std::size_t number, const std::string& line) {
    if (closed) {
      if (!line.empty()) damaged.push_back({number, "text after the end of the file's JSON"});
      return;
    }
    if (line.starts_with("]}")) {
      closed = true;
      if (line != "]}") damaged.push_back({number, "stray bytes after the closing ]}"});
      return;
    }
    if (line.empty()) return;
    if (line.size() > kMaxEntryBytes * 4) {
      damaged.push_back({number, "not a unit entry (" + std::to_string(line.size()) + " bytes)"});
      return;
    }
    // A line end flipped into another byte joins two entries on one line: each is read.
    std::vector<std::string_view> pieces;
    const std::string_view text = line;
    for (std::size_t begin = 0; begin < text.size();) {
      std::size_t next = text.find(kEntryStart, begin + 1);
      if (next == std::string_view::npos) next = text.size();
      pieces.push_back(text.substr(begin, next - begin));
      begin = next;
    }
    for (std::string_view piece : pieces) {
      // An entry ends at its first closing brace (its orbits are a list); its comma follows.
      const std::size_t close = piece.find('}');
      const std::string_view tail = close == std::string_view::npos ? std::string_view{} : piece.substr(close + 1);
      if (close != std::string_view::npos) piece = piece.substr(0, close + 1);
      Entry entry;
      entry.line = number;
      const Json json = Json::parse(piece, nullptr, false);
      const std::string problem = json.is_discarded() ? "not a unit entry (not JSON)" : entry_of(json, entry);
      if (!problem.empty()) {
        damaged.push_back({number, problem});
        continue;
      }
      entries.push_back(entry);
      if (tail.empty() || tail == ",") continue;
      // A damaged comma or line end: the entry is read, the damage noted; a closing ]} joined on.
      if (tail.find("]}") != std::string_view::npos) closed = true;
      damaged.push_back({number, "stray bytes after the entry (a damaged comma or line end; the entry is read)"});
    }
  };
  if (!rest_of_first.empty()) read_line(first, std::string(rest_of_first));
  for (std::size_t i = first; i < lines.size(); ++i) read_line(i + 1, without_cr(lines[i]));
  if (!closed) damaged.push_back({lines.size() + 1, "the file ends before its closing line: it was cut short"});
}

std::string describe_runs(std::span<const RunHeader> runs) {
  return runs.empty() ? std::string() : " nor under the run of the other shard files given with it";
}

// A file laid out as written, line by line: a damaged entry costs that entry only, a damaged
// or missing header line the header only, where the entries identify the run.
ShardFile parse_lines(const std::vector<std::string_view>& lines, const std::string& source,
                      std::span<const RunHeader> runs) {
  const std::string first = without_cr(lines.front());
  const bool headless = first.starts_with(kEntryStart);
  // The header part of line 1, and the entries a damaged line end joined to it.
  const std::size_t entry_at = headless ? 0 : first.find(kEntryStart);
  const std::string_view head_line = std::string_view(first).substr(0, entry_at);
  const std::string_view rest =
      entry_at == std::string::npos ? std::string_view{} : std::string_view(first).substr(entry_at);

  std::vector<Entry> entries;
  entries.reserve(lines.size());
  std::vector<LineDamage> damaged;
  if (!headless && !rest.empty())
    damaged.push_back({1, "a unit entry on the header's line (a damaged line end; the entry is read)"});
  read_entry_lines(lines, 1, rest, entries, damaged);
  const bool timed = std::any_of(lines.begin() + 1, lines.end(), [](std::string_view line) {
    return line.find("\"microseconds\":") != std::string_view::npos;
  });

  std::optional<ShardFile> head = headless ? std::nullopt : sound_head(head_line, source, timed);
  ShardFile file;
  if (head) {
    file = std::move(*head);
    // Damage around the checksum costs nothing, and is noted.
    const auto parts = header_parts(head_line);
    if (head_line != std::string(parts->fields) + std::string(kCrcMarker) + std::string(parts->checksum) +
                         std::string(kUnitsOpening))
      damaged.insert(damaged.begin(), {1, "the header line is damaged around its checksum (its fields are sound)"});
  }
  file.source = source;
  if (!head) {  // no sound header: the run is the one the entries check out under
    const Json loose = Json::parse(std::string(head_line) + "]}", nullptr, false);
    if (!headless && !loose.is_discarded()) check_format_version(loose, source, timed, false);
    std::string why;
    std::vector<ShardFile> candidates = headless ? std::vector<ShardFile>{} : head_candidates(head_line, source, why);
    for (const RunHeader& run : runs) {
      ShardFile other;
      other.source = source;
      other.header = run;
      other.shard = {0, 0};
      other.head_trusted = false;
      candidates.push_back(other);
    }
    std::size_t best = 0;
    for (const ShardFile& candidate : candidates)
      if (const std::size_t fit = entries_fitting(entries, candidate.header); fit > best) {
        best = fit;
        file = candidate;
      }
    const std::string problem = headless ? "there is no header line: the file starts with a unit entry"
                                         : "the header fails its checksum (the run, the shard, threads or seconds "
                                           "were changed, or the line is damaged)";
    if (best == 0)
      throw ShardRunUnknown(source + ": not a valid shard file: " + problem + ", and no unit entry checks out " +
                            (why.empty() ? "under the run it names" : "(" + why + ")") + describe_runs(runs) + ": " +
                            std::to_string(entries.size()) +
                            " lines look like unit entries of some run; give it to "
                            "merge or check with the other shard files of its run, whose run its entries are "
                            "checked under");
    file.header_damaged = true;
    damaged.insert(damaged.begin(), {1, problem + "; the run was recovered from the " + std::to_string(best) +
                                            " unit entries that check out under it" +
                                            (file.head_trusted ? "" : ", the shard, threads and seconds are unknown")});
  }
  file.damaged = std::move(damaged);
  sort_entries(entries, file);
  std::stable_sort(file.damaged.begin(), file.damaged.end(),
                   [](const LineDamage& a, const LineDamage& b) { return a.line < b.line; });
  return file;
}

// A file that is one JSON document, not laid out as written (reformatted by hand): read whole,
// its entries taken out as they are parsed, so that memory follows the entries, not the text.
ShardFile parse_document(std::string_view text, std::string source) {
  ShardFile file;
  file.source = std::move(source);
  const Reader read{file.source};
  std::vector<Entry> entries;
  bool bad_entry = false;
  std::string top_key;
  static const std::array<std::string_view, 8> kKeys = {"format",  "format_version", "run", "shard",
                                                        "threads", "seconds",        "crc", "units"};
  const Json json = Json::parse(
      text,
      [&](int depth, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::key && depth == 1) {
          top_key = parsed.get<std::string>();
          return std::find(kKeys.begin(), kKeys.end(), top_key) != kKeys.end();
        }
        if (depth != 2 || top_key != "units") return true;
        if (event == Json::parse_event_t::object_end) {
          Entry entry;
          if (entry_of(parsed, entry).empty())
            entries.push_back(entry);
          else
            bad_entry = true;
          return false;
        }
        if (event == Json::parse_event_t::value || event == Json::parse_event_t::array_end) {
          bad_entry = true;
          return false;
        }
        return true;
      },
      false);
  if (json.is_discarded()) read.fail("it is not JSON");
  if (!json.is_object() || !json.contains("format") || json["format"] != kFormat)
    read.fail("\"format\" is not \"nqueens-shard\"");
  check_format_version(json, file.source, text.find("\"microseconds\"") != std::string_view::npos, false);
  const int version = read.number<int>(json, "format_version");
  if (version != kShardFormat) read.fail("unknown format_version " + std::to_string(version));
  read.head(json, file);
  if (read.text(json, "crc") != head_checksum(file))
    read.fail("the header fails its checksum (the run, the shard, threads or seconds were changed)");
  if (!read.field(json, "units").is_array()) read.fail("\"units\" is not a list");
  if (bad_entry) read.fail("an entry of \"units\" is not a unit entry");
  for (const Entry& entry : entries)
    if (entry.unit.id >= file.header.unit_count)
      read.fail("unit id " + std::to_string(entry.unit.id) + " is out of range");
  sort_entries(entries, file);
  return file;
}

}  // namespace

// ---- shard specs and ids ----------------------------------------------------------------------

ShardSpec parse_shard_spec(std::string_view text) {
  const std::string quoted = "shard " + detail::echo(text);
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) throw std::invalid_argument(quoted + " is not of the form i/k (e.g. 2/8)");
  const auto index = detail::parse_whole<int>(text.substr(0, slash));
  const auto count = detail::parse_whole<int>(text.substr(slash + 1));
  if (!index || !count) throw std::invalid_argument(quoted + " is not of the form i/k with whole numbers i and k");
  if (*count < 1 || *count > kMaxShards)
    throw std::invalid_argument(quoted + ": the shard count must be between 1 and " + std::to_string(kMaxShards));
  if (*index < 1 || *index > *count)
    throw std::invalid_argument(quoted + ": the shard index must be between 1 and " + std::to_string(*count));
  return {*index, *count};
}

// ---- shard files ------------------------------------------------------------------------------

std::string shard_json(const ShardFile& shard) {
  Json head = head_json(shard);
  head["crc"] = head_checksum(shard);
  std::string text = head.dump();
  text.pop_back();  // reopen the object to add the units, one per line
  text += ",\"units\":[";
  for (std::size_t i = 0; i < shard.units.size(); ++i)
    text += (i ? ",\n" : "\n") + unit_json(shard.header, shard.units[i]).dump();
  return text + "\n]}\n";
}

ShardFile parse_shard_json(std::string_view text, std::string source, std::span<const RunHeader> runs) {
  const std::vector<std::string_view> lines = lines_of(text);
  if (line_laid_out(lines)) return parse_lines(lines, source, runs);
  return parse_document(text, std::move(source));
}

namespace {

// A file whose first line is not a header as `count --shard` writes it (reformatted by hand, or
// damaged) is still read, up to this size.
constexpr std::size_t kMaxUnheadedBytes = std::size_t{256} << 20;

// The most bytes a shard file of `units` units can hold.
std::size_t most_bytes_of(std::size_t header_bytes, std::size_t units) {
  return header_bytes + 2 * units * kMaxEntryBytes + kMaxHeaderBytes;
}

// The sound header of a file's first line, as written, or nullopt.
std::optional<ShardFile> head_of(const std::string& head, const std::string& source) {
  const std::size_t end = head.find('\n');
  if (end == std::string::npos) return std::nullopt;
  return sound_head(without_cr(std::string_view(head).substr(0, end)), source, true);
}

}  // namespace

bool looks_like_shard_file(std::string_view head) {
  return head.find(kFormat) != std::string_view::npos || head.find("\"units\":[") != std::string_view::npos ||
         head.starts_with(kEntryStart) ||
         head.find(std::string("\n") + std::string(kEntryStart)) != std::string_view::npos;
}

// Opened as ReadFile does (regular files only, seen before a byte is read): a FIFO among the
// files would otherwise block here.
std::optional<RunHeader> read_shard_run(const std::filesystem::path& path) {
  try {
    const detail::ReadFile file(path);
    if (const auto head = head_of(detail::read_from(file.fd(), path, 0, kMaxHeaderBytes), path.string()))
      return head->header;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

ShardFile read_shard_file(const std::filesystem::path& path, std::span<const RunHeader> runs) {
  if (const std::string why = detail::not_regular_file(path); !why.empty()) throw ShardFileError(why);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ShardFileError(detail::io_error("cannot read", path, errno));
  const std::unique_ptr<const int, void (*)(const int*)> closer(&fd, [](const int* open) { ::close(*open); });
  std::string text;
  try {
    struct stat info {};
    if (fstat(fd, &info) != 0) throw ShardFileError(detail::io_error("cannot read", path, errno));
    const auto size = static_cast<std::size_t>(info.st_size);
    const std::string head = detail::read_from(fd, path, 0, kMaxHeaderBytes);
    std::size_t most = kMaxUnheadedBytes;
    if (const auto sound = head_of(head, path.string())) {
      most = most_bytes_of(head.find('\n') + 1, sound->header.unit_count);
    } else {
      for (const RunHeader& run : runs) most = std::max(most, most_bytes_of(head.size(), run.unit_count));
    }
    if (size > most)
      throw ShardFileError(path.string() + " is " + std::to_string(size) +
                           " bytes, more than a shard file of its run can hold");
    // In blocks into a string of the file's size: memory follows the file, not twice it.
    constexpr std::size_t kBlock = std::size_t{16} << 20;
    text.reserve(size);
    for (std::string block; text.size() < size; text += block) {
      block = detail::read_from(fd, path, text.size(), std::min(kBlock, size - text.size()));
      if (block.empty()) break;
    }
  } catch (const ShardFileError&) {
    throw;
  } catch (const std::runtime_error& error) {  // read_from: the reason the file cannot be read
    throw ShardFileError(error.what());
  }
  return parse_shard_json(text, path.string(), runs);
}

// ---- merge ------------------------------------------------------------------------------------

bool MergeReport::complete() const { return missing.empty() && duplicated.empty() && conflicting.empty(); }

namespace {

void check_same_run(std::span<const ShardFile> shards) {
  if (shards.empty()) throw std::invalid_argument("no shard files to merge");
  // Missing ids are listed up to the unit count: a header from no real run must not size them.
  if (const std::string why = header_problem(shards.front().header); !why.empty())
    throw std::invalid_argument(shards.front().source + ": no run has this header: " + why);
  for (const ShardFile& shard : shards)
    if (const std::string why = header_mismatch(shards.front().header, shard.header); !why.empty())
      throw std::invalid_argument(shard.source + " belongs to a different run than " + shards.front().source + ": " +
                                  why);
}

// An intact entry where it was found: sorted by id, then file order.
struct Sighting {
  std::size_t id = 0;
  std::size_t file = 0;
  const UnitCount* unit = nullptr;
};

bool tally_less(const Tally& a, const Tally& b) {
  return std::tie(a.total, a.orbits, a.nodes) < std::tie(b.total, b.orbits, b.nodes);
}

// The places one id was found (in file order), a file's repeats of its own entry (equal counts)
// left out: a repeated entry in one file is harmless, as in a journal and as `check` says.
void classify(std::span<const Sighting> places, MergeReport& report) {
  const Tally& first = places.front().unit->tally;
  report.totals += first;
  report.unit_time.add(places.front().unit->microseconds);
  UnitProblem problem{places.front().id, {}};
  bool equal = true;
  std::vector<Tally> tallies;
  for (std::size_t begin = 0, end; begin < places.size(); begin = end) {
    tallies.clear();
    for (end = begin; end < places.size() && places[end].file == places[begin].file; ++end)
      tallies.push_back(places[end].unit->tally);
    std::sort(tallies.begin(), tallies.end(), tally_less);
    tallies.erase(std::unique(tallies.begin(), tallies.end()), tallies.end());
    for (const Tally& tally : tallies) {
      problem.files.push_back(places[begin].file);
      equal = equal && tally == first;
    }
  }
  if (problem.files.size() > 1) (equal ? report.duplicated : report.conflicting).push_back(std::move(problem));
}

}  // namespace

MergeReport merge_shards(std::span<const ShardFile> shards) {
  check_same_run(shards);
  MergeReport report;
  report.header = shards.front().header;
  // Sized by the entries the files hold; only the missing ids follow the (checked) unit count.
  std::vector<Sighting> seen;
  std::map<std::size_t, std::vector<std::size_t>> altered;
  for (std::size_t file = 0; file < shards.size(); ++file) {
    for (const UnitCount& unit : shards[file].units) seen.push_back({unit.id, file, &unit});
    for (const std::size_t id : shards[file].altered) altered[id].push_back(file);
    // The version a damaged header line reads is not the file's own.
    if (!shards[file].header_damaged &&
        std::find(report.versions.begin(), report.versions.end(), shards[file].header.version) == report.versions.end())
      report.versions.push_back(shards[file].header.version);
  }
  if (report.versions.size() == 1) report.versions.clear();
  std::stable_sort(seen.begin(), seen.end(), [](const Sighting& a, const Sighting& b) { return a.id < b.id; });
  std::size_t next_id = 0;
  for (std::size_t first = 0, end; first < seen.size(); first = end) {
    for (end = first + 1; end < seen.size() && seen[end].id == seen[first].id; ++end) {
    }
    for (; next_id < seen[first].id; ++next_id) report.missing.push_back(next_id);
    next_id = seen[first].id + 1;
    classify(std::span<const Sighting>(seen).subspan(first, end - first), report);
  }
  for (; next_id < report.header.unit_count; ++next_id) report.missing.push_back(next_id);
  // An altered entry covers nothing: its unit is reported as altered, and as missing too
  // when no other file holds it intact.
  for (auto& [id, files] : altered) report.altered.push_back({id, std::move(files)});
  return report;
}

}  // namespace nqueens
