#include "nqueens/check.hpp"

#include <algorithm>

namespace nqueens {

namespace {

// Ids in 0..unit_count-1 that are not in `present` (flags by id).
std::vector<std::size_t> absent(const std::vector<char>& present, std::span<const std::size_t> expected) {
  std::vector<std::size_t> ids;
  for (const std::size_t id : expected)
    if (!present[id]) ids.push_back(id);
  return ids;
}

}  // namespace

bool FileCheck::damaged_or_conflicting() const { return !damaged.empty() || !conflicting.empty() || !altered.empty(); }

bool FileCheck::whole() const { return !damaged_or_conflicting() && missing.empty() && foreign.empty(); }

FileCheck check_journal(std::string_view bytes, std::string source) {
  const JournalScan scan = scan_journal(bytes, source);
  FileCheck check;
  check.source = std::move(source);
  check.header = scan.header;
  check.sound = scan.units.size();
  check.repeated = scan.repeated;
  check.damaged = scan.damaged;
  check.conflicting = scan.conflicting;
  check.torn_bytes = scan.tail_damaged ? 0 : scan.torn_bytes;
  std::vector<char> present(scan.header.unit_count, 0);
  for (const UnitCount& unit : scan.units) {
    present[unit.id] = 1;
    check.totals += unit.tally;
    check.unit_time.add(unit.microseconds);
  }
  std::vector<std::size_t> all(scan.header.unit_count);
  for (std::size_t id = 0; id < all.size(); ++id) all[id] = id;
  check.missing = absent(present, all);
  return check;
}

FileCheck check_shard(const ShardFile& file, std::span<const std::size_t> expected) {
  FileCheck check;
  check.source = file.source;
  check.journal = false;
  check.header = file.header;
  check.shard = file.shard;
  check.unit_list = file.unit_list;
  check.altered = file.altered;
  std::sort(check.altered.begin(), check.altered.end());
  check.altered.erase(std::unique(check.altered.begin(), check.altered.end()), check.altered.end());
  std::vector<char> wanted(file.header.unit_count, 0);
  for (const std::size_t id : expected)
    if (id < wanted.size()) wanted[id] = 1;
  std::vector<const UnitCount*> seen(file.header.unit_count, nullptr);
  std::vector<char> conflicting(file.header.unit_count, 0);
  for (const UnitCount& unit : file.units) {
    const UnitCount*& slot = seen[unit.id];
    if (!slot) {
      slot = &unit;
    } else if (slot->tally == unit.tally) {  // the time may differ
      ++check.repeated;
    } else {
      conflicting[unit.id] = 1;
    }
  }
  std::vector<char> present(file.header.unit_count, 0);
  for (std::size_t id = 0; id < seen.size(); ++id) {
    if (conflicting[id]) check.conflicting.push_back(id);
    if (!seen[id] || conflicting[id]) continue;
    if (!wanted[id]) {
      check.foreign.push_back(id);
      continue;
    }
    present[id] = 1;
    ++check.sound;
    check.totals += seen[id]->tally;
    check.unit_time.add(seen[id]->microseconds);
  }
  check.missing = absent(present, expected);
  return check;
}

}  // namespace nqueens
