#include "shell/options/number_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "text/echo.hpp"

namespace nqueens::shell {

namespace {

// Runs before the option's other checks (CLI11 puts transforms first), so that CLI::Range and
// the conversion see the number in a form base 0 reads as decimal: leading zeros dropped.
std::string decimal_integer(std::string& text) {
  const std::size_t sign = text.starts_with('-') ? 1 : 0;
  if (text.size() == sign || text.find_first_not_of("0123456789", sign) != std::string::npos)
    return detail::echo_bare(text) + " is not a whole number in decimal digits";
  const std::size_t first_kept = std::min(text.find_first_not_of('0', sign), text.size() - 1);
  text.erase(sign, first_kept - sign);
  return {};
}

// std::from_chars in its default format reads decimal only (no hex), but does accept "nan" and
// "inf", hence the finiteness check.
std::string finite_decimal(std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || !std::isfinite(value))
    return detail::echo_bare(text) + " is not a finite decimal number";
  return {};
}

bool named(const CLI::Option& option, const char* type) { return option.get_type_name().starts_with(type); }

}  // namespace

void require_decimal_numbers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (named(*option, "INT") || named(*option, "UINT"))
      option->transform(CLI::Validator(decimal_integer, ""));
    else if (named(*option, "FLOAT"))
      option->transform(CLI::Validator(finite_decimal, ""));
  }
  for (CLI::App* subcommand : app.get_subcommands([](CLI::App*) { return true; })) require_decimal_numbers(*subcommand);
}

}  // namespace nqueens::shell
