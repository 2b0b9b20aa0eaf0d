#include "engine/catalogue.hpp"

#include <stdexcept>

#include "nqueens/board.hpp"

namespace nqueens {

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
  return engine->header_problem(header);
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
  if (const EngineDescription* engine = find_engine(header.engine)) text += engine->run_options(header);
  return text;
}

}  // namespace nqueens
