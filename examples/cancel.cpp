// A per-unit callback that watches a count and cancels it: after `limit` finished work units it
// sets the stop flag, no further unit starts, and count() throws nqueens::Cancelled. The same
// flag could be set by a timer, a user interface or a signal handler.
//   cancel [N] [limit]      (default 16 and 20)
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <iostream>

#include <nqueens/nqueens.hpp>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 16;
  const int limit = argc > 2 ? std::atoi(argv[2]) : 20;
  std::atomic<bool> stop{false};
  std::atomic<int> finished{0};
  nqueens::CountOptions options;
  options.engine = "dfs";
  options.stop = &stop;
  // Called from the counting threads, once per finished unit: it must be thread-safe.
  options.on_unit_done = [&](std::size_t /*id*/, const nqueens::Tally& /*tally*/) {
    if (++finished >= limit) stop = true;
  };
  try {
    const nqueens::CountResult result = nqueens::count(n, options);
    std::cout << "N=" << n << " finished before the limit: " << nqueens::to_string(result.totals.total) << "\n";
  } catch (const nqueens::Cancelled& cancelled) {
    std::cout << "cancelled after " << finished << " units: " << cancelled.what() << "\n";
  }
  return 0;
}
