// The join's cost model (join/unit_cost.hpp): its halves against the halves the engine really
// enumerates, its matcher price against the choices the matcher has, and the one price every
// part of the program reads: the rough costs a count announces are the model's sums over the
// run's units, as docs/data/join-run-costs.csv keeps them.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>

#include "engine/catalogue.hpp"
#include "join/join_engine.hpp"
#include "join/join_kernel.hpp"
#include "join/join_plan.hpp"
#include "join/slice_cache.hpp"
#include "join/unit_cost.hpp"

namespace {

using namespace nqueens::join;

// n -> thread_seconds, from the CSV the fit script writes.
std::map<int, double> run_costs_csv() {
  std::ifstream in(std::string(NQUEENS_SOURCE_DIR) + "/docs/data/join-run-costs.csv");
  std::map<int, double> costs;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string n, units, seconds;
    std::getline(fields, n, ',');
    std::getline(fields, units, ',');
    std::getline(fields, seconds, ',');
    costs[std::stoi(n)] = std::stod(seconds);
  }
  return costs;
}

TEST(UnitCost, TheRoughCostsAreTheCsvOfTheModel) {
  const std::map<int, double> csv = run_costs_csv();
  ASSERT_GE(csv.size(), 13u) << "docs/data/join-run-costs.csv: N = 16 to 28";
  const nqueens::EngineDescription& join = nqueens::join_engine_description();
  ASSERT_EQ(join.rough_costs.size(), csv.size());
  for (const nqueens::RoughCost& point : join.rough_costs) {
    ASSERT_TRUE(csv.contains(point.n)) << "N=" << point.n;
    EXPECT_DOUBLE_EQ(point.thread_seconds, csv.at(point.n)) << "N=" << point.n;
  }
}

// The CSV holds the model's sum over every unit (4 significant digits), checked where the sum is
// quick: a change to the model or its constants that is not carried to the data fails here.
TEST(UnitCost, TheCsvIsTheModelSummedOverEveryUnit) {
  const std::map<int, double> csv = run_costs_csv();
  for (const int n : {16, 17, 18, 19, 20}) {
    const std::vector<std::uint64_t> costs = estimated_costs(split(n));
    const double seconds = 1e-9 * static_cast<double>(std::accumulate(costs.begin(), costs.end(), std::uint64_t{0}));
    EXPECT_NEAR(seconds, csv.at(n), 1e-3 * csv.at(n)) << "N=" << n;
  }
}

// The estimated halves stay near what the engine enumerates: the model's times rest on them.
TEST(UnitCost, EstimatedHalvesLieNearTheEnumeratedOnes) {
  for (const int n : {10, 11, 12, 13, 14, 15, 16}) {
    const JoinPlan plan = split(n);
    const UnitCostModel model(n);
    SliceCache slices(n, UINT64_MAX);
    JoinCounter counter(slices);
    double estimated = 0, enumerated = 0;
    for (const JoinUnit& unit : plan.units) {
      estimated += model.work(unit).halves;
      enumerated += static_cast<double>(counter.count(unit).halves);
    }
    EXPECT_GT(estimated, 0.7 * enumerated) << "N=" << n;
    EXPECT_LT(estimated, 1.6 * enumerated) << "N=" << n;
  }
}

TEST(UnitCost, TheMatcherPriceTakesTheCheapestWay) {
  EXPECT_EQ(matcher_price_ns(0, 1000), 0);
  // Two small sides: one by one, each pair at its price.
  EXPECT_DOUBLE_EQ(matcher_price_ns(4, 5), 20 * 0.35);
  // Symmetric in its sides, and growing with either.
  EXPECT_DOUBLE_EQ(matcher_price_ns(3000, 70000), matcher_price_ns(70000, 3000));
  EXPECT_LT(matcher_price_ns(1e5, 1e5), matcher_price_ns(2e5, 1e5));
  // Large sides split into slots: well under the pairs' one-by-one price and a plain load's.
  const double stored = 1e6, queries = 1e6;
  EXPECT_LT(matcher_price_ns(stored, queries), 0.1 * stored * queries * 0.35);
  EXPECT_LT(matcher_price_ns(stored, queries), (stored / 512) * queries * 3);
}

TEST(UnitCost, CostsArePositiveNanosecondsGrowingWithTheBoard) {
  double previous = 0;
  for (const int n : {12, 14, 16, 18}) {
    const std::vector<std::uint64_t> costs = estimated_costs(split(n));
    for (const std::uint64_t cost : costs) ASSERT_GT(cost, 0u) << "N=" << n;
    const double total = static_cast<double>(std::accumulate(costs.begin(), costs.end(), std::uint64_t{0}));
    EXPECT_GT(total, previous) << "N=" << n;
    previous = total;
  }
}

}  // namespace
