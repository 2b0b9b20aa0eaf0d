#include "plan/strata.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nqueens::plan {

namespace {

// splitmix64's finaliser: a fixed, portable permutation of 64-bit words (std::shuffle's result
// differs between standard libraries).
std::uint64_t mix(std::uint64_t value) {
  value += 0x9e3779b97f4a7c15ULL;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

void put_in_draw_order(std::vector<std::size_t>& ids, std::uint64_t seed) {
  std::sort(ids.begin(), ids.end(), [seed](std::size_t a, std::size_t b) {
    const std::uint64_t ka = mix(seed ^ a), kb = mix(seed ^ b);
    return ka != kb ? ka < kb : a < b;
  });
}

}  // namespace

std::vector<Stratum> make_strata(const Engine& engine, std::size_t bands) {
  if (bands == 0) throw std::invalid_argument("a plan needs at least one stratum");
  double total = 0;
  for (std::size_t id = 0; id < engine.unit_count(); ++id) total += unit_weight(engine, id);
  const double share = total / static_cast<double>(bands);
  std::vector<Stratum> strata;
  Stratum current;
  double before = 0;  // weight of the units in finished strata
  for (const std::size_t id : engine.costliest_first()) {
    current.ids.push_back(id);
    current.cost += unit_weight(engine, id);
    // Closed once the running weight reaches the next multiple of a share: a unit worth several
    // shares closes its band alone, and the next band starts at the following multiple.
    const double boundary = share * (std::floor(before / share) + 1);
    if (before + current.cost >= boundary && strata.size() + 1 < bands) {
      before += current.cost;
      strata.push_back(std::move(current));
      current = {};
    }
  }
  if (!current.ids.empty()) strata.push_back(std::move(current));
  for (Stratum& stratum : strata) put_in_draw_order(stratum.ids, engine.header().fingerprint);
  return strata;
}

std::size_t drawable_parts(const Engine& engine, std::size_t id) {
  std::size_t drawable = 0;
  for (std::size_t part = 0; part < engine.part_count(id); ++part) drawable += engine.part_is_shared(id, part) ? 0 : 1;
  return drawable;
}

std::vector<std::size_t> drawn_parts(const Engine& engine, std::size_t id, std::size_t count) {
  std::vector<std::size_t> shared, parts;
  for (std::size_t part = 0; part < engine.part_count(id); ++part)
    (engine.part_is_shared(id, part) ? shared : parts).push_back(part);
  put_in_draw_order(parts, mix(engine.header().fingerprint ^ id));
  parts.resize(std::min(count, parts.size()));
  shared.insert(shared.end(), parts.begin(), parts.end());
  return shared;
}

bool priced_alike(std::span<const Stratum> strata) {
  if (strata.empty()) return true;
  const double first = strata.front().cost / static_cast<double>(strata.front().ids.size());
  for (const Stratum& stratum : strata)
    if (std::abs(stratum.cost - first * static_cast<double>(stratum.ids.size())) > 1e-9 * stratum.cost) return false;
  return true;
}

}  // namespace nqueens::plan
