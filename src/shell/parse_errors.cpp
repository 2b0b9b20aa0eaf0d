#include "shell/parse_errors.hpp"

#include <regex>

namespace nqueens::shell {

namespace {

// "INT:INT in [1 - 4096]" -> "INT": the value's name without the checks CLI11 appends to it.
std::string value_name(const std::string& type) { return type.substr(0, type.find(':')); }

}  // namespace

std::string in_our_words(const CLI::ParseError& error) {
  std::string message = error.what();
  std::smatch match;
  static const std::regex repeated("^(\\S+): At Most 1 required but received (\\d+)$");
  if (std::regex_match(message, match, repeated))
    return match.str(1) + " is given " + match.str(2) + " times: give it once";
  static const std::regex no_value("^(\\S+): 1 required (\\S+)( .*)? missing$");
  if (std::regex_match(message, match, no_value))
    return match.str(1) + " needs a value (" + value_name(match.str(2)) + ")";
  static const std::regex no_argument("^(\\S+) is required$");
  if (std::regex_match(message, match, no_argument))
    return match.str(1) == "files" ? "no files given: name at least one" : match.str(1) + " is missing: give it";
  return message;
}

}  // namespace nqueens::shell
