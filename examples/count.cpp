// Counts the solutions of one board size with the library's defaults (the faster engine, every
// core) and prints them with the published value.
//   count [N]      (default 12)
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <nqueens/nqueens.hpp>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 12;
  try {
    const nqueens::CountResult result = nqueens::count(n);
    std::cout << "N=" << n << ": " << nqueens::to_string(result.totals.total) << " solutions";
    if (result.unique) std::cout << ", " << nqueens::to_string(*result.unique) << " unique";
    std::cout << " (" << result.engine << " engine, " << result.work_units << " work units, " << result.threads
              << " threads)\n";
    const std::optional<std::uint64_t> expected = nqueens::oeis_total(n);
    return expected && result.totals.total != *expected ? 1 : 0;
  } catch (const std::invalid_argument& bad) {
    std::cerr << "count: " << bad.what() << "\n";
    return 2;
  }
}
