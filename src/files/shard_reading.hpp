#pragma once
// A shard file as read (shard_file.cpp), shared with the reading of a damaged one
// (shard_recovery.cpp): the format's words, the reader of its fields, the unit entries as read.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "records/format3.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::shard_reading {

using Json = nlohmann::ordered_json;

inline constexpr std::string_view kFormat = "nqueens-shard";
// The header's checksum, as the writer puts it after the header's fields.
inline constexpr std::string_view kCrcMarker = ",\"crc\":\"";
// Where each unit entry starts, as the writer spells it.
inline constexpr std::string_view kEntryStart = "{\"id\":";

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

  // The engine's settings: an object of strings, or format_version 3's two fields.
  EngineSettings settings(const Json& run) const {
    if (!run.is_object() || !run.contains("settings")) {
      const auto settings = detail::format3_settings(text(run, "symmetry"), number<int>(run, "split_depth"));
      if (!settings) fail("no run has symmetry " + text(run, "symmetry") + " without a split depth");
      return *settings;
    }
    const Json& given = run["settings"];
    if (!given.is_object()) fail("\"settings\" is not an object");
    EngineSettings read;
    for (const auto& [key, value] : given.items()) {
      if (!value.is_string() || value.get_ref<const std::string&>().empty())
        fail("the setting \"" + key + "\" is not a word");
      read.emplace(setting_name(key), value.get<std::string>());
    }
    return read;
  }

  // The run's fields, not yet held to what this build can run.
  RunHeader run_fields(const Json& run) const {
    RunHeader h;
    h.version = text(run, "version");
    h.engine = text(run, "engine");
    if (h.engine.empty()) fail("no engine");
    h.n = number<int>(run, "n");
    h.settings = settings(run);
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
    file.format_version = number<int>(json, "format_version");
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
void check_format_version(const Json& json, const std::string& source, bool entries_timed, bool checked);

// A unit entry as read, before its checksum is checked under a run.
struct Entry {
  std::size_t line = 0;
  UnitCount unit;
  std::optional<std::uint32_t> crc;  //!< nullopt: not 8 lower-case hex digits, as no writer spells it
};

// The fields of an entry object into `entry`; "" or why it is no entry.
std::string entry_of(const Json& json, Entry& entry);

// Whether an entry is one of `run`'s units and its checksum holds under that run, as a file of
// `format_version` binds its entries to it.
bool fits(const Entry& entry, const RunHeader& run, int format_version);

// Sorts the entries under the file's run: intact ones into `units`, the others into `altered`
// (a checksum that fails) or `damaged` (an id outside the run).
void sort_entries(const std::vector<Entry>& entries, ShardFile& file);

// ---- shard_recovery.cpp: a file laid out as written, read line by line ----

// The lines of a text, each without its line end.
std::vector<std::string_view> lines_of(std::string_view text);

// Whether a text is laid out as `count --shard` writes it, one entry a line (damaged or not), and
// so read line by line; otherwise it is read as one JSON document (a file reformatted by hand).
bool line_laid_out(const std::vector<std::string_view>& lines);

// The header line's fields, the run held to what this build can run, when its checksum holds;
// nullopt when it does not. Throws ShardFileError for a sound header that no run can have, or
// one of an older format.
std::optional<ShardFile> sound_head(std::string_view line, const std::string& source, bool entries_timed);

// A file laid out as written, line by line: a damaged entry costs that entry only, a damaged
// or missing header line the header only, where the entries identify the run.
ShardFile parse_lines(const std::vector<std::string_view>& lines, const std::string& source,
                      std::span<const RunHeader> runs);

}  // namespace nqueens::shard_reading
