#include "engine/catalogue.hpp"

#include <stdexcept>

#include "nqueens/board.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

namespace {

std::span<const EngineDescription* const>& entries() {
  static std::span<const EngineDescription* const> handed;
  return handed;
}

}  // namespace

void catalogue_engines(std::span<const EngineDescription* const> engines) { entries() = engines; }

std::span<const EngineDescription* const> registered_engines() {
  // Empty only where the registry's object was left out of a static link: the library's users
  // are told to keep it (nqueens::nqueens and pkg-config do, with --undefined).
  if (entries().empty())
    throw std::logic_error("the engine registry (run/registry.cpp) was not linked: no engine is known");
  return entries();
}

const EngineDescription* find_engine(std::string_view name) {
  for (const EngineDescription* engine : registered_engines())
    if (engine->name == name) return engine;
  return nullptr;
}

const EngineDescription& yardstick_engine() {
  for (const EngineDescription* engine : registered_engines())
    if (engine->yardstick) return *engine;
  throw std::logic_error("no registered engine is the yardstick");
}

std::string engine_choices() {
  std::string text(kAutomaticEngine);
  for (const EngineDescription* engine : registered_engines()) text += ", " + std::string(engine->name);
  return text;
}

std::string header_problem(const RunHeader& header) {
  if (!valid_board_size(header.n))
    return "N=" + std::to_string(header.n) + " is outside " + std::to_string(kMinN) + ".." + std::to_string(kMaxN);
  const EngineDescription* engine = find_engine(header.engine);
  if (!engine) return "no engine of this build is called '" + header.engine + "' (engines: " + engine_choices() + ")";
  // Names only: a header holds the values a run resolved (a split depth clamped to a tiny N),
  // which the engine's own check holds to what its runs can have.
  for (const auto& [name, value] : header.settings)
    if (!find_setting(*engine, name)) return settings_problem(*engine, {{name, value}});
  for (const SettingDescription& setting : engine->settings)
    if (!header.settings.contains(setting.name))
      return "a " + std::string(engine->name) + " run has a --" + std::string(setting.name) +
             ", but the file gives none";
  return engine->header_problem(header);
}

const SettingDescription* find_setting(const EngineDescription& engine, std::string_view name) {
  for (const SettingDescription& setting : engine.settings)
    if (setting.name == name) return &setting;
  return nullptr;
}

std::string setting_value_problem(const SettingDescription& setting, std::string_view value) {
  if (value == setting.default_value) return "";
  const std::string option = "--" + std::string(setting.name);
  if (!setting.whole_number()) {
    std::string listed;
    for (const std::string_view choice : setting.choices) {
      if (choice == value) return "";
      listed += (listed.empty() ? "" : ", ") + std::string(choice);
    }
    return option + " must be one of " + listed + ", not " + std::string(value);
  }
  const auto number = detail::parse_whole<long long>(value);
  if (number && *number >= setting.least && *number <= setting.most) return "";
  return option + " must be a whole number from " + std::to_string(setting.least) + " to " +
         std::to_string(setting.most) + ", not " + std::string(value);
}

std::string settings_problem(const EngineDescription& engine, const EngineSettings& settings) {
  for (const auto& [name, value] : settings) {
    const SettingDescription* setting = find_setting(engine, name);
    if (!setting) {
      std::string taken;
      for (const SettingDescription& known : engine.settings)
        taken.append(taken.empty() ? "--" : " and --").append(known.name);
      std::string why = "the " + std::string(engine.name) + " engine takes ";
      return taken.empty() ? why.append("no --").append(name) : why.append(taken).append(", not --").append(name);
    }
    if (std::string why = setting_value_problem(*setting, value); !why.empty()) return why;
  }
  return "";
}

std::string_view unit_family(std::string_view engine) {
  const EngineDescription* description = find_engine(engine);
  if (description == nullptr || description->shares_units_of.empty()) return engine;
  return description->shares_units_of;
}

std::string settings_refused(const CountOptions& options, std::string_view because) {
  if (options.settings.empty()) return "";
  std::string given;
  for (const auto& [name, value] : options.settings) {
    given += given.empty() ? "--" : ", --";
    given.append(name).append(" ").append(value);
  }
  return std::string(because).append(", so it takes no ").append(given);
}

std::string run_options_text(const RunHeader& header) {
  std::string text = "-n " + std::to_string(header.n) + " --engine " + header.engine;
  const EngineDescription* engine = find_engine(header.engine);
  if (!engine) return text;
  for (const SettingDescription& setting : engine->settings)
    if (const auto value = header.settings.find(setting.name); value != header.settings.end())
      text += " --" + std::string(setting.name) + " " + value->second;
  return text;
}

}  // namespace nqueens
