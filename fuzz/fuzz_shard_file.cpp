// libFuzzer target: the shard-file reader behind `nqueens merge` and `nqueens check`,
// parse_shard_json(), followed by merge_shards() and check_shard() over the file as the commands
// do. Three files are made from each input:
//   1. the input itself;
//   2. a sound shard file of run A whose header line is XORed with the input (header
//      mutations): it must read back with A's header, shard, threads and seconds, or be refused;
//   3. a sound shard file of run A where the input picks unit entries to take from a shard file
//      of run B (another N) instead (splices): every such entry must be found altered.
//   4. a sound shard file of run A with damage the input picks (a flipped bit, a cut, a lost
//      line, the header line lost, a repeated line, CRLF line ends): it is read, and loses at
//      most what the damage hit, never reading an entry with other counts; without its header
//      line it is read under run A given as the run of the other files, and refused without.
// What the reader accepts with its own header is written back by shard_json() and read again
// unchanged, merging a file with itself finds every intact unit doubled, and check and merge
// agree on whether the file's units are all there.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/files/check.hpp"
#include "nqueens/files/shard.hpp"

namespace {

using nqueens::RunHeader;

void check(bool ok) {
  if (!ok) std::abort();
}

const RunHeader kRunA{"0.1.0", "dfs", 8, {{"symmetry", "full"}, {"split-depth", "2"}}, 16, 0x0123456789abcdefu};
const RunHeader kRunB{"0.1.0", "dfs", 9, {{"symmetry", "full"}, {"split-depth", "2"}}, 16, 0x0fedcba987654321u};
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

  if (file.head_trusted) {  // the shard, threads and seconds are the file's own: written back as they are
    const nqueens::ShardFile again = nqueens::parse_shard_json(nqueens::shard_json(file), "again.json");
    check(again.header == file.header && again.shard == file.shard && again.threads == file.threads);
    check(again.unit_list == file.unit_list);
    check(again.seconds == file.seconds && again.units == file.units && again.altered.empty());
    check(again.damaged.empty() && !again.header_damaged);
    for (std::size_t i = 0; i < file.units.size(); ++i)
      check(again.units[i].microseconds == file.units[i].microseconds);
  }

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
  // Whole to check is complete to merge; damage that costs no unit (a damaged header or line
  // end, an altered entry of a unit held intact too) is check's to report and merge's to pass.
  check(!checked.whole() || report.complete());
  check(report.complete() == checked.missing.empty());
  check(checked.unit_time == report.unit_time || !checked.conflicting.empty());
}

// The lines of a text, each with its newline.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size() - 1);
    lines.push_back(text.substr(begin, end + 1 - begin));
    begin = end + 1;
  }
  return lines;
}

// Mode 4: `ours` (the file of `original`) with the damage data[0] picks at the place data[1..2]
// picks, read: at most what the damage hit is lost, and nothing is read with other counts.
void damage(const std::string& ours, const std::uint8_t* data, const nqueens::ShardFile& original) {
  const std::vector<std::string> lines = lines_of(ours);
  const std::size_t at = (std::size_t{data[1]} << 8 | data[2]) % ours.size();
  const std::size_t line = 1 + at % (lines.size() - 1);  // not the header line
  std::string text;
  std::size_t may_lose = 0;
  bool headless = false;
  switch (data[0] % 6) {
    case 0:  // a flipped bit: one entry, or the header, or a line end
      text = ours;
      text[at] = static_cast<char>(text[at] ^ (1 << (data[0] / 6 % 8)));
      may_lose = 1;
      break;
    case 1:  // cut short: the entries after the cut
      text = ours.substr(0, at);
      may_lose = kUnits;
      break;
    case 2:  // a line lost
      for (std::size_t i = 0; i < lines.size(); ++i)
        if (i != line) text += lines[i];
      may_lose = 1;
      break;
    case 3:  // the header line lost
      for (std::size_t i = 1; i < lines.size(); ++i) text += lines[i];
      headless = true;
      break;
    case 4:  // a line repeated
      for (std::size_t i = 0; i < lines.size(); ++i) text += i == line ? lines[i] + lines[i] : lines[i];
      break;
    default:  // CRLF
      for (const char c : ours) text += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  std::optional<nqueens::ShardFile> read;
  try {
    read = nqueens::parse_shard_json(text, "damaged.json");
  } catch (const nqueens::ShardRunUnknown&) {
    check(headless);
    read = nqueens::parse_shard_json(text, "damaged.json", std::vector<RunHeader>{kRunA});
  } catch (const nqueens::ShardFileError&) {
    check(data[0] % 6 == 1 && at < ours.find('\n'));  // only a cut inside the header line
    return;
  }
  check(nqueens::run_identity(read->header) == nqueens::run_identity(kRunA));
  std::vector<bool> seen(kUnits, false);
  for (const nqueens::UnitCount& unit : read->units) {
    check(unit.id < kUnits && unit == original.units[unit.id]);
    check(unit.microseconds == original.units[unit.id].microseconds);
    seen[unit.id] = true;
  }
  std::size_t lost = 0;
  for (const bool found : seen) lost += found ? 0 : 1;
  check(lost <= may_lose);
  // A flipped bit never goes unseen, nor a lost header line (a lost entry line is a missing unit).
  if (data[0] % 6 == 0 || headless) check(!read->damaged.empty() || !read->altered.empty());
  check_file(*read);
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
    // Its own header, or the run its entries check out under: A's either way.
    check(nqueens::run_identity(file->header) == nqueens::run_identity(kRunA));
    check(file->header_damaged || file->header == kRunA);
    if (file->head_trusted) {
      check(file->shard == original.shard && file->threads == original.threads);
      check(file->seconds == original.seconds);
    }
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

  // 4. Partial damage.
  if (size >= 3) damage(ours, data, original);
  return 0;
}
