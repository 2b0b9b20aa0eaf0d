#include "nqueens/files/check.hpp"

#include <algorithm>
#include <iterator>

namespace nqueens {

bool FileCheck::damaged_or_conflicting() const { return !damaged.empty() || !conflicting.empty() || !altered.empty(); }

bool FileCheck::whole() const { return !damaged_or_conflicting() && missing.empty() && foreign.empty(); }

FileCheck check_journal(std::string_view bytes, std::string source) {
  const JournalScan scan = scan_journal(bytes, source);
  return check_journal(scan, std::move(source));
}

FileCheck check_journal(const JournalScan& scan, std::string source) {
  FileCheck check;
  check.source = std::move(source);
  check.header = scan.header;
  check.format = scan.format;
  check.sound = scan.units.size();
  check.repeated = scan.repeated;
  check.damaged = scan.damaged;
  check.conflicting = scan.conflicting;
  check.torn_bytes = scan.tail_damaged ? 0 : scan.torn_bytes;
  std::vector<std::size_t> present;
  present.reserve(scan.units.size());
  for (const UnitCount& unit : scan.units) {
    present.push_back(unit.id);
    check.totals += unit.tally;
    check.unit_time.add(unit.microseconds);
  }
  std::sort(present.begin(), present.end());
  for (std::size_t id = 0, next = 0; id < scan.header.unit_count; ++id) {
    if (next < present.size() && present[next] == id) {
      ++next;
      continue;
    }
    check.missing.push_back(id);
  }
  return check;
}

FileCheck check_shard(const ShardFile& file, std::span<const std::size_t> expected) {
  FileCheck check;
  check.source = file.source;
  check.journal = false;
  check.header = file.header;
  check.format = file.format_version;
  check.shard = file.shard;
  check.unit_list = file.unit_list;
  check.damaged = file.damaged;
  check.altered = file.altered;
  std::sort(check.altered.begin(), check.altered.end());
  check.altered.erase(std::unique(check.altered.begin(), check.altered.end()), check.altered.end());
  // Sized by the entries the file holds: each id once, by its first entry; later entries with
  // equal counts are repeats (the time may differ), with other counts a conflict.
  std::vector<const UnitCount*> entries;
  entries.reserve(file.units.size());
  for (const UnitCount& unit : file.units) entries.push_back(&unit);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const UnitCount* a, const UnitCount* b) { return a->id < b->id; });
  std::vector<std::size_t> wanted(expected.begin(), expected.end());
  std::sort(wanted.begin(), wanted.end());
  std::vector<std::size_t> present;
  for (std::size_t first = 0, end; first < entries.size(); first = end) {
    const UnitCount& unit = *entries[first];
    bool conflict = false;
    for (end = first + 1; end < entries.size() && entries[end]->id == unit.id; ++end) {
      if (entries[end]->tally == unit.tally)
        ++check.repeated;
      else
        conflict = true;
    }
    if (conflict) {
      check.conflicting.push_back(unit.id);
      continue;
    }
    if (!std::binary_search(wanted.begin(), wanted.end(), unit.id)) {
      check.foreign.push_back(unit.id);
      continue;
    }
    present.push_back(unit.id);
    ++check.sound;
    check.totals += unit.tally;
    check.unit_time.add(unit.microseconds);
  }
  std::set_difference(wanted.begin(), wanted.end(), present.begin(), present.end(), std::back_inserter(check.missing));
  return check;
}

}  // namespace nqueens
