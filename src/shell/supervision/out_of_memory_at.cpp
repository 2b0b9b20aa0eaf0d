#include "shell/supervision/out_of_memory_at.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace nqueens::shell {

std::size_t out_of_memory_test_unit() {
  const char* text = std::getenv("NQUEENS_OUT_OF_MEMORY_AT");
  if (text == nullptr || *text == '\0') return 0;
  const char* end = text + std::strlen(text);
  std::size_t unit = 0;
  const auto [stop, error] = std::from_chars(text, end, unit);
  if (error != std::errc{} || stop != end || unit == 0)
    throw std::invalid_argument(std::string("NQUEENS_OUT_OF_MEMORY_AT is '") + text +
                                "': the unit (from 1) after which the count runs out of memory (a test setting)");
  return unit;
}

}  // namespace nqueens::shell
