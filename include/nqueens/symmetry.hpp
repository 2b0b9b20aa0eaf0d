#pragma once
// The symmetry modes: how much of the square's symmetry the splitter exploits.
#include <optional>
#include <string_view>

#include "nqueens/export.hpp"

namespace nqueens {

enum class Symmetry {
  none,    //!< every first-row column is searched
  mirror,  //!< left half of the first row, each unit counted twice
  full,    //!< one board per class under the 8 rotations and reflections
};

NQUEENS_EXPORT std::string_view to_string(Symmetry s);
NQUEENS_EXPORT std::optional<Symmetry> parse_symmetry(std::string_view text);

}  // namespace nqueens
