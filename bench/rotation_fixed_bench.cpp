// Times count_rotation_fixed() for n = 16..27 (or the range given as two arguments) and checks
// each result against Burnside's lemma with the OEIS counts: S180 + 2 * S90 = 8 * unique - total.
// A plain main, not a Google Benchmark: one run per n is what the question needs.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "join/rotation_fixed.hpp"
#include "nqueens/oeis.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// "ok" or "MISMATCH" where the OEIS knows n, "-" beyond it.
const char* burnside_verdict(int n, const nqueens::RotationFixed& fixed) {
  const std::optional<std::uint64_t> total = nqueens::oeis_total(n);
  const std::optional<std::uint64_t> unique = nqueens::oeis_unique(n);
  if (!total || !unique) return "-";
  return fixed.half_turn + 2 * fixed.quarter_turn == 8 * *unique - *total ? "ok" : "MISMATCH";
}

}  // namespace

int main(int argc, char** argv) {
  const int first = argc > 1 ? std::atoi(argv[1]) : 16;
  const int last = argc > 2 ? std::atoi(argv[2]) : 27;
  std::printf("%3s %16s %10s %14s %10s %s\n", "n", "S180", "S90", "nodes", "seconds", "burnside");
  bool all_ok = true;
  for (int n = first; n <= last; ++n) {
    const auto start = std::chrono::steady_clock::now();
    const nqueens::RotationFixed fixed = nqueens::count_rotation_fixed(n);
    const double elapsed = seconds_since(start);
    const char* verdict = burnside_verdict(n, fixed);
    all_ok = all_ok && verdict[0] != 'M';
    std::printf("%3d %16llu %10llu %14llu %10.3f %s\n", n, static_cast<unsigned long long>(fixed.half_turn),
                static_cast<unsigned long long>(fixed.quarter_turn), static_cast<unsigned long long>(fixed.nodes),
                elapsed, verdict);
    std::fflush(stdout);
  }
  return all_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
