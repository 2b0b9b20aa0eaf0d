#include "engine_seam.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace nqueens {

void Engine::set_units(RunHeader header, std::vector<std::uint64_t> costs) {
  header_ = std::move(header);
  costs_ = std::move(costs);
  order_.resize(costs_.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::stable_sort(order_.begin(), order_.end(),
                   [this](std::size_t a, std::size_t b) { return costs_[a] > costs_[b]; });
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
  if (choose_engine(n, options) == EngineKind::join) return make_join_engine(n);
  return make_dfs_engine(split(n, options.symmetry, options.split_depth));
}

}  // namespace nqueens
