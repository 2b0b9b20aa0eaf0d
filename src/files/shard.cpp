#include "nqueens/shard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <utility>

#include <nlohmann/json.hpp>

#include "files/echo.hpp"
#include "files/file_io.hpp"
#include "nqueens/unit_ranges.hpp"
#include "files/text_numbers.hpp"

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

  RunHeader header(const Json& run) const {
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

  // Adds the unit to `file.units`, or its id to `file.altered` if its checksum disagrees.
  void unit(const Json& entry, ShardFile& file) const {
    UnitCount u;
    u.id = number<std::size_t>(entry, "id");
    if (u.id >= file.header.unit_count) fail("unit id " + std::to_string(u.id) + " is out of range");
    u.tally.total = number<std::uint64_t>(entry, "total");
    const Json& orbits = field(entry, "orbits");
    if (!orbits.is_array() || orbits.size() != 4) fail("\"orbits\" is not a list of 4 numbers");
    for (std::size_t i = 0; i < 4; ++i) {
      if (!orbits[i].is_number_unsigned()) fail("\"orbits\" is not a list of 4 numbers");
      u.tally.orbits[i] = orbits[i].get<std::uint64_t>();
    }
    u.tally.nodes = number<std::uint64_t>(entry, "nodes");
    u.microseconds = number<std::uint64_t>(entry, "microseconds");
    if (text(entry, "crc") == checksum_hex(unit_checksum(file.header, u)))
      file.units.push_back(u);
    else
      file.altered.push_back(u.id);
  }
};

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

ShardFile parse_shard_json(std::string_view text, std::string source) {
  ShardFile file;
  file.source = std::move(source);
  const Reader read{file.source};
  const Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded()) read.fail("it is not JSON");
  if (!json.is_object() || !json.contains("format") || json["format"] != kFormat)
    read.fail("\"format\" is not \"nqueens-shard\"");
  const int version = read.number<int>(json, "format_version");
  if (version >= kOldestFormat && version < kShardFormat)
    throw ShardFileError(file.source + ": a format " + std::to_string(version) +
                         " shard file, written by a development build of nqueens; this build reads format " +
                         std::to_string(kShardFormat) + " only: count the shard again");
  if (version != kShardFormat) read.fail("unknown format_version " + std::to_string(version));
  file.header = read.header(read.field(json, "run"));
  read.shard(read.field(json, "shard"), file);
  file.threads = read.number<int>(json, "threads");
  if (file.threads < 1) read.fail("\"threads\" is 0");
  const Json& seconds = read.field(json, "seconds");
  if (!seconds.is_number() || !std::isfinite(seconds.get<double>()) || seconds.get<double>() < 0)
    read.fail("\"seconds\" is not a time (a number of seconds, 0 or more)");
  file.seconds = seconds.get<double>();
  if (read.text(json, "crc") != head_checksum(file))
    read.fail("the header fails its checksum (the run, the shard, threads or seconds were changed)");
  const Json& units = read.field(json, "units");
  if (!units.is_array()) read.fail("\"units\" is not a list");
  for (const Json& entry : units) read.unit(entry, file);
  return file;
}

namespace {

// A unit entry is under 300 bytes (its numbers at 20 digits each); a header line under 600.
constexpr std::size_t kMaxEntryBytes = 320;
constexpr std::size_t kMaxHeaderBytes = 4096;
// A file whose first line is not a header as `count --shard` writes it (reformatted by hand, say)
// is still read, up to this size.
constexpr std::size_t kMaxUnheadedBytes = std::size_t{256} << 20;

// The most bytes a shard file can hold, from its first line: the header of a file as written,
// closed and read on its own.
std::size_t most_bytes(const std::string& head, const std::string& source) {
  const std::size_t end = head.find('\n');
  if (end == std::string::npos || !std::string_view(head).substr(0, end).ends_with("\"units\":["))
    return kMaxUnheadedBytes;
  const ShardFile header = parse_shard_json(head.substr(0, end) + "]}", source);
  return end + 1 + 2 * header.header.unit_count * kMaxEntryBytes + kMaxHeaderBytes;
}

}  // namespace

