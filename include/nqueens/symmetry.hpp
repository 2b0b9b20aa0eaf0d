#pragma once
// The symmetry modes: how much of the square's symmetry the splitter exploits.
#include <optional>
#include <string_view>

#include "nqueens/export.hpp"

namespace nqueens {

//! How much of the square's symmetry a count exploits (CountOptions' "symmetry" setting); every
//! mode gives the same totals, `full` the fastest and the only one that gives `unique`.
enum class Symmetry {
  none,    //!< every first-row column is searched
  mirror,  //!< left half of the first row, each unit counted twice
  full,    //!< one board per class under the 8 rotations and reflections
};

//! "none", "mirror" or "full": the mode's name, as the CLI and the files write it.
NQUEENS_EXPORT std::string_view to_string(Symmetry s);
//! The mode a name (to_string()'s) stands for, or nullopt for any other text.
NQUEENS_EXPORT std::optional<Symmetry> parse_symmetry(std::string_view text);

}  // namespace nqueens
