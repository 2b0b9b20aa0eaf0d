// libFuzzer target: the checkpoint journal reader, scan_journal(), which Journal's constructor
// runs over the bytes of an existing file before it writes anything, and check_journal(), which
// `nqueens check` prints. Three journals are made from each input:
//   1. the input itself;
//   2. a sound journal of run A whose header line is XORed with the input (header mutations):
//      the header must read back as A's or be refused, never as another run;
//   3. a sound journal of run A where the input picks records to take from run B (another N)
//      instead, each with a sound line checksum of B's (splices): no record of B may be used.
//   4. a sound journal of run A with damage the input picks (a flipped bit, CRLF line ends, a
//      cut, zeros at the end), read as `count --repair` reads it, under run A: the header may be
//      damaged anywhere, and A's records still check out; at most the two records a flipped bit
//      can reach (one, or two joined by a flipped line end) are lost, none is read otherwise.
// Whatever is read must add up: the complete lines and the torn tail are the whole input, every
// unit id is in range and used once, every used record is a line of the input as the journal
// writes it for the header read (its line end LF or CRLF), and check agrees with the scan (unit
// time too). A header recovered from the records names their run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/files/check.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/unit_record.hpp"

namespace {

using nqueens::RunHeader;

void check(bool ok) {
  if (!ok) std::abort();
}

// Two runs with valid headers (unit counts within N^depth): A of N = 8, B of N = 9.
const RunHeader kRunA{"0.1.0", "dfs", 8, {{"symmetry", "full"}, {"split-depth", "2"}}, 16, 0x0123456789abcdefu};
const RunHeader kRunB{"0.1.0", "dfs", 9, {{"symmetry", "full"}, {"split-depth", "2"}}, 16, 0x0fedcba987654321u};
constexpr std::size_t kUnits = 16;

nqueens::UnitCount unit_of(std::size_t id, std::uint64_t salt) {
  return {id, {id * 7 + salt, {salt, id, 0, id + salt}, 100 + id}, id * 1000 + salt};
}

std::optional<nqueens::JournalScan> scan(std::string_view bytes) {
  try {
    return nqueens::scan_journal(bytes, "fuzz.journal");
  } catch (const nqueens::JournalMismatch&) {
  } catch (const nqueens::JournalCorrupt&) {
  }
  return std::nullopt;
}

void check_scan(std::string_view bytes, const nqueens::JournalScan& scan) {
  check(scan.valid_bytes > 0 && scan.valid_bytes + scan.torn_bytes == bytes.size());
  check(bytes[scan.valid_bytes - 1] == '\n');
  std::vector<std::size_t> ids;
  nqueens::UnitTime time;
  for (const nqueens::UnitCount& unit : scan.units) {
    check(unit.id < scan.header.unit_count);
    if (scan.format == nqueens::kJournalFormat) {
      std::string line = nqueens::journal_record_line(scan.header, unit);
      line.pop_back();
      check(bytes.find(line + '\n') != std::string_view::npos || bytes.find(line + "\r\n") != std::string_view::npos);
    } else {
      // A format 3 record's checksum binds the header text format 3 wrote, which this build no
      // longer writes: its line is found by its counts, the scan having checked its checksum.
      check(bytes.find(nqueens::unit_record_text(unit) + ' ') != std::string_view::npos);
    }
    ids.push_back(unit.id);
    time.add(unit.microseconds);
  }
  std::sort(ids.begin(), ids.end());
  check(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  for (const std::size_t id : scan.conflicting) check(!std::binary_search(ids.begin(), ids.end(), id));
  check(nqueens::parse_header_text(nqueens::header_text(scan.header)) == scan.header);

  const nqueens::FileCheck report = nqueens::check_journal(bytes, "fuzz.journal");
  check(report.sound == scan.units.size() && report.sound + report.missing.size() == scan.header.unit_count);
  check(report.whole() == (scan.sound() && ids.size() == scan.header.unit_count));
  check(report.unit_time == time);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (const auto read = scan(input)) check_scan(input, *read);

  // 2. Header mutations.
  std::string records;
  for (std::size_t id = 0; id < kUnits; ++id) records += nqueens::journal_record_line(kRunA, unit_of(id, 1));
  std::string header = nqueens::journal_header_line(kRunA);
  for (std::size_t i = 0; i < size; ++i) {
    char& byte = header[i % (header.size() - 1)];
    byte = static_cast<char>(byte ^ static_cast<char>(data[i]));
  }
  const std::string mutated = header + records;
  if (const auto read = scan(mutated)) {
    // A changed header that still reads, or is recovered from the records, must be A's own run.
    check(nqueens::run_identity(read->header) == nqueens::run_identity(kRunA));
    check(read->header_damaged || read->header == kRunA);
    check_scan(mutated, *read);
  }

  // 3. Records spliced in from run B, chosen by the input's bits.
  std::string spliced = nqueens::journal_header_line(kRunA);
  std::vector<bool> from_b(kUnits, false);
  for (std::size_t id = 0; id < kUnits; ++id) {
    from_b[id] = size > 0 && ((data[id % size] >> (id % 8)) & 1) != 0;
    spliced += nqueens::journal_record_line(from_b[id] ? kRunB : kRunA, unit_of(id, from_b[id] ? 2 : 1));
  }
  const auto read = scan(spliced);
  check(read.has_value());
  check_scan(spliced, *read);
  for (const nqueens::UnitCount& unit : read->units) check(!from_b[unit.id]);
  check(read->units.size() + read->damaged.size() == kUnits);

  // 4. Partial damage, read under run A as --repair reads it.
  if (size >= 3) {
    const std::string sound = nqueens::journal_header_line(kRunA) + records;
    std::string damaged = sound;
    const std::size_t at = (std::size_t{data[1]} << 8 | data[2]) % sound.size();
    switch (data[0] % 4) {
      case 0: damaged[at] = static_cast<char>(damaged[at] ^ (1 << (data[0] / 4 % 8))); break;
      case 1:
        damaged.clear();
        for (const char c : sound) damaged += c == '\n' ? std::string("\r\n") : std::string(1, c);
        break;
      case 2: damaged.resize(std::max(at, sound.find('\n') + 1)); break;
      default: damaged += std::string(at, '\0');
    }
    std::optional<nqueens::JournalScan> repaired;
    try {
      repaired = nqueens::scan_journal(damaged, "fuzz.journal", &kRunA);
    } catch (const nqueens::JournalCorrupt&) {  // a header cut short only
      check(data[0] % 4 == 0);
    }
    if (repaired) {
      check(repaired->header == kRunA);
      std::size_t lost = kUnits;
      for (const nqueens::UnitCount& unit : repaired->units) {
        check(unit == unit_of(unit.id, 1) && unit.microseconds == unit_of(unit.id, 1).microseconds);
        --lost;
      }
      if (data[0] % 4 == 0) check(lost <= 2);
      if (data[0] % 4 == 1 || data[0] % 4 == 3) check(lost == 0);
    }
  }
  return 0;
}
