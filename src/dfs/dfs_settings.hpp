#pragma once
// The dfs engine's own settings (CountOptions::settings): the symmetry it folds and the rows its
// splitter fixes per unit, read from their names and values as the command line spells them.
// The only engine with a choice of either, so the only place that reads them.
#include <array>
#include <string_view>

#include "dfs/split.hpp"
#include "engine/catalogue.hpp"
#include "nqueens/options.hpp"
#include "nqueens/symmetry.hpp"

namespace nqueens {

struct DfsSettings {
  Symmetry symmetry = Symmetry::full;
  int split_depth = 0;  //!< 0: chosen from N (split.hpp)
};

inline constexpr std::array<std::string_view, 3> kSymmetryModes = {"none", "mirror", "full"};

//! The settings the dfs engine takes, as its description in the catalogue declares them.
inline constexpr std::array<SettingDescription, 2> kDfsSettings = {{
    {.name = "symmetry",
     .help = "Symmetry used to cut the search: none, mirror or full",
     .default_value = "full",
     .choices = kSymmetryModes},
    {.name = "split-depth",
     .help = "Rows fixed per work unit (default: chosen from N)",
     .default_value = "0",
     .least = kMinSplitDepth,
     .most = kMaxSplitDepth},
}};

//! The header's settings of a dfs run: its symmetry mode and the split depth it was cut at.
EngineSettings dfs_header_settings(Symmetry symmetry, int split_depth);

//! The settings `given` names, the others at their defaults. Throws std::invalid_argument with
//! the reason for a name it does not take or a value it cannot be.
DfsSettings read_dfs_settings(const EngineSettings& given);

}  // namespace nqueens
