#pragma once
// Lists of unit ids as people read and type them: "0-16,40,52-53". `check` and `merge` print
// them and `count --units` reads them, so a list printed by one is input to the other.
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/export.hpp"

namespace nqueens {

//! Ascending, distinct ids as ranges: "0-16,40,52-53" (empty for no ids). Past `max_runs`
//! ranges the rest is left out and the whole counted: "0-16,40,52-53,... (286 units in all)",
//! which no parser takes for a complete list.
NQUEENS_EXPORT std::string format_id_ranges(std::span<const std::size_t> ids,
                                            std::size_t max_runs = std::numeric_limits<std::size_t>::max());

//! The ids that a list of ids and ranges names ("3,7-9", spaces after commas allowed), ascending,
//! each below `unit_count`. Throws std::invalid_argument with a one-line reason: not a list, a
//! range that runs backwards, an id out of range, an id named twice.
NQUEENS_EXPORT std::vector<std::size_t> parse_id_ranges(std::string_view text, std::size_t unit_count);

}  // namespace nqueens
