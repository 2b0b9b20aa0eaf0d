// Recounting recorded units (run/recount.hpp): the seeded draw is a subset of the ids, fixed by
// its seed, and a recount finds exactly the records whose counts are not what the engine counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "run/recount.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "support/engines.hpp"

namespace {

std::vector<std::size_t> ids_up_to(std::size_t count) {
  std::vector<std::size_t> ids(count);
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  return ids;
}

}  // namespace

TEST(Recount, TheDrawIsKDistinctIdsOfTheListAscendingAndTheSameForTheSameSeed) {
  const std::vector<std::size_t> ids = {3, 8, 15, 16, 23, 42, 99, 100, 101, 250};
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<std::size_t> drawn = nqueens::draw_ids(ids, 4, seed);
    ASSERT_EQ(drawn.size(), 4u);
    EXPECT_TRUE(std::is_sorted(drawn.begin(), drawn.end()));
    EXPECT_EQ(std::set<std::size_t>(drawn.begin(), drawn.end()).size(), 4u) << "a repeat";
    for (const std::size_t id : drawn) EXPECT_TRUE(std::binary_search(ids.begin(), ids.end(), id)) << id;
    EXPECT_EQ(nqueens::draw_ids(ids, 4, seed), drawn) << "seed " << seed;
  }
}

TEST(Recount, SeedsDrawDifferentUnitsAndEveryUnitCanBeDrawn) {
  const std::vector<std::size_t> ids = ids_up_to(50);
  std::set<std::vector<std::size_t>> draws;
  std::set<std::size_t> seen;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::vector<std::size_t> drawn = nqueens::draw_ids(ids, 3, seed);
    draws.insert(drawn);
    seen.insert(drawn.begin(), drawn.end());
  }
  EXPECT_GT(draws.size(), 150u) << "the seed hardly changes the draw";
  EXPECT_EQ(seen.size(), ids.size()) << "some unit is never drawn";
}

TEST(Recount, AKAtLeastTheNumberOfIdsDrawsThemAll) {
  const std::vector<std::size_t> ids = {9, 2, 5};
  EXPECT_EQ(nqueens::draw_ids(ids, 3, 1), (std::vector<std::size_t>{2, 5, 9}));
  EXPECT_EQ(nqueens::draw_ids(ids, 1000, 1), (std::vector<std::size_t>{2, 5, 9}));
  EXPECT_TRUE(nqueens::draw_ids({}, 5, 1).empty());
}

// For every engine: the run's own records recount equal, and a record with one count changed
// (nodes of one, an orbit of another) is the one that differs, with the engine's count beside it.
TEST(Recount, EveryEngineRecountsItsRecordsEqualAndFindsTheChangedOnes) {
  for (const nqueens::EngineDescription* description : nqueens::registered_engines()) {
    if (!test_support::counts_here(*description)) continue;
    const nqueens::CountOptions options = test_support::default_options(*description);
    const int n = 10;
    if (!description->refusal(n, options).empty()) continue;
    nqueens::Run run(nqueens::make_engine(n, options), nqueens::Selection::whole_run());
    run.execute(2);
    std::vector<nqueens::UnitCount> records = run.units();
    ASSERT_GE(records.size(), 3u) << description->name;
    std::reverse(records.begin(), records.end());  // records come in any order
    for (const nqueens::Recounted& unit : nqueens::recount(nqueens::make_engine(n, options), records, 2))
      EXPECT_TRUE(unit.equal()) << description->name << " unit " << unit.recorded.id;

    const nqueens::UnitCount first = records[0], second = records[2];
    records[0].tally.total += 2;
    records[2].tally.nodes += 1;
    std::vector<std::size_t> differ;
    for (const nqueens::Recounted& unit : nqueens::recount(nqueens::make_engine(n, options), records, 2)) {
      if (unit.equal()) continue;
      differ.push_back(unit.recorded.id);
      const nqueens::UnitCount& genuine = unit.recorded.id == first.id ? first : second;
      EXPECT_TRUE(unit.recounted == genuine.tally) << description->name << " unit " << unit.recorded.id;
    }
    std::vector<std::size_t> expected = {first.id, second.id};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(differ, expected) << description->name;
  }
}
