// plan's text: how an estimate and its bar are said.
#include <gtest/gtest.h>

#include <string>

#include "shell/output/plan_report.hpp"

namespace {

TEST(PlanReport, ABarNarrowerThanItsEstimateIsGivenAsAFigure) {
  EXPECT_EQ(nqueens::shell::bar_text(6.33e-3, 0.5e-3), "6.33 ms +- 0.50 ms");
}

// A bar reaching below zero bounds nothing: the words say so, and its figure is not given.
TEST(PlanReport, ABarAsWideAsItsEstimateIsSaidToBoundNothing) {
  for (const double error : {4.8, 18.83}) {
    const std::string text = nqueens::shell::bar_text(4.8, error);
    EXPECT_EQ(text, "about 4.80 s, unbounded") << error;
    EXPECT_EQ(text.find("+-"), std::string::npos) << text;
  }
}

}  // namespace
