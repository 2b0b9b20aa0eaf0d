// A shard file laid out as written, read line by line: a damaged entry costs that entry only,
// a damaged header line the header only, its run recovered from the entries that check out.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <utility>

#include "files/line_repair.hpp"
#include "files/shard_reading.hpp"

namespace nqueens::shard_reading {

namespace {

using detail::kMaxCorrectedShardLine;
using detail::kMaxEntryBytes;
using detail::without_cr;

std::size_t entries_fitting(const std::vector<Entry>& entries, const ShardFile& file) {
  return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [&file](const Entry& entry) {
    return fits(entry, file.header, file.format_version);
  }));
}

// The format_version a damaged header line says, where it still says one this build reads.
int format_version_of(const Json& json) {
  if (json.is_object() && json.contains("format_version") && json["format_version"] == 3) return 3;
  return kShardFormat;
}

}  // namespace

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
  const std::string_view first = without_cr(lines.front());
  if (first.ends_with("\"units\":[") || first.starts_with(kEntryStart)) return true;
  for (std::size_t i = 1; i < lines.size() && i < 8; ++i)
    if (lines[i].starts_with(kEntryStart)) return true;
  return false;
}

namespace {

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

}  // namespace

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

namespace {

// What a damaged header line may say: the line with one bit flipped where its checksum then
// holds (every field trusted), and the run it reads as it is (only its run: the entries check
// it). `why` gets the reason the line's own run is none, for the message.
std::vector<ShardFile> head_candidates(std::string_view line, const std::string& source, std::string& why) {
  std::vector<ShardFile> candidates;
  const auto parts = header_parts(line);
  // The checksum as written: 8 lower-case hex digits; any other spelling is no checksum of any text.
  const auto stored = parts && parts->checksum.find_first_not_of("0123456789abcdef") == std::string_view::npos
                          ? detail::parse_whole<std::uint32_t>(parts->checksum, 16)
                          : std::nullopt;
  if (parts && stored && parts->fields.size() <= kMaxCorrectedShardLine) {
    // The fields' bytes are flipped, not the closing brace that the checksum covers after them.
    for (const std::string& text :
         detail::single_bit_repairs(std::string(parts->fields) + "}", parts->fields.size(), *stored)) {
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
      file.format_version = json["run"].is_object() && !json["run"].contains("settings") ? 3 : kShardFormat;
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
  for (std::size_t i = first; i < lines.size(); ++i) read_line(i + 1, std::string(without_cr(lines[i])));
  if (!closed) damaged.push_back({lines.size() + 1, "the file ends before its closing line: it was cut short"});
}

std::string describe_runs(std::span<const RunHeader> runs) {
  return runs.empty() ? std::string() : " nor under the run of the other shard files given with it";
}

}  // namespace

// A file laid out as written, line by line: a damaged entry costs that entry only, a damaged
// or missing header line the header only, where the entries identify the run.
ShardFile parse_lines(const std::vector<std::string_view>& lines, const std::string& source,
                      std::span<const RunHeader> runs) {
  const std::string first(without_cr(lines.front()));
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
      other.format_version = format_version_of(loose);
      candidates.push_back(other);
    }
    std::size_t best = 0;
    for (const ShardFile& candidate : candidates)
      if (const std::size_t fit = entries_fitting(entries, candidate); fit > best) {
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

}  // namespace nqueens::shard_reading
