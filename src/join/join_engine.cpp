// The half-board join engine (docs/algorithm.md, "The join engine"): the
// units of join/join_plan.hpp, counted by join/join_kernel.hpp, plus one last unit that counts
// the rotation-symmetric solutions, from which the unique count follows by Burnside's lemma.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "join/join_engine.hpp"
#include "join/join_kernel.hpp"
#include "join/join_plan.hpp"
#include "join/rotation_fixed.hpp"
#include "nqueens/board.hpp"
#include "nqueens/version.hpp"
#include "run/registry.hpp"

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
    RunHeader header{kVersion, "join", n, Symmetry::full, 0, costs.size(), run_fingerprint(plan_)};
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

  // The shared tables, the unit list and ledger, and each thread's buffers grown to the largest
  // unit: its two key buffers (grown by doubling, so up to twice the keys), and the matcher's
  // tables over one side (kMatcherBytesPerKey) with the other side's queries.
  std::uint64_t planned_memory_bytes(int threads) const override {
    double largest = 0;
    for (const join::JoinUnit& unit : plan_.units) {
      const join::SideEstimate sides = join::estimated_sides(plan_, unit);
      const double keys = 2 * (sides.east + sides.west) * sizeof(std::uint64_t);
      largest = std::max(largest, keys + kMatcherBytesPerKey * std::max(sides.east, sides.west));
    }
    const std::vector<std::uint64_t>& per_row_set = join::placements_per_row_set(plan_.n / 2);
    const std::uint64_t quadrant_keys =
        2 * sizeof(std::uint64_t) * *std::max_element(per_row_set.begin(), per_row_set.end());
    const std::uint64_t per_thread = static_cast<std::uint64_t>(largest) + quadrant_keys;
    return tables_.memory_bytes() + plan_.units.size() * sizeof(join::JoinUnit) + unit_bookkeeping_bytes() +
           static_cast<std::uint64_t>(threads) * per_thread;
  }

 private:
  // The matcher's bit-sliced tables take 64 bytes per stored key at 6-bit chunks of 38-bit keys
  // (disjoint_count.hpp), and a query 16 bytes (its compressed key and chunk offsets).
  static constexpr double kMatcherBytesPerKey = 64 + 16;

  join::JoinPlan plan_;
  join::JoinTables tables_;
};

// From docs/performance.md ("The engine choice"): on this kind of machine the join engine is
// ahead of the depth-first search from N = 12 on even boards, but only from N = 17 on odd ones,
// whose many small off-centre units cost more than the depth-first search below that.
constexpr int kFasterFromEven = 12;
constexpr int kFasterFromOdd = 17;

std::string refusal(int n, const CountOptions& options) {
  if (!valid_board_size(n))
    return "N=" + std::to_string(n) + " is outside " + std::to_string(kMinN) + ".." + std::to_string(kMaxN);
  if (options.symmetry != Symmetry::full || options.split_depth != 0)
    return "it always folds every symmetry and splits by row sets, so it takes no symmetry mode or split depth";
  return join::unsupported_reason(n);
}

bool preferred_for(int n, const CountOptions& /*options*/) {
  return n >= (n % 2 == 0 ? kFasterFromEven : kFasterFromOdd);
}

std::unique_ptr<Engine> make(int n, const CountOptions& /*options*/) { return make_join_engine(n); }

// The units of a join run of n, its row-set units and the rotation unit, counted once per n: a
// merge reads a header per shard file.
std::size_t run_unit_count(int n) {
  static std::array<std::atomic<std::size_t>, kMaxN + 1> counted{};
  std::atomic<std::size_t>& slot = counted[static_cast<std::size_t>(n)];
  if (slot.load() == 0) slot.store(join::unit_count(n) + 1);
  return slot.load();
}

// A join run splits by row sets: no split depth, and exactly the units split() makes, plus one
// for the rotation-symmetric solutions. Its unit count is known without the plan (which takes
// gigabytes at n = 23), so a file's header is held to it before anything is sized by it.
std::string problem_with(const RunHeader& header) {
  if (std::string why = join::unsupported_reason(header.n); !why.empty()) return why;
  if (header.symmetry != Symmetry::full)
    return "a join run folds every symmetry, but the file gives symmetry " + std::string(to_string(header.symmetry));
  if (header.split_depth != 0)
    return "a join run has no split depth, but the file gives " + std::to_string(header.split_depth);
  if (const std::size_t units = run_unit_count(header.n); header.unit_count != units)
    return "a join run of N=" + std::to_string(header.n) + " has " + std::to_string(units) + " units, not " +
           std::to_string(header.unit_count);
  return "";
}

std::string run_options(const RunHeader& /*header*/) { return ""; }

std::string cpu_path() { return join::to_string(join::best_match_path()); }

}  // namespace

std::unique_ptr<Engine> make_join_engine(int n) {
  if (const std::string why = join::unsupported_reason(n); !why.empty())
    throw std::invalid_argument("the join engine cannot count N=" + std::to_string(n) + ": " + why);
  return std::make_unique<JoinEngine>(n);
}

const EngineDescription& join_engine_description() {
  static const EngineDescription description{
      .name = "join",
      .summary = "half-board join: east and west half-boards of a row set matched by their crossing diagonals",
      .refusal = refusal,
      .preferred_for = preferred_for,
      .make = make,
      .header_problem = problem_with,
      .run_options = run_options,
      // Its units carry weights of partial structures: a part's share of unique counts means nothing.
      .partial_runs_report_unique = false,
      .yardstick = false,
      .cpu_path_key = "join_matcher",
      .cpu_path = cpu_path,
  };
  return description;
}

}  // namespace nqueens
