// Larger boards against the OEIS: minutes on a small machine, so CMake labels these slow and
// the default test preset leaves them out.
#include <gtest/gtest.h>

#include <string>

#include "nqueens/nqueens.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::Symmetry;
using nqueens::to_string;

class FullModeAgainstOeis : public ::testing::TestWithParam<int> {};

TEST_P(FullModeAgainstOeis, TotalAndUnique) {
  const int n = GetParam();
  const nqueens::CountResult r = nqueens::count(n, test_support::options(Symmetry::full));
  EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(n)));
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(to_string(*r.unique), std::to_string(*nqueens::oeis_unique(n)));
}

INSTANTIATE_TEST_SUITE_P(Large, FullModeAgainstOeis, ::testing::Values(16, 17, 18));

// The join engine at sizes where the join, not the half enumeration, carries the time.
class JoinAgainstOeis : public ::testing::TestWithParam<int> {};

TEST_P(JoinAgainstOeis, TotalUniqueAndEngine) {
  const int n = GetParam();
  nqueens::CountOptions options;
  options.engine = "join";
  const nqueens::CountResult r = nqueens::count(n, options);
  EXPECT_EQ(r.engine, "join");
  EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(n)));
  ASSERT_TRUE(r.unique.has_value());
  EXPECT_EQ(to_string(*r.unique), std::to_string(*nqueens::oeis_unique(n)));
}

INSTANTIATE_TEST_SUITE_P(Large, JoinAgainstOeis, ::testing::Values(18));

// Mirror mode shares no unit with full mode, so it checks the kernel's plain path at size.
TEST(MirrorModeAgainstOeis, N16) {
  const nqueens::CountResult r = nqueens::count(16, test_support::options(Symmetry::mirror));
  EXPECT_EQ(to_string(r.totals.total), std::to_string(*nqueens::oeis_total(16)));
  EXPECT_FALSE(r.unique.has_value());
}

}  // namespace
