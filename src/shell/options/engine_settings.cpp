#include "shell/options/engine_settings.hpp"

#include <algorithm>

#include "run/registry.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::shell {

std::vector<DeclaredSetting> declared_settings() {
  std::vector<DeclaredSetting> declared;
  for (const EngineDescription* engine : registered_engines())
    for (const SettingDescription& setting : engine->settings) {
      const auto known = std::find_if(declared.begin(), declared.end(), [&setting](const DeclaredSetting& entry) {
        return entry.setting->name == setting.name;
      });
      if (known == declared.end())
        declared.push_back({&setting, std::string(engine->name)});
      else
        known->engines += ", " + std::string(engine->name);
    }
  return declared;
}

void add_settings_json(nlohmann::ordered_json& json, const EngineSettings& settings) {
  for (const DeclaredSetting& declared : declared_settings()) {
    const std::string key = setting_key(declared.setting->name);
    const auto value = settings.find(declared.setting->name);
    if (value == settings.end()) {
      json[key] = nullptr;
    } else if (const auto number = detail::parse_whole<long long>(value->second);
               declared.setting->whole_number() && number) {
      json[key] = *number;
    } else {
      json[key] = value->second;
    }
  }
}

}  // namespace nqueens::shell
