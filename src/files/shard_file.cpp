// The shard file format: written as `count --shard` writes it, read from disk, parsed as one JSON
// document or, laid out as written, line by line (shard_recovery.cpp reads a damaged one).
#include "nqueens/files/shard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "files/file_io.hpp"
#include "files/line_repair.hpp"
#include "files/shard_reading.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

using namespace shard_reading;  // this file's own format: its words read unqualified here

namespace {

// Development builds before the first release wrote format_version 1 (no header checksum, unit
// checksums over the unit's own text) and 2 (no unit times); they are refused, never read.
// Format_version 3 gave the run two fixed fields for the dfs engine's settings; it is read.
constexpr int kOldestFormat = 1;
constexpr int kFormat3 = 3;

using detail::kMaxEntryBytes;
using detail::kMaxHeaderBytes;
using detail::without_cr;

// ---- writing ----------------------------------------------------------------------------------

Json run_json(const RunHeader& header, int format_version) {
  Json json = {{"version", header.version}, {"engine", header.engine}, {"n", header.n}};
  if (format_version == kFormat3) {
    const std::optional<detail::Format3Fields> fields = detail::format3_fields(header);
    json["symmetry"] = fields ? fields->symmetry : "";
    json["split_depth"] = fields ? fields->split_depth : 0;
  } else {
    Json settings = Json::object();
    for (const auto& [name, value] : header.settings) settings[setting_key(name)] = value;
    json["settings"] = std::move(settings);
  }
  json["units"] = header.unit_count;
  json["fingerprint"] = fingerprint_hex(header.fingerprint);
  return json;
}

std::uint32_t entry_checksum(const RunHeader& run, int format_version, const UnitCount& unit) {
  return crc32(unit_record_text(unit), detail::record_binding(run, format_version == kFormat3));
}

Json unit_json(const RunHeader& run, int format_version, const UnitCount& unit) {
  const Tally& t = unit.tally;
  return {{"id", unit.id},
          {"total", t.total},
          {"orbits", {t.orbits[0], t.orbits[1], t.orbits[2], t.orbits[3]}},
          {"nodes", t.nodes},
          {"microseconds", unit.microseconds},
          {"crc", checksum_hex(entry_checksum(run, format_version, unit))}};
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
          {"format_version", shard.format_version},
          {"run", run_json(shard.header, shard.format_version)},
          {"shard", shard_spec_json(shard)},
          {"threads", shard.threads},
          {"seconds", shard.seconds}};
}

std::string head_checksum(const ShardFile& shard) { return checksum_hex(crc32(head_json(shard).dump())); }
}  // namespace

namespace shard_reading {

// ---- reading ----------------------------------------------------------------------------------

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
  if (version >= kOldestFormat && version < kFormat3 && (checked || !entries_timed))
    throw ShardFileError(source + ": a format " + std::to_string(version) +
                         " shard file, written by a development build of nqueens; this build reads format " +
                         std::to_string(kFormat3) + " and " + std::to_string(kShardFormat) +
                         " only: count the shard again");
  if (checked && version != kShardFormat && version != kFormat3)
    read.fail("unknown format_version " + std::to_string(version));
}

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

bool fits(const Entry& entry, const RunHeader& run, int format_version) {
  return entry.unit.id < run.unit_count && entry.crc == entry_checksum(run, format_version, entry.unit);
}

void sort_entries(const std::vector<Entry>& entries, ShardFile& file) {
  file.units.reserve(entries.size());
  for (const Entry& entry : entries) {
    if (entry.unit.id >= file.header.unit_count)
      file.damaged.push_back({entry.line, "unit id " + std::to_string(entry.unit.id) + " is out of range"});
    else if (fits(entry, file.header, file.format_version))
      file.units.push_back(entry.unit);
    else
      file.altered.push_back(entry.unit.id);
  }
}

}  // namespace shard_reading

namespace {

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
  if (version != kShardFormat && version != kFormat3) read.fail("unknown format_version " + std::to_string(version));
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

// ---- shard files ------------------------------------------------------------------------------

std::string shard_json(const ShardFile& shard) {
  Json head = head_json(shard);
  head["crc"] = head_checksum(shard);
  std::string text = head.dump();
  text.pop_back();  // reopen the object to add the units, one per line
  text += ",\"units\":[";
  for (std::size_t i = 0; i < shard.units.size(); ++i)
    text += (i ? ",\n" : "\n") + unit_json(shard.header, shard.format_version, shard.units[i]).dump();
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

}  // namespace nqueens
