// libFuzzer target: the shard-file reader behind `nqueens merge` and `nqueens check`,
// parse_shard_json(), followed by merge_shards() and check_shard() over the file as the commands
// do. Three files are made from each input:
//   1. the input itself;
//   2. a sound shard file of run A whose header line is XORed with the input (header
//      mutations): it must read back with A's header, shard, threads and seconds, or be refused;
//   3. a sound shard file of run A where the input picks unit entries to take from a shard file
//      of run B (another N) instead (splices): every such entry must be found altered.
// What the reader accepts is written back by shard_json() and read again unchanged, and merging
// a file with itself finds every intact unit doubled.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/check.hpp"
#include "nqueens/shard.hpp"

namespace {

using nqueens::RunHeader;

void check(bool ok) {
  if (!ok) std::abort();
}

const RunHeader kRunA{"0.1.0", "dfs", 8, nqueens::Symmetry::full, 2, 16, 0x0123456789abcdefu};
const RunHeader kRunB{"0.1.0", "dfs", 9, nqueens::Symmetry::full, 2, 16, 0x0fedcba987654321u};
constexpr std::size_t kUnits = 16;

nqueens::ShardFile sound_file(const RunHeader& run, std::uint64_t salt) {
  nqueens::ShardFile file;
  file.header = run;
  file.shard = {1, 1};
  file.threads = 2;
  file.seconds = 0.25;
  for (std::size_t id = 0; id < kUnits; ++id)
    file.units.push_back({id, {id * 7 + salt, {salt, id, 0, id}, 100 + id}, id * 1000 + salt});
  return file;
}

std::optional<nqueens::ShardFile> parse(std::string_view text) {
  try {
    return nqueens::parse_shard_json(text, "fuzz.json");
  } catch (const nqueens::ShardFileError&) {
    return std::nullopt;
  }
}

void check_file(const nqueens::ShardFile& file) {
  for (const nqueens::UnitCount& unit : file.units) check(unit.id < file.header.unit_count);
  for (const std::size_t id : file.altered) check(id < file.header.unit_count);

  const nqueens::ShardFile again = nqueens::parse_shard_json(nqueens::shard_json(file), "again.json");
  check(again.header == file.header && again.shard == file.shard && again.threads == file.threads);
  check(again.unit_list == file.unit_list);
  check(again.seconds == file.seconds && again.units == file.units && again.altered.empty());
  for (std::size_t i = 0; i < file.units.size(); ++i) check(again.units[i].microseconds == file.units[i].microseconds);

  const std::vector<nqueens::ShardFile> one{file};
  const nqueens::MergeReport report = nqueens::merge_shards(one);
  check(report.header == file.header && report.missing.size() <= file.header.unit_count);
  const std::vector<nqueens::ShardFile> twice{file, file};
  const nqueens::MergeReport doubled = nqueens::merge_shards(twice);
  check(doubled.missing == report.missing && doubled.totals == report.totals);
  check(doubled.duplicated.size() + doubled.conflicting.size() + doubled.missing.size() == file.header.unit_count);

  std::vector<std::size_t> all(file.header.unit_count);
  std::iota(all.begin(), all.end(), std::size_t{0});
  const nqueens::FileCheck checked = nqueens::check_shard(file, all);
  check(checked.sound + checked.missing.size() == file.header.unit_count);
  check(checked.whole() == report.complete());
  check(checked.unit_time == report.unit_time || !checked.conflicting.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (const auto file = parse(input)) check_file(*file);

  // 2. Header mutations: the first line holds everything but the unit entries.
  static const nqueens::ShardFile original = sound_file(kRunA, 1);
  static const std::string ours = nqueens::shard_json(original);
  static const std::string theirs = nqueens::shard_json(sound_file(kRunB, 2));
  std::string text = ours;
  const std::size_t header_end = text.find('\n');
  for (std::size_t i = 0; i < size; ++i) {
    char& byte = text[i % header_end];
    byte = static_cast<char>(byte ^ static_cast<char>(data[i]));
  }
  if (const auto file = parse(text)) {
    check(file->header == kRunA && file->shard == original.shard && file->threads == original.threads);
    check(file->seconds == original.seconds);
    check_file(*file);
  }

  // 3. Entries spliced in from run B's file, chosen by the input's bits.
  std::string spliced = ours.substr(0, ours.find('\n') + 1);
  std::vector<bool> from_b(kUnits, false);
  std::size_t at_ours = ours.find('\n') + 1, at_theirs = theirs.find('\n') + 1;
  for (std::size_t id = 0; id < kUnits; ++id) {
    const std::size_t end_ours = ours.find('\n', at_ours) + 1, end_theirs = theirs.find('\n', at_theirs) + 1;
    from_b[id] = size > 0 && ((data[id % size] >> (id % 8)) & 1) != 0;
    spliced += from_b[id] ? theirs.substr(at_theirs, end_theirs - at_theirs) : ours.substr(at_ours, end_ours - at_ours);
    at_ours = end_ours;
    at_theirs = end_theirs;
  }
  spliced += "]}\n";
  const auto file = parse(spliced);
  check(file.has_value());
  for (const nqueens::UnitCount& unit : file->units) check(!from_b[unit.id]);
  for (const std::size_t id : file->altered) check(from_b[id]);
  check(file->units.size() + file->altered.size() == kUnits);
  check_file(*file);
  return 0;
}
