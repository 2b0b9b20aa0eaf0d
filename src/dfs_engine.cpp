// The depth-first engine behind the seam: the splitter's board prefixes, completed by the
// bitmask search (kernel.hpp). Its costs are estimated_cost(), computed once here.
#include <string>
#include <utility>

#include "engine_seam.hpp"
#include "kernel.hpp"
#include "split.hpp"

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

 private:
  WorkPlan plan_;
};

}  // namespace

std::unique_ptr<Engine> make_dfs_engine(WorkPlan plan) { return std::make_unique<DfsEngine>(std::move(plan)); }

}  // namespace nqueens
