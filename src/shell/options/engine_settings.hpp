#pragma once
// Every engine's settings as the shell shows them: one command-line option per setting name,
// one column per setting in the JSON and CSV records, all made from the engines' declarations
// (engine/catalogue.hpp), so that a setting is declared once, by its engine.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/catalogue.hpp"

namespace nqueens::shell {

//! A setting some engine declares, and the engines that take it ("dfs").
struct DeclaredSetting {
  const SettingDescription* setting;  //!< the first engine's declaration, in the registry's order
  std::string engines;                //!< "dfs", or "dfs, gpu" where two engines declare it
};

//! Every registered engine's settings, each name once, in the registry's order.
std::vector<DeclaredSetting> declared_settings();

//! Adds `settings` to a record: a column per declared setting (setting_key(): "split_depth"),
//! its value a number for a whole-number setting and a word otherwise, null where the run's
//! engine does not take it.
void add_settings_json(nlohmann::ordered_json& json, const EngineSettings& settings);

}  // namespace nqueens::shell
