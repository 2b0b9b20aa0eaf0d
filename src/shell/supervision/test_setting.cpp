#include "shell/supervision/test_setting.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace nqueens::shell {

std::size_t test_setting(const char* name, const char* meaning) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return 0;
  const char* end = text + std::strlen(text);
  std::size_t value = 0;
  const auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc{} || stop != end || value == 0)
    throw std::invalid_argument(std::string(name) + " is '" + text + "': " + meaning + " (a test setting)");
  return value;
}

}  // namespace nqueens::shell
