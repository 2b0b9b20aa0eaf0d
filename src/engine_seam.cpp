#include "engine_seam.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <oneapi/tbb/task_arena.h>

#include "parallel_each.hpp"
#include "thread_allowance.hpp"

namespace nqueens {

namespace {

// The ids, costliest first and equal costs by id: a total order, so the result does not depend
// on how the sort is split. Shards are assigned in this order, so it must never change. Sorted
// in chunks on the calling arena's threads, then merged pairwise a level at a time, in storage
// whose pages those threads fault in themselves (zeroed_array.hpp): at odd n the join has
// hundreds of thousands of units, and a serial sort was a serial tail of the setup that kept two
// threads well short of twice one thread at n = 17. Not tbb::parallel_sort: its hand-overs
// happen inside libtbb, where ThreadSanitizer cannot see them, while parallel_each states its own.
ZeroedArray<std::size_t> sorted_costliest_first(const std::vector<std::uint64_t>& costs) {
  struct Keyed {
    std::uint64_t cost;
    std::size_t id;
    bool operator<(const Keyed& other) const { return cost != other.cost ? cost > other.cost : id < other.id; }
  };
  ZeroedArray<Keyed> keyed(costs.size());
  detail::parallel_each(costs.size(), [&](std::size_t id) { keyed[id] = {costs[id], id}; });
  constexpr std::size_t kChunks = 16;
  const std::size_t chunk = (keyed.size() + kChunks - 1) / kChunks;
  const auto at = [&](std::size_t index) { return keyed.data() + std::min(index, keyed.size()); };
  detail::parallel_each(kChunks, [&](std::size_t i) { std::sort(at(i * chunk), at((i + 1) * chunk)); });
  for (std::size_t width = chunk; width < keyed.size(); width *= 2) {
    detail::parallel_each((keyed.size() + 2 * width - 1) / (2 * width), [&](std::size_t pair) {
      const std::size_t first = pair * 2 * width;
      std::inplace_merge(at(first), at(first + width), at(first + 2 * width));
    });
  }
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
