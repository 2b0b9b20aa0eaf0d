// The join's independent recount path (join/unit_search.hpp, join::make_search_engine) held to
// the join engine unit by unit: every unit of N = 4 to 13 (even, centre and off-centre units,
// and the rotation unit) gets the join's total and orbit counts from a search that shares none
// of the join's counting code, and the searches sum to the known totals.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>

#include "join/join_engine.hpp"
#include "join/rotation_fixed.hpp"
#include "join/unit_search.hpp"
#include "nqueens/oeis.hpp"
#include "run/run.hpp"

namespace {

TEST(UnitSearch, EveryUnitOfTheJoinGetsTheJoinsTotalAndOrbitsFromTheSearchEngine) {
  for (int n = 4; n <= 13; ++n) {
    const std::unique_ptr<nqueens::Engine> join = nqueens::make_join_engine(n);
    nqueens::Run counted(nqueens::make_join_engine(n), nqueens::Selection::whole_run());
    counted.execute(2);
    nqueens::Run searched(nqueens::join::make_search_engine(join->header()), nqueens::Selection::whole_run());
    searched.execute(2);
    const std::vector<nqueens::UnitCount> expected = counted.units(), found = searched.units();
    ASSERT_EQ(found.size(), expected.size()) << "n " << n;
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < found.size(); ++i) {
      ASSERT_EQ(found[i].id, expected[i].id);
      EXPECT_EQ(found[i].tally.total, expected[i].tally.total) << "n " << n << " unit " << found[i].id;
      EXPECT_EQ(found[i].tally.orbits, expected[i].tally.orbits) << "n " << n << " unit " << found[i].id;
      total += found[i].tally.total;
    }
    EXPECT_EQ(total, nqueens::oeis_total(n).value()) << "n " << n;
  }
}

TEST(UnitSearch, TheRotationSearchAgreesWithTheJoinsUpTo16) {
  for (int n = 1; n <= 16; ++n) {
    const nqueens::RotationFixed expected = nqueens::count_rotation_fixed(n);
    const nqueens::join::SearchRotation found = nqueens::join::search_rotation(n);
    EXPECT_EQ(found.half_turn, expected.half_turn) << "n " << n;
    EXPECT_EQ(found.quarter_turn, expected.quarter_turn) << "n " << n;
  }
  EXPECT_THROW(nqueens::join::search_rotation(0), std::invalid_argument);
  EXPECT_THROW(nqueens::join::search_rotation(33), std::invalid_argument);
}

// A header that is not a join run's units is refused, not recounted as something else.
TEST(UnitSearch, TheSearchEngineRefusesAHeaderOfOtherUnits) {
  nqueens::RunHeader header = nqueens::make_join_engine(12)->header();
  nqueens::RunHeader other = header;
  other.fingerprint ^= 1;
  EXPECT_THROW(nqueens::join::make_search_engine(other), std::invalid_argument);
  other = header;
  other.unit_count += 1;
  EXPECT_THROW(nqueens::join::make_search_engine(other), std::invalid_argument);
  EXPECT_EQ(nqueens::join::make_search_engine(header)->header(), header);
}

}  // namespace
