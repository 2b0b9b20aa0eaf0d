#include "run/selection.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <utility>

#include "nqueens/files/unit_ranges.hpp"

namespace nqueens {

ShardSpec Selection::file_shard() const {
  if (const auto* shard = std::get_if<ShardSpec>(&choice_)) return *shard;
  return {0, 0};
}

std::vector<std::size_t> Selection::ids(const Engine& engine) const {
  if (const auto* shard = std::get_if<ShardSpec>(&choice_)) return shard_ids(engine, *shard);
  if (const auto* list = std::get_if<UnitList>(&choice_)) return parse_id_ranges(list->text, engine.unit_count());
  std::vector<std::size_t> all(engine.unit_count());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

std::vector<std::size_t> shard_ids(const Engine& engine, ShardSpec shard) {
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw std::invalid_argument("shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) +
                                " does not exist");
  // Greedy longest-processing-time: each unit, costliest first, goes to the least loaded
  // shard. A min-heap of (load, shard) keeps that O(units log k) for thousands of shards.
  using Load = std::pair<std::uint64_t, int>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> loads;
  for (int s = 1; s <= shard.count; ++s) loads.push({0, s});
  std::vector<std::size_t> ids;
  for (const std::size_t id : engine.costliest_first()) {
    auto [load, s] = loads.top();
    loads.pop();
    if (s == shard.index) ids.push_back(id);
    loads.push({load + engine.cost(id), s});
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace nqueens