ShardFile read_shard_file(const std::filesystem::path& path) {
  if (const std::string why = detail::not_regular_file(path); !why.empty()) throw ShardFileError(why);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ShardFileError(detail::io_error("cannot read", path, errno));
  const std::unique_ptr<const int, void (*)(const int*)> closer(&fd, [](const int* open) { ::close(*open); });
  std::string text;
  try {
    struct stat info {};
    if (fstat(fd, &info) != 0) throw ShardFileError(detail::io_error("cannot read", path, errno));
    const auto size = static_cast<std::size_t>(info.st_size);
    if (size > most_bytes(detail::read_from(fd, path, 0, kMaxHeaderBytes), path.string()))
      throw ShardFileError(path.string() + " is " + std::to_string(size) +
                           " bytes, more than a shard file of its run can hold");
    text = detail::read_from(fd, path, 0, size);
  } catch (const ShardFileError&) {
    throw;
  } catch (const std::runtime_error& error) {  // read_from: the reason the file cannot be read
    throw ShardFileError(error.what());
  }
  return parse_shard_json(text, path.string());
}

// ---- merge ------------------------------------------------------------------------------------

bool MergeReport::complete() const { return missing.empty() && duplicated.empty() && conflicting.empty(); }

namespace {

void check_same_run(std::span<const ShardFile> shards) {
  if (shards.empty()) throw std::invalid_argument("no shard files to merge");
  // Sightings are sized by the unit count: a header from no real run must not size them.
  if (const std::string why = header_problem(shards.front().header); !why.empty())
    throw std::invalid_argument(shards.front().source + ": no run has this header: " + why);
  for (const ShardFile& shard : shards)
    if (const std::string why = header_mismatch(shards.front().header, shard.header); !why.empty())
      throw std::invalid_argument(shard.source + " belongs to a different run than " + shards.front().source + ": " +
                                  why);
}

// Where each id was found: (file index, the entry) in file order.
using Sightings = std::vector<std::vector<std::pair<std::size_t, const UnitCount*>>>;

void classify(const Sightings& seen, MergeReport& report) {
  for (std::size_t id = 0; id < seen.size(); ++id) {
    const auto& places = seen[id];
    if (places.empty()) {
      report.missing.push_back(id);
      continue;
    }
    report.totals += places.front().second->tally;
    report.unit_time.add(places.front().second->microseconds);
    if (places.size() == 1) continue;
    UnitProblem problem{id, {}};
    bool equal = true;
    for (const auto& [file, unit] : places) {
      problem.files.push_back(file);
      equal = equal && unit->tally == places.front().second->tally;
    }
    (equal ? report.duplicated : report.conflicting).push_back(std::move(problem));
  }
}

}  // namespace

MergeReport merge_shards(std::span<const ShardFile> shards) {
  check_same_run(shards);
  MergeReport report;
  report.header = shards.front().header;
  Sightings seen(report.header.unit_count);
  std::map<std::size_t, std::vector<std::size_t>> altered;
  for (std::size_t file = 0; file < shards.size(); ++file) {
    for (const UnitCount& unit : shards[file].units) seen[unit.id].emplace_back(file, &unit);
    for (const std::size_t id : shards[file].altered) altered[id].push_back(file);
    if (std::find(report.versions.begin(), report.versions.end(), shards[file].header.version) == report.versions.end())
      report.versions.push_back(shards[file].header.version);
  }
  if (report.versions.size() == 1) report.versions.clear();
  classify(seen, report);
  // An altered entry covers nothing: its unit is reported as altered, and as missing too
  // when no other file holds it intact.
  for (auto& [id, files] : altered) report.altered.push_back({id, std::move(files)});
  return report;
}

}  // namespace nqueens
