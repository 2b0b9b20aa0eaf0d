#include "nqueens/files/run_header.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <system_error>

#include "nqueens/board.hpp"
#include "nqueens/version.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

namespace {

// "a=1 b=2" -> {a: 1, b: 2}; nullopt for a word without '=' or a key given twice.
std::optional<std::map<std::string, std::string, std::less<>>> parse_words(std::string_view text) {
  std::map<std::string, std::string, std::less<>> words;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    const std::size_t equals = word.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    if (!words.emplace(word.substr(0, equals), word.substr(equals + 1)).second) return std::nullopt;
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
  }
  return words;
}

}  // namespace

std::string setting_key(std::string_view name) {
  std::string key(name);
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

std::string setting_name(std::string_view key) {
  std::string name(key);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

namespace {

// The first setting of the two headers that differs, named as the command line spells it: "the
// setting --symmetry is none there, full here".
std::string settings_difference(const EngineSettings& there, const EngineSettings& here) {
  auto shown = [](const EngineSettings& settings, const std::string& name) {
    const auto found = settings.find(name);
    return found == settings.end() ? std::string("absent") : found->second;
  };
  auto differ = [&](const std::string& name) {
    return "the setting --" + name + " is " + shown(there, name) + " there, " + shown(here, name) + " here";
  };
  for (const auto& [name, value] : there)
    if (const auto other = here.find(name); other == here.end() || other->second != value) return differ(name);
  for (const auto& [name, value] : here)
    if (!there.contains(name)) return differ(name);
  return {};
}

}  // namespace

std::string header_mismatch(const RunHeader& expected, const RunHeader& found) {
  auto differ = [](const char* what, const auto& there, const auto& here) {
    return std::string(what) + " is " + there + " there, " + here + " here";
  };
  using std::to_string;
  if (found.engine != expected.engine) return differ("the engine", found.engine, expected.engine);
  if (found.n != expected.n) return differ("N", to_string(found.n), to_string(expected.n));
  if (found.settings != expected.settings) return settings_difference(found.settings, expected.settings);
  if (found.unit_count != expected.unit_count)
    return differ("the unit count", to_string(found.unit_count), to_string(expected.unit_count));
  if (found.fingerprint != expected.fingerprint)
    return differ("the unit list fingerprint", fingerprint_hex(found.fingerprint),
                  fingerprint_hex(expected.fingerprint)) +
           " (written by nqueens " + found.version + ", whose work units differ from this build's)";
  return {};
}

std::string run_identity(const RunHeader& header) {
  std::string text = "engine=" + header.engine + " n=" + std::to_string(header.n);
  for (const auto& [name, value] : header.settings) text += ' ' + setting_key(name) + '=' + value;
  return text + " units=" + std::to_string(header.unit_count) + " fingerprint=" + fingerprint_hex(header.fingerprint);
}

std::string header_text(const RunHeader& header) { return "version=" + header.version + " " + run_identity(header); }

std::optional<RunHeader> parse_header_text(std::string_view text) {
  auto words = parse_words(text);
  if (!words) return std::nullopt;
  auto take = [&words](std::string_view key) -> std::string {
    const auto found = words->find(key);
    if (found == words->end()) return {};
    std::string value = found->second;
    words->erase(found);
    return value;
  };
  RunHeader header;
  header.version = take("version");
  header.engine = take("engine");
  const auto n = detail::parse_whole<int>(take("n"));
  const auto units = detail::parse_whole<std::size_t>(take("units"));
  const auto print = detail::parse_whole<std::uint64_t>(take("fingerprint"), 16);
  if (header.version.empty() || header.engine.empty() || !n || !units || !print) return std::nullopt;
  // The words left are the engine's settings; the engine's header_problem() holds them to the
  // settings it declares.
  for (const auto& [key, value] : *words) {
    if (key.empty() || value.empty() || key.find('-') != std::string::npos) return std::nullopt;
    header.settings.emplace(setting_name(key), value);
  }
  header.n = *n;
  header.unit_count = *units;
  header.fingerprint = *print;
  return header;
}

std::string fingerprint_hex(std::uint64_t fingerprint) { return detail::to_hex(fingerprint, 16); }

}  // namespace nqueens
