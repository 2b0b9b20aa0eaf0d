// The half-board join engine behind the seam (docs/algorithm.md, "The join engine"): the
// units of join/join_plan.hpp, counted by join/join_kernel.hpp, plus one last unit that counts
// the rotation-symmetric solutions, from which the unique count follows by Burnside's lemma.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "engine_seam.hpp"
#include "join/join_kernel.hpp"
#include "join/join_plan.hpp"
#include "nqueens/version.hpp"
#include "rotation_fixed.hpp"

namespace nqueens {

namespace {

// The rotation-symmetric solutions as the orbit slots of a Tally: S90 solutions lie in orbits
// of 2, the rest of S180 in orbits of 4 (no solution of n > 1 is fixed by a reflection), so
// Totals::unique() = o2 + o4 + (total - 2 o2 - 4 o4) / 8 is Burnside's (total + S180 + 2 S90) / 8.
Tally rotation_tally(int n) {
  const RotationFixed fixed = count_rotation_fixed(n);
  Tally tally;
  tally.orbits[orbit_slot(2)] = fixed.quarter_turn / 2;
  tally.orbits[orbit_slot(4)] = (fixed.half_turn - fixed.quarter_turn) / 4;
  tally.nodes = fixed.nodes;
  return tally;
}

class JoinUnitCounter final : public UnitCounter {
 public:
  JoinUnitCounter(const join::JoinPlan& plan, const join::JoinTables& tables) : plan_(plan), counter_(tables) {}

  Tally count(std::size_t id) override {
    if (id == plan_.units.size()) return rotation_tally(plan_.n);
    const join::JoinUnit& unit = plan_.units[id];
    const join::JoinCount counted = counter_.count(unit);
    Tally tally;
    tally.total = counted.pairs * unit.weight;
    tally.nodes = counted.halves;
    return tally;
  }

 private:
  const join::JoinPlan& plan_;
  join::JoinCounter counter_;
};

// The join's fingerprint covers its units; the rotation unit after them is part of the list too.
std::uint64_t run_fingerprint(const join::JoinPlan& plan) { return join::fingerprint(plan) ^ 0x726f746174696f6eULL; }

class JoinEngine final : public Engine {
 public:
  explicit JoinEngine(int n) : plan_(join::split(n)), tables_(n) {
    std::vector<std::uint64_t> costs = join::estimated_costs(plan_);
    // The rotation unit goes first: one search, longer than a typical unit at large n.
    costs.push_back(costs.empty() ? 1 : *std::max_element(costs.begin(), costs.end()) + 1);
    RunHeader header{kVersion, EngineKind::join, n, Symmetry::full, 0, costs.size(), run_fingerprint(plan_)};
    set_units(std::move(header), std::move(costs));
  }

  std::unique_ptr<UnitCounter> make_counter() const override {
    return std::make_unique<JoinUnitCounter>(plan_, tables_);
  }

  std::string describe() const override {
    char memory[32];
    std::snprintf(memory, sizeof memory, "%.1f MiB", static_cast<double>(tables_.memory_bytes()) / (1 << 20));
    return "join engine: " + std::to_string(plan_.units.size()) + " row-set units and 1 rotation unit, quarter table " +
           memory + ", matcher " + join::to_string(join::best_match_path());
  }

 private:
  join::JoinPlan plan_;
  join::JoinTables tables_;
};

}  // namespace

std::string join_unsupported_reason(int n) { return join::unsupported_reason(n); }

std::unique_ptr<Engine> make_join_engine(int n) {
  if (const std::string why = join_unsupported_reason(n); !why.empty())
    throw std::invalid_argument("the join engine cannot count N=" + std::to_string(n) + ": " + why);
  return std::make_unique<JoinEngine>(n);
}

}  // namespace nqueens
