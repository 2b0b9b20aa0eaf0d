// The depth-first engine: the splitter's board prefixes (split.hpp), completed by the bitmask
// search (kernel.hpp). Its costs are estimated_cost(), computed once here.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "dfs/breadth.hpp"
#include "dfs/dfs_engine.hpp"
#include "dfs/dfs_settings.hpp"
#include "dfs/kernel.hpp"
#include "dfs/split.hpp"
#include "engine/catalogue.hpp"
#include "engine/memory_budget.hpp"
#include "nqueens/board.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

namespace {

class DfsCounter final : public UnitCounter {
 public:
  explicit DfsCounter(const WorkPlan& plan) : plan_(plan) {}
  Tally count(std::size_t id) override { return count_from(plan_.units[id], plan_.n); }

 private:
  const WorkPlan& plan_;
};

class DfsEngine final : public Engine {
 public:
  explicit DfsEngine(WorkPlan plan) : plan_(std::move(plan)) {
    std::vector<std::uint64_t> costs(plan_.units.size());
    for (std::size_t id = 0; id < costs.size(); ++id) costs[id] = estimated_cost(plan_.units[id], plan_.n);
    set_units(make_header(plan_), std::move(costs));
  }

  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<DfsCounter>(plan_); }

  std::string describe() const override {
    return "dfs engine: " + std::to_string(plan_.units.size()) + " board prefixes of " +
           std::to_string(plan_.split_depth) + " rows, symmetry " + std::string(to_string(plan_.symmetry));
  }

  // The unit list and the ledger; the kernel's stack of masks lives on the thread's own stack
  // and never grows with the run.
  std::uint64_t planned_memory_bytes(int threads) const override {
    return unit_bookkeeping_bytes() + plan_.units.size() * sizeof(WorkUnit) +
           static_cast<std::uint64_t>(threads) * sizeof(DfsCounter);
  }

 private:
  WorkPlan plan_;
};

std::string refusal(int n, const CountOptions& options) {
  if (!valid_board_size(n))
    return "N=" + std::to_string(n) + " is outside " + std::to_string(kMinN) + ".." + std::to_string(kMaxN);
  try {
    read_dfs_settings(options.settings);
  } catch (const std::invalid_argument& bad) {
    return bad.what();
  }
  return "";
}

// The fallback of `auto`: it counts every N with every option.
bool preferred_for(int /*n*/, const CountOptions& /*options*/) { return true; }

std::unique_ptr<Engine> make(const RunRequest& request) {
  const DfsSettings settings = read_dfs_settings(request.options.settings);
  return make_dfs_engine(split(request.n, settings.symmetry, settings.split_depth));
}

// Its run holds its unit list and little else; split() is quick (a few thousand prefixes).
std::string budget_refusal(int n, const CountOptions& options) {
  const DfsSettings settings = read_dfs_settings(options.settings);
  const std::size_t units = split(n, settings.symmetry, settings.split_depth).units.size();
  return unit_list_refusal(n, units, sizeof(WorkUnit), options.memory_bytes);
}

// split() clamps the depth to N on the smallest boards, and a depth-d split has at most N^d
// prefixes. The catalogue has held both settings to their declared values already.
std::string problem_with(const RunHeader& header) {
  const std::string& symmetry = header.settings.at(std::string(kDfsSettings[0].name));
  if (!parse_symmetry(symmetry)) return "a dfs run has no symmetry mode " + symmetry;
  const std::string& depth_text = header.settings.at(std::string(kDfsSettings[1].name));
  const int depth = detail::parse_whole<int>(depth_text).value_or(-1);
  if (depth < std::min(header.n, kMinSplitDepth) || depth > std::min(header.n, kMaxSplitDepth))
    return "split depth " + depth_text + " is impossible for N=" + std::to_string(header.n);
  std::size_t prefixes = 1;
  for (int row = 0; row < depth; ++row) prefixes *= static_cast<std::size_t>(header.n);
  if (header.unit_count > prefixes)
    return std::to_string(header.unit_count) + " units is more than N=" + std::to_string(header.n) + " has at depth " +
           std::to_string(depth);
  return "";
}

// Only a search cut by every symmetry counts whole orbits.
bool counts_orbits(const RunHeader& header) {
  return parse_symmetry(header.settings.at(std::string(kDfsSettings[0].name))) == Symmetry::full;
}

std::string cpu_path() { return detail::breadth_path(); }

}  // namespace

std::unique_ptr<Engine> make_dfs_engine(WorkPlan plan) { return std::make_unique<DfsEngine>(std::move(plan)); }

// `bench -n N -t 1` medians at N = 12 to 18 (docs/data/bench-122f8c8.csv): about 7.2 times
// more each N.
constexpr RoughCost kDfsRoughCosts[] = {{12, 5.95e-4}, {13, 2.62e-3}, {14, 0.0139}, {15, 0.0766},
                                        {16, 0.521},   {17, 3.49},    {18, 25.1}};

const EngineDescription& dfs_engine_description() {
  static const EngineDescription description{
      .name = "dfs",
      .summary = "depth-first search: board prefixes of the first rows completed by a bitmask search",
      .refusal = refusal,
      .preferred_for = preferred_for,
      .make = make,
      .header_problem = problem_with,
      .partial_runs_report_unique = true,
      .yardstick = true,
      .cpu_path_key = "dfs_kernel",
      .cpu_path = cpu_path,
      .budget_refusal = budget_refusal,
      .settings = kDfsSettings,
      .rough_costs = kDfsRoughCosts,
      .counts_orbits = counts_orbits,
  };
  return description;
}

}  // namespace nqueens
