// The example at the top of nqueens.hpp, built against the installed package, then the options a
// user sets by designated initializers (built with -Wall -Wextra -Werror: no warning for the
// members left out), progress with the unit total, a plan, a checkpointed count resumed and its
// journal read with the optional file-format headers. Exits 0 only on the known values. Built with
// NQUEENS_EXPECTED_VERSION, the version the build system found the package under (find_package, pkg-config, or the
// sources' project()).
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nqueens/files/journal.hpp>  // the optional file-format set: the journal read back
#include <nqueens/nqueens.hpp>

#define NQUEENS_CONSUMER_TEXT(x) #x
#define NQUEENS_CONSUMER_NUMBER(x) NQUEENS_CONSUMER_TEXT(x)

// The version numbers for #if, the version string and the package's version are one version: a
// release that bumps one of them and not the others, or headers of another release found first,
// fail to build here.
constexpr const char* kVersionOfTheMacros = NQUEENS_CONSUMER_NUMBER(NQUEENS_VERSION_MAJOR) "." NQUEENS_CONSUMER_NUMBER(
    NQUEENS_VERSION_MINOR) "." NQUEENS_CONSUMER_NUMBER(NQUEENS_VERSION_PATCH);

constexpr bool same_text(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}

static_assert(same_text(nqueens::kVersion, kVersionOfTheMacros),
              "NQUEENS_VERSION_MAJOR / _MINOR / _PATCH are not kVersion");
static_assert(same_text(nqueens::kVersion, NQUEENS_EXPECTED_VERSION), "the headers are not of the package found");

int main() {
  const nqueens::CountResult result = nqueens::count(8);  // fastest engine, every core
  std::cout << nqueens::to_string(result.totals.total);   // "92"
  std::cout << " (N=8, nqueens " << nqueens::kVersion << ")\n";
  if (result.totals.total != 92) return 1;

  std::size_t last_done = 0, total = 0;
  double work_done = 0;  // the share of the work, weighted by cost
  const nqueens::CountResult twelve =
      nqueens::count(12, {.engine = "dfs", .threads = 1, .on_progress = [&](const nqueens::Progress& progress) {
                            last_done = progress.units_done;
                            total = progress.units_total;
                            work_done = progress.work_done;
                          }});
  if (twelve.totals.total != 14200 || total == 0 || last_done != total || work_done != 1.0) return 2;

  // A plan of the same count: its units are the count's.
  const nqueens::CountPlan plan = nqueens::plan_count(12, {.count = {.engine = "dfs", .threads = 1}});
  if (plan.units != twelve.work_units || plan.engine != "dfs") return 4;

  const std::filesystem::path journal = std::filesystem::temp_directory_path() / "nqueens-consumer.journal";
  std::filesystem::remove(journal);
  const nqueens::CountResult first = nqueens::count(10, {.checkpoint = journal});
  std::size_t held = 0;  // the first report, made before any unit is counted: what the journal held
  bool reported = false;
  const nqueens::CountResult again =
      nqueens::count(10, {.threads = 1, .checkpoint = journal, .on_progress = [&](const nqueens::Progress& progress) {
                            if (!reported) held = progress.units_done;
                            reported = true;
                          }});
  // The journal read by a tool of the user's, through the file-format headers: one sound record
  // a unit, under the header of the run that wrote it.
  const nqueens::JournalScan scan = nqueens::scan_journal(nqueens::read_journal(journal), journal.string());
  std::filesystem::remove(journal);
  if (scan.units.size() != first.work_units || !scan.sound() || scan.header.n != 10) return 5;
  const bool all_from_the_journal = held == first.work_units && again.work_units == first.work_units;
  return again.totals.total == 724 && all_from_the_journal ? 0 : 3;
}
