// libFuzzer target: the checkpoint journal reader, scan_journal(), which Journal's constructor
// runs over the bytes of an existing file before it writes anything. It throws JournalMismatch
// or JournalCorrupt, or returns a scan whose parts add up: the complete lines and the torn tail
// are the whole input, every unit id is in range and recorded once, and the header reads back
// the same when written out again.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "nqueens/journal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  nqueens::JournalScan scan;
  try {
    scan = nqueens::scan_journal(bytes, "fuzz.journal");
  } catch (const nqueens::JournalMismatch&) {
    return 0;
  } catch (const nqueens::JournalCorrupt&) {
    return 0;
  }
  if (scan.valid_bytes == 0 || scan.valid_bytes + scan.torn_bytes != size) std::abort();
  if (bytes[scan.valid_bytes - 1] != '\n') std::abort();
  std::vector<std::size_t> ids;
  for (const nqueens::UnitCount& unit : scan.units) {
    if (unit.id >= scan.header.unit_count) std::abort();
    ids.push_back(unit.id);
  }
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) std::abort();
  if (nqueens::parse_header_text(nqueens::header_text(scan.header)) != scan.header) std::abort();
  return 0;
}
