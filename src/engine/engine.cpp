#include "engine/engine.hpp"

#include <algorithm>
#include <utility>

#include "engine/parallel_each.hpp"

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

std::uint64_t Engine::unit_bookkeeping_bytes() const {
  // Engine: costs_ and order_. Run (run.hpp): tallies_, micros_, have_, wanted_ and todo_.
  constexpr std::uint64_t per_unit = sizeof(std::uint64_t) + sizeof(std::size_t) + sizeof(Tally) +
                                     sizeof(std::uint64_t) + sizeof(char) + 2 * sizeof(std::size_t);
  return per_unit * unit_count();
}

void Engine::set_units(RunHeader header, std::vector<std::uint64_t> costs) {
  header_ = std::move(header);
  costs_ = std::move(costs);
  detail::setup_phase("sorting units by cost");
  order_ = sorted_costliest_first(costs_);
}

}  // namespace nqueens
