#include "shell/options/parse_errors.hpp"

#include <optional>
#include <regex>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "shell/options/suggest.hpp"

namespace nqueens::shell {

namespace {

// "INT:INT in [1 - 4096]" -> "INT": the value's name without the checks CLI11 appends to it.
std::string value_name(const std::string& type) { return type.substr(0, type.find(':')); }

// "86400.000000" -> "86400", "0.100000" -> "0.1": a bound as a person writes it.
std::string plain_number(std::string number) {
  if (number.find('.') == std::string::npos) return number;
  number.erase(number.find_last_not_of('0') + 1);
  if (number.back() == '.') number.pop_back();
  return number;
}

// A range check's failure, as the other checks word it: "board size 0 is out of range 1..32",
// "--threads: 0 is out of range 1..4096".
std::string out_of_range(const std::string& option, const std::string& value, const std::string& low,
                         const std::string& high) {
  const std::string range = " is out of range " + plain_number(low) + ".." + plain_number(high);
  if (option == "--n" || option == "N") return "board size " + value + range;
  return option + ": " + value + range;
}

// "--threads: Value 0 not in range 1 to 4096", as out_of_range() words it.
std::optional<std::string> range_failure(const std::string& message) {
  const std::size_t value = message.find(": Value "), range = message.rfind(" not in range "),
                    to = message.rfind(" to ");
  if (value == std::string::npos || range == std::string::npos || to == std::string::npos || range < value ||
      to < range)
    return std::nullopt;
  const std::size_t value_at = value + 8, low_at = range + 14;
  return out_of_range(message.substr(0, value), message.substr(value_at, range - value_at),
                      message.substr(low_at, to - low_at), message.substr(to + 4));
}

// "--engine: gpus not in {auto,gpu}" -> "--engine: gpus is not one of auto, gpu (did you mean gpu?)".
std::optional<std::string> choice_failure(const std::string& message) {
  const std::size_t colon = message.find(": "), set = message.rfind(" not in {");
  if (colon == std::string::npos || set == std::string::npos || set < colon || !message.ends_with('}'))
    return std::nullopt;
  const std::string listed = message.substr(set + 9, message.size() - set - 10);
  std::vector<std::string> choices;
  for (std::size_t begin = 0, comma = 0; comma != std::string::npos; begin = comma + 1) {
    comma = listed.find(',', begin);
    choices.push_back(listed.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
  }
  std::string text = message.substr(0, set) + " is not one of " + fmt::format("{}", fmt::join(choices, ", "));
  if (const std::string near = closest(message.substr(colon + 2, set - colon - 2), choices); !near.empty())
    text += " (did you mean " + near + "?)";
  return text;
}

}  // namespace

std::string in_our_words(const CLI::ParseError& error) {
  std::string message = error.what();
  std::smatch match;
  static const std::regex repeated("^(\\S+): At Most 1 required but received (\\d+)$");
  if (std::regex_match(message, match, repeated))
    // CLI11 names an option by its longest name: -n's is --n, which nobody types.
    return (match.str(1) == "--n" ? std::string("-n") : match.str(1)) + " is given " + match.str(2) +
           " times: give it once";
  static const std::regex no_value("^(\\S+): 1 required (\\S+)( .*)? missing$");
  if (std::regex_match(message, match, no_value))
    return match.str(1) + " needs a value (" + value_name(match.str(2)) + ")";
  // Not regular expressions from here on: these messages hold the user's text, however long,
  // and std::regex recurses once per character it matches.
  if (const auto range = range_failure(message)) return *range;
  if (const auto choice = choice_failure(message)) return *choice;
  for (const std::string_view lead :
       {"The following argument was not expected: ", "The following arguments were not expected: "})
    if (message.starts_with(lead))
      return message.substr(lead.size()) + ": not an option or argument of this command (its --help lists them)";
  static const std::regex no_argument("^(\\S+) is required$");
  if (std::regex_match(message, match, no_argument))
    return match.str(1) == "files" ? "no files given: name at least one" : match.str(1) + " is missing: give it";
  return message;
}

}  // namespace nqueens::shell
