// Pair tests per second of the join engine's disjoint-pair counter, per path and chunk width,
// against the one-pair-at-a-time loop measured in the same run. No framework: build with
//   g++ -std=c++20 -O2 -Isrc bench/join_match_bench.cpp src/join/disjoint_count*.cpp -o join_match_bench
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

#include "join/disjoint_count.hpp"

namespace {

using nqueens::join::DisjointCounter;
using nqueens::join::MatchPath;
using Clock = std::chrono::steady_clock;

struct Shape {
  std::size_t left;
  std::size_t right;
  int key_bits;
};

constexpr Shape kShapes[] = {{3000, 3000, 34}, {300, 300, 34}, {20000, 20000, 38}, {40, 5000, 34}, {16, 16, 30}};
constexpr double kMinSeconds = 0.3;

// Bits set with a probability that leaves about a third of the pairs disjoint.
std::vector<std::uint64_t> random_keys(std::mt19937_64& rng, std::size_t count, int key_bits) {
  const double density = std::sqrt(1.0 - std::pow(1.0 / 3.0, 1.0 / key_bits));
  std::bernoulli_distribution bit_set(density);
  std::vector<std::uint64_t> keys(count);
  for (std::uint64_t& key : keys)
    for (int bit = 0; bit < key_bits; ++bit)
      if (bit_set(rng)) key |= std::uint64_t{1} << bit;
  return keys;
}

std::uint64_t count_one_by_one(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  std::uint64_t pairs = 0;
  for (const std::uint64_t left : a)
    for (const std::uint64_t right : b) pairs += (left & right) == 0 ? 1 : 0;
  return pairs;
}

// Runs `work` until kMinSeconds have passed; returns pair tests a second and the last result.
template <typename Work>
double pairs_per_second(const Shape& shape, Work&& work, std::uint64_t& result) {
  std::size_t runs = 0;
  const auto start = Clock::now();
  double seconds = 0;
  do {
    result = work();
    ++runs;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (seconds < kMinSeconds);
  return static_cast<double>(shape.left) * static_cast<double>(shape.right) * static_cast<double>(runs) / seconds;
}

void report(const char* what, double rate, double baseline, std::uint64_t result, std::uint64_t expected) {
  std::printf("  %-26s %10.3g pairs/s  %7.1fx%s\n", what, rate, rate / baseline,
              result == expected ? "" : "  WRONG COUNT");
}

void bench_shape(const Shape& shape) {
  std::mt19937_64 rng(shape.left * 7919 + shape.right);
  const auto left = random_keys(rng, shape.left, shape.key_bits);
  const auto right = random_keys(rng, shape.right, shape.key_bits);
  std::printf("%zu x %zu keys of %d bits\n", shape.left, shape.right, shape.key_bits);

  std::uint64_t expected = 0;
  const double baseline = pairs_per_second(
      shape, [&] { return count_one_by_one(left, right); }, expected);
  report("one pair at a time", baseline, baseline, expected, expected);

  for (const MatchPath path : {MatchPath::scalar, MatchPath::avx2, MatchPath::avx512}) {
    if (!nqueens::join::supported(path)) continue;
    for (int chunk_bits = 4; chunk_bits <= 6; ++chunk_bits) {
      DisjointCounter counter(path, chunk_bits);
      std::uint64_t result = 0;
      const double with_load = pairs_per_second(
          shape, [&] { return count_disjoint_pairs(counter, left, right, shape.key_bits); }, result);
      char label[64];
      std::snprintf(label, sizeof label, "%s c=%d", nqueens::join::to_string(path), chunk_bits);
      report(label, with_load, baseline, result, expected);
    }
  }
}

}  // namespace

int main() {
  std::printf("best path on this CPU: %s; rates include load() (transpose and tables)\n",
              nqueens::join::to_string(nqueens::join::best_match_path()));
  for (const Shape& shape : kShapes) bench_shape(shape);
}
