#pragma once
// The board-size list a user types: "8", "1-16", "8,10,12-14".
#include <stdexcept>
#include <string_view>
#include <vector>

#include "nqueens/export.hpp"

namespace nqueens {

//! A list of board sizes that cannot be read ("8,,9", "5-3", "33"): what() is the one-line reason.
struct NQUEENS_EXPORT SpecError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

//! The sizes in the order written. Throws SpecError (a one-line reason) for empty items,
//! non-digits, sizes outside 1..32, reversed ranges and sizes listed twice.
NQUEENS_EXPORT std::vector<int> parse_n_spec(std::string_view spec);

}  // namespace nqueens
