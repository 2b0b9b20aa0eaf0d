// An upward call planted for link_floors_planted (tests/CMakeLists.txt): counted as an object of
// src/files (floor 3), it uses the registry of src/run (floor 5), which the check of the floors on
// what links must refuse. Compiled, never linked.
#include <cstddef>

#include "run/registry.hpp"

namespace nqueens {

std::size_t planted_upward_call() { return engine_registry().size(); }

}  // namespace nqueens
