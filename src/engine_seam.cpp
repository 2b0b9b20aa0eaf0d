#include "engine_seam.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <oneapi/tbb/parallel_sort.h>
#include <oneapi/tbb/task_arena.h>

#include "parallel_each.hpp"
#include "thread_allowance.hpp"

namespace nqueens {

namespace {

// The ids, costliest first and equal costs by id: a total order, so the result does not depend
// on how the sort is split. Shards are assigned in this order, so it must never change. Sorted
// on the calling arena's threads into storage whose pages those threads fault in themselves
// (zeroed_array.hpp): at odd n the join has hundreds of thousands of units, and a serial sort
// was a serial tail of the setup that kept two threads well short of twice one thread at n = 17.
ZeroedArray<std::size_t> sorted_costliest_first(const std::vector<std::uint64_t>& costs) {
  struct Keyed {
    std::uint64_t cost;
    std::size_t id;
    bool operator<(const Keyed& other) const { return cost != other.cost ? cost > other.cost : id < other.id; }
  };
  ZeroedArray<Keyed> keyed(costs.size());
  detail::parallel_each(costs.size(), [&](std::size_t id) { keyed[id] = {costs[id], id}; });
  tbb::parallel_sort(keyed.data(), keyed.data() + keyed.size());
  ZeroedArray<std::size_t> order(keyed.size());
  detail::parallel_each(keyed.size(), [&](std::size_t i) { order[i] = keyed[i].id; });
  return order;
}

}  // namespace

void Engine::set_units(RunHeader header, std::vector<std::uint64_t> costs) {
  header_ = std::move(header);
  costs_ = std::move(costs);
  order_ = sorted_costliest_first(costs_);
}

namespace {

// From docs/performance.md ("The engine choice"): on this kind of machine the join engine is
// ahead of the depth-first search from N = 12 on even boards, but only from N = 17 on odd ones,
// whose many small off-centre units cost more than the DFS engine's search below that.
constexpr int kJoinFasterFromEven = 12;
constexpr int kJoinFasterFromOdd = 17;

bool join_measured_faster(int n) { return n >= (n % 2 == 0 ? kJoinFasterFromEven : kJoinFasterFromOdd); }

bool dfs_only_options(const CountOptions& options) {
  return options.symmetry != Symmetry::full || options.split_depth != 0;
}

}  // namespace

EngineKind choose_engine(int n, const CountOptions& options) {
  switch (options.engine) {
    case EngineKind::dfs: return EngineKind::dfs;
    case EngineKind::join:
      if (dfs_only_options(options))
        throw std::invalid_argument(
            "the join engine takes no --symmetry or --split-depth: it always folds every symmetry");
      if (const std::string why = join_unsupported_reason(n); !why.empty())
        throw std::invalid_argument("the join engine cannot count N=" + std::to_string(n) + ": " + why);
      return EngineKind::join;
    case EngineKind::automatic: break;
  }
  if (!join_measured_faster(n) || dfs_only_options(options) || !join_unsupported_reason(n).empty())
    return EngineKind::dfs;
  return EngineKind::join;
}

std::unique_ptr<Engine> make_engine(int n, const CountOptions& options) {
  const EngineKind kind = choose_engine(n, options);
  // Built on the run's own threads (the join's tables, unit list and costs are parallel loops),
  // so that --threads 1 means one thread from the first table on.
  const int threads = resolve_threads(options.threads);
  const detail::ThreadAllowance allowance(threads);
  tbb::task_arena arena(threads);
  return arena.execute([&]() -> std::unique_ptr<Engine> {
    if (kind == EngineKind::join) return make_join_engine(n);
    return make_dfs_engine(split(n, options.symmetry, options.split_depth));
  });
}

}  // namespace nqueens
