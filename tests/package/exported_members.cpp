// Every member function the public headers declare and the library defines, called from a
// program linked against the shared library: a member of a struct that is not NQUEENS_EXPORT is
// hidden in libnqueens.so, and this program then fails to link. check_exported_members.py holds
// the headers to this file: each such member is named here, and each is in the library's
// dynamic symbol table (nm -D). Exits 0 only on the values known for N = 8.
#include <filesystem>
#include <iostream>
#include <vector>

#include <nqueens/files/check.hpp>
#include <nqueens/files/journal.hpp>
#include <nqueens/files/shard.hpp>
#include <nqueens/nqueens.hpp>

namespace {

// Tally::operator+=, Totals::operator+= (of a Tally, of Totals), Totals::unique(),
// Totals::half_turn_fixed(), Totals::quarter_turn_fixed(): N = 8 has 92 solutions, 12 unique,
// 4 fixed by a half turn and none by a quarter turn.
bool counts_link(const nqueens::CountResult& eight) {
  nqueens::Tally tally;
  tally += nqueens::Tally{.total = 1};
  nqueens::Totals totals;
  totals += tally;
  totals += eight.totals;
  return totals.total == 93 && eight.totals.unique() == 12 && eight.totals.half_turn_fixed() == 4 &&
         eight.totals.quarter_turn_fixed() == 0;
}

// Every Journal member on the journal a count wrote, then JournalScan::problem(),
// FileCheck::whole() and FileCheck::damaged_or_conflicting() on what it holds.
bool journal_links(const std::filesystem::path& path, std::size_t work_units) {
  const nqueens::JournalScan scan = nqueens::scan_journal(nqueens::read_journal(path), path.string());
  {
    nqueens::Journal journal(path, scan.header);
    if (journal.recorded().size() != work_units || journal.repaired() || journal.dropped_bytes() != 0 ||
        journal.path() != path || !journal.unwritable().empty())
      return false;
    const nqueens::UnitCount first = journal.recorded().front();
    journal.append(first);  // a repeat: reading drops it
    const std::vector<nqueens::UnitCount> again{first, first};
    journal.append(again);
    journal.sync();
    journal.seal();
    if (journal.units() != work_units + 3) return false;
  }
  const nqueens::FileCheck check = nqueens::check_journal(nqueens::read_journal(path), path.string());
  return scan.problem(path.string()).empty() && check.whole() && !check.damaged_or_conflicting() && check.repeated == 3;
}

// MergeReport::complete(): a report with a unit missing is not.
bool merge_links() {
  nqueens::MergeReport report;
  const bool empty_is_complete = report.complete();
  report.missing.push_back(0);
  return empty_is_complete && !report.complete();
}

}  // namespace

int main() {
  const std::filesystem::path journal = std::filesystem::temp_directory_path() / "nqueens-exported-members.journal";
  std::filesystem::remove(journal);
  const nqueens::CountResult eight = nqueens::count(8, {.engine = "dfs", .threads = 1, .checkpoint = journal});
  const bool counts = counts_link(eight);
  const bool journals = journal_links(journal, eight.work_units);
  std::filesystem::remove(journal);
  const bool merges = merge_links();
  std::cout << "counts " << counts << ", journal " << journals << ", merge " << merges << '\n';
  return counts && journals && merges ? 0 : 1;
}
