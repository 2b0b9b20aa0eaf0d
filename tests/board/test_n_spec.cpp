#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nqueens/n_spec.hpp"

namespace {

using nqueens::parse_n_spec;
using nqueens::SpecError;

TEST(NSpec, SingleSize) { EXPECT_EQ(parse_n_spec("8"), std::vector<int>{8}); }

TEST(NSpec, BoardLimitsAreAccepted) {
  EXPECT_EQ(parse_n_spec("1"), std::vector<int>{1});
  EXPECT_EQ(parse_n_spec("32"), std::vector<int>{32});
  EXPECT_EQ(parse_n_spec("07"), std::vector<int>{7});  // leading zeros are still digits
}

TEST(NSpec, RangeIsInclusive) {
  std::vector<int> expected;
  for (int n = 1; n <= 16; ++n) expected.push_back(n);
  EXPECT_EQ(parse_n_spec("1-16"), expected);
  EXPECT_EQ(parse_n_spec("5-5"), std::vector<int>{5});
}

TEST(NSpec, ListKeepsTheOrderWritten) {
  EXPECT_EQ(parse_n_spec("8,10,12-14"), (std::vector<int>{8, 10, 12, 13, 14}));
  EXPECT_EQ(parse_n_spec("12,3-4,1"), (std::vector<int>{12, 3, 4, 1}));
}

class BadNSpec : public ::testing::TestWithParam<const char*> {};

// Each bad spec must throw SpecError with a one-line reason (the CLI prints it as is).
TEST_P(BadNSpec, ThrowsSpecErrorWithOneLineReason) {
  const std::string spec = GetParam();
  try {
    const std::vector<int> sizes = parse_n_spec(spec);
    ADD_FAILURE() << "'" << spec << "' was accepted, giving " << sizes.size() << " sizes";
  } catch (const SpecError& e) {
    const std::string reason = e.what();
    EXPECT_FALSE(reason.empty());
    EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKind, BadNSpec,
                         ::testing::Values("", ",", "8,", ",8", "8,,9",         // empty items
                                           "-5", "5-", "8-10-12", "14-12",      // malformed or reversed ranges
                                           "0", "33", "99999999999", "1-33",    // out of range, overflow-sized
                                           "a", "8a", " 8", "8 ", "+8", "1.5",  // not plain digits
                                           "8,8", "8-10,9", "1-3,2-4"));        // listed twice

TEST(NSpec, SpecErrorIsAnInvalidArgument) { EXPECT_THROW(parse_n_spec("x"), std::invalid_argument); }

}  // namespace
