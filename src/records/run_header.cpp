#include "nqueens/run_header.hpp"

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

std::string header_mismatch(const RunHeader& expected, const RunHeader& found) {
  auto differ = [](const char* what, const auto& there, const auto& here) {
    return std::string(what) + " is " + there + " there, " + here + " here";
  };
  using std::to_string;
  if (found.engine != expected.engine) return differ("the engine", found.engine, expected.engine);
  if (found.n != expected.n) return differ("N", to_string(found.n), to_string(expected.n));
  if (found.symmetry != expected.symmetry)
    return differ("the symmetry mode", std::string(to_string(found.symmetry)),
                  std::string(to_string(expected.symmetry)));
  if (found.split_depth != expected.split_depth)
    return differ("the split depth", to_string(found.split_depth), to_string(expected.split_depth));
  if (found.unit_count != expected.unit_count)
    return differ("the unit count", to_string(found.unit_count), to_string(expected.unit_count));
  if (found.fingerprint != expected.fingerprint)
    return differ("the unit list fingerprint", fingerprint_hex(found.fingerprint),
                  fingerprint_hex(expected.fingerprint)) +
           " (written by nqueens " + found.version + ", whose work units differ from this build's)";
  return {};
}

std::string run_identity(const RunHeader& header) {
  return "engine=" + header.engine + " n=" + std::to_string(header.n) +
         " symmetry=" + std::string(to_string(header.symmetry)) + " split_depth=" + std::to_string(header.split_depth) +
         " units=" + std::to_string(header.unit_count) + " fingerprint=" + fingerprint_hex(header.fingerprint);
}

std::string header_text(const RunHeader& header) { return "version=" + header.version + " " + run_identity(header); }

std::optional<RunHeader> parse_header_text(std::string_view text) {
  const auto words = parse_words(text);
  if (!words || words->size() != 7) return std::nullopt;
  auto field = [&words](std::string_view key) -> std::string_view {
    const auto found = words->find(key);
    return found == words->end() ? std::string_view{} : std::string_view(found->second);
  };
  const std::string_view engine = field("engine");
  const auto n = detail::parse_whole<int>(field("n"));
  const auto symmetry = parse_symmetry(field("symmetry"));
  const auto depth = detail::parse_whole<int>(field("split_depth"));
  const auto units = detail::parse_whole<std::size_t>(field("units"));
  const auto print = detail::parse_whole<std::uint64_t>(field("fingerprint"), 16);
  if (field("version").empty() || engine.empty() || !n || !symmetry || !depth || !units || !print) return std::nullopt;
  return RunHeader{std::string(field("version")), std::string(engine), *n, *symmetry, *depth, *units, *print};
}

std::string fingerprint_hex(std::uint64_t fingerprint) { return detail::to_hex(fingerprint, 16); }

}  // namespace nqueens
