// The one line a command's failure ends with (shell::failure_text): a thread the system would not
// start names the limit instead of errno's bare words; anything else says what it says.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <system_error>

#include "shell/options/count_options.hpp"

namespace {

TEST(FailureText, AThreadTheSystemWouldNotStartNamesTheLimit) {
  const std::system_error refused(std::make_error_code(std::errc::resource_unavailable_try_again));
  const std::string text = nqueens::shell::failure_text(refused);
  EXPECT_EQ(text.find("could not start a thread ("), 0u) << text;
  EXPECT_NE(text.find("ulimit -u"), std::string::npos) << text;
  EXPECT_NE(text.find("fewer --threads"), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;
}

TEST(FailureText, OtherFailuresSayWhatTheySay) {
  EXPECT_EQ(nqueens::shell::failure_text(std::runtime_error("disk full")), "disk full");
  const std::system_error denied(std::make_error_code(std::errc::permission_denied), "opening j.journal");
  EXPECT_EQ(nqueens::shell::failure_text(denied), denied.what());
}

}  // namespace
