#pragma once
// The dfs engine's own settings (CountOptions::settings): the symmetry it folds and the rows its
// splitter fixes per unit, read from their names and values as the command line spells them.
// The only engine with a choice of either, so the only place that reads them.
#include <array>
#include <string_view>

#include "nqueens/options.hpp"
#include "nqueens/symmetry.hpp"

namespace nqueens {

struct DfsSettings {
  Symmetry symmetry = Symmetry::full;
  int split_depth = 0;  //!< 0: chosen from N (split.hpp)
};

//! The setting names the dfs engine takes, for its description in the catalogue.
inline constexpr std::array<std::string_view, 2> kDfsSettingNames = {"symmetry", "split-depth"};

//! The settings `given` names, the others at their defaults. Throws std::invalid_argument with
//! the reason for a name it does not take or a value it cannot be.
DfsSettings read_dfs_settings(const EngineSettings& given);

}  // namespace nqueens
