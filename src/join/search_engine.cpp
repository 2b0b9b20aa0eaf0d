// The join's units counted by search (join/unit_search.hpp), as an engine for the run of a file
// someone else wrote: what `check --recount --by independent` recounts a join or gpu file's
// records with. It makes the same unit list as the join (held to the file's fingerprint) but
// builds none of what the join counts with: no quarter table, no slice cache, no matcher.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "join/join_engine.hpp"
#include "join/join_plan.hpp"
#include "join/unit_search.hpp"
#include "nqueens/counts.hpp"

namespace nqueens {

namespace {

class SearchCounter final : public UnitCounter {
 public:
  explicit SearchCounter(const join::JoinPlan& plan) : plan_(plan) {}

  // The rotation unit (the last) as the join records it: S90 solutions in orbits of 2, the rest
  // of S180 in orbits of 4, no total.
  Tally count(std::size_t id) override {
    Tally tally;
    if (id == plan_.units.size()) {
      const join::SearchRotation fixed = join::search_rotation(plan_.n);
      tally.orbits[orbit_slot(2)] = fixed.quarter_turn / 2;
      tally.orbits[orbit_slot(4)] = (fixed.half_turn - fixed.quarter_turn) / 4;
      tally.nodes = fixed.nodes;
      return tally;
    }
    const join::SearchCount counted = join::search_unit(plan_.n, plan_.units[id]);
    tally.total = counted.total;
    tally.nodes = counted.nodes;
    return tally;
  }

 private:
  const join::JoinPlan& plan_;
};

class SearchEngine final : public Engine {
 public:
  SearchEngine(join::JoinPlan plan, RunHeader header) : plan_(std::move(plan)) {
    // Only a unit's id matters to a recount: every cost the same.
    std::vector<std::uint64_t> costs(header.unit_count, 1);
    set_units(std::move(header), std::move(costs));
  }

  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<SearchCounter>(plan_); }

  std::string describe() const override {
    return "the join's " + std::to_string(plan_.units.size()) +
           " row-set units and its rotation unit, each counted by a backtracking search on the whole board";
  }

  std::uint64_t planned_memory_bytes(int /*threads*/) const override {
    return unit_bookkeeping_bytes() + plan_.units.size() * sizeof(join::JoinUnit);
  }

 private:
  join::JoinPlan plan_;
};

}  // namespace

std::unique_ptr<Engine> join::make_search_engine(const RunHeader& header) {
  if (const std::string why = unsupported_reason(header.n); !why.empty())
    throw std::invalid_argument("no join run of N=" + std::to_string(header.n) + ": " + why);
  JoinPlan plan = split(header.n);
  if (header.unit_count != plan.units.size() + 1 || header.fingerprint != run_fingerprint(plan))
    throw std::invalid_argument("the file's units are not those of a join run of N=" + std::to_string(header.n) +
                                " (unit count or fingerprint)");
  return std::make_unique<SearchEngine>(std::move(plan), header);
}

}  // namespace nqueens
