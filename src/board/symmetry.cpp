#include "nqueens/symmetry.hpp"

namespace nqueens {

std::string_view to_string(Symmetry s) {
  switch (s) {
    case Symmetry::none: return "none";
    case Symmetry::mirror: return "mirror";
    case Symmetry::full: return "full";
  }
  return "unknown";
}

std::optional<Symmetry> parse_symmetry(std::string_view text) {
  for (Symmetry s : {Symmetry::none, Symmetry::mirror, Symmetry::full})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

}  // namespace nqueens
