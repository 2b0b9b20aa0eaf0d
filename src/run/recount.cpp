#include "run/recount.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "nqueens/files/unit_ranges.hpp"
#include "run/run.hpp"

namespace nqueens {

namespace {

// splitmix64: a tiny generator whose output is fixed by its definition, so a seed names the same
// draw everywhere (std::uniform_int_distribution and std::sample differ between libraries).
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t value = state_ += 0x9e3779b97f4a7c15ULL;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
  }

  // Uniform in [0, bound), bound > 0: values past the last whole multiple of bound are drawn again.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t limit = max - max % bound;
    std::uint64_t value = next();
    while (value >= limit) value = next();
    return value % bound;
  }

 private:
  std::uint64_t state_;
};

}  // namespace

std::vector<std::size_t> draw_ids(std::span<const std::size_t> ids, std::size_t k, std::uint64_t seed) {
  std::vector<std::size_t> pool(ids.begin(), ids.end());
  std::sort(pool.begin(), pool.end());
  if (k >= pool.size()) return pool;
  // The first k steps of a Fisher-Yates shuffle of the ids in ascending order.
  SplitMix random(seed);
  for (std::size_t i = 0; i < k; ++i) std::swap(pool[i], pool[i + random.below(pool.size() - i)]);
  pool.resize(k);
  std::sort(pool.begin(), pool.end());
  return pool;
}

std::vector<Recounted> recount(std::unique_ptr<Engine> engine, std::span<const UnitCount> records, int threads,
                               Compared compared) {
  RunArena arena(threads);
  return recount(std::move(engine), records, arena, compared);
}

std::vector<Recounted> recount(std::unique_ptr<Engine> engine, std::span<const UnitCount> records, RunArena& arena,
                               Compared compared) {
  std::vector<Recounted> results;
  results.reserve(records.size());
  for (const UnitCount& record : records) results.push_back({record, {}, compared});
  std::sort(results.begin(), results.end(),
            [](const Recounted& a, const Recounted& b) { return a.recorded.id < b.recorded.id; });
  if (results.empty()) return results;
  std::vector<std::size_t> ids;
  ids.reserve(results.size());
  for (const Recounted& result : results) ids.push_back(result.recorded.id);
  Run run(std::move(engine), Selection::units(format_id_ranges(ids)));
  run.execute(arena);
  const std::vector<UnitCount> counted = run.units();
  for (std::size_t i = 0; i < results.size(); ++i) results[i].recounted = counted[i].tally;
  return results;
}

}  // namespace nqueens
