// Micro-benchmarks of count_from(), one plan per (N, symmetry), against the textbook baseline.
//   cmake --preset bench && cmake --build --preset bench && build/bench/bench/nqueens_kernel_bench
#include <benchmark/benchmark.h>

#include "bench/baseline.hpp"
#include "dfs/kernel.hpp"
#include "dfs/split.hpp"

namespace {

// Runs every unit of the plan on this thread: the kernel alone, no scheduler.
void kernel_over_plan(benchmark::State& state, nqueens::Symmetry symmetry) {
  const int n = static_cast<int>(state.range(0));
  const nqueens::WorkPlan plan = nqueens::split(n, symmetry);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    nqueens::Tally sum;
    for (const nqueens::WorkUnit& unit : plan.units) sum += nqueens::count_from(unit, n);
    benchmark::DoNotOptimize(sum.total);
    nodes += sum.nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
  state.counters["ns/node"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_KernelFull(benchmark::State& state) { kernel_over_plan(state, nqueens::Symmetry::full); }
void BM_KernelMirror(benchmark::State& state) { kernel_over_plan(state, nqueens::Symmetry::mirror); }
void BM_KernelNone(benchmark::State& state) { kernel_over_plan(state, nqueens::Symmetry::none); }

void BM_Textbook(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(nqueens::textbook_count(n));
}

BENCHMARK(BM_KernelFull)->DenseRange(10, 14, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KernelMirror)->DenseRange(10, 14, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KernelNone)->DenseRange(10, 14, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Textbook)->DenseRange(10, 14, 2)->Unit(benchmark::kMillisecond);

}  // namespace
