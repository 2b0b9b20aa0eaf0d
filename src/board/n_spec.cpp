#include "nqueens/n_spec.hpp"

#include <algorithm>
#include <string>

#include "nqueens/board.hpp"
#include "text/echo.hpp"

namespace nqueens {

namespace {

// User text in a message: quoted, and cut short (a 100,000-digit N gives a short line).
std::string quoted(std::string_view text) { return detail::echo(text); }

// One size: digits only (no sign, no spaces), within the board limits. Long digit strings are
// caught by length before they can overflow an int.
int parse_size(std::string_view text, std::string_view spec) {
  if (text.empty()) throw SpecError("empty board size in N spec " + quoted(spec));
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw SpecError("board size " + quoted(text) + " in N spec " + quoted(spec) + " is not a whole number");
  int value = 0;
  if (text.size() <= 3)
    for (char c : text) value = value * 10 + (c - '0');
  if (text.size() > 3 || !valid_board_size(value))
    throw SpecError("board size " + detail::echo_bare(text) + " is out of range " + std::to_string(kMinN) + ".." +
                    std::to_string(kMaxN));
  return value;
}

void append_item(std::string_view item, std::string_view spec, std::vector<int>& sizes) {
  const std::size_t dash = item.find('-');
  int low = 0, high = 0;
  if (dash == std::string_view::npos) {
    low = high = parse_size(item, spec);
  } else {
    low = parse_size(item.substr(0, dash), spec);
    high = parse_size(item.substr(dash + 1), spec);
    if (low > high) throw SpecError("range " + quoted(item) + " runs backwards");
  }
  for (int n = low; n <= high; ++n) {
    if (std::find(sizes.begin(), sizes.end(), n) != sizes.end())
      throw SpecError("board size " + std::to_string(n) + " appears twice in N spec " + quoted(spec));
    sizes.push_back(n);
  }
}

}  // namespace

std::vector<int> parse_n_spec(std::string_view spec) {
  if (spec.empty()) throw SpecError("empty N spec: give a size (8), a range (1-16) or a list (8,10-12)");
  std::vector<int> sizes;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = spec.find(',', begin);
    append_item(spec.substr(begin, comma - begin), spec, sizes);
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return sizes;
}

}  // namespace nqueens
