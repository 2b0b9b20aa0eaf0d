// The example at the top of nqueens.hpp, built against the installed package, then the options a
// user sets by designated initializers (built with -Wall -Wextra -Werror: no warning for the
// members left out), progress with the unit total, and a checkpointed count resumed. Exits 0
// only on the known values.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nqueens/nqueens.hpp>

static_assert(NQUEENS_VERSION_MAJOR >= 0 && NQUEENS_VERSION_MINOR >= 0 && NQUEENS_VERSION_PATCH >= 0);

int main() {
  const nqueens::CountResult result = nqueens::count(8);  // fastest engine, every core
  std::cout << nqueens::to_string(result.totals.total);   // "92"
  std::cout << " (N=8, nqueens " << nqueens::kVersion << ")\n";
  if (result.totals.total != 92) return 1;

  std::size_t last_done = 0, total = 0;
  const nqueens::CountResult twelve =
      nqueens::count(12, {.engine = "dfs", .threads = 1, .on_progress = [&](const nqueens::Progress& progress) {
                            last_done = progress.units_done;
                            total = progress.units_total;
                          }});
  if (twelve.totals.total != 14200 || total == 0 || last_done != total) return 2;

  const std::filesystem::path journal = std::filesystem::temp_directory_path() / "nqueens-consumer.journal";
  std::filesystem::remove(journal);
  nqueens::count(10, {.checkpoint = journal});
  const nqueens::CountResult again = nqueens::count(10, {.checkpoint = journal});  // all from the journal
  std::filesystem::remove(journal);
  return again.totals.total == 724 && again.work_units > 0 ? 0 : 3;
}
