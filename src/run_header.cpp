#include "nqueens/run_header.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <system_error>

#include "nqueens/board.hpp"
#include "nqueens/version.hpp"
#include "split.hpp"
#include "text_numbers.hpp"

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

// A join run splits by row sets: no split depth, and at most C(n, n/2) row sets times
// (n/2)^2 middle-row cases, plus one unit for the rotation-symmetric solutions.
std::string join_header_problem(const RunHeader& header) {
  if (header.split_depth != 0)
    return "a join run has no split depth, but the file gives " + std::to_string(header.split_depth);
  std::size_t row_sets = 1;
  for (int i = 1; i <= header.n / 2; ++i)
    row_sets = row_sets * static_cast<std::size_t>(header.n - header.n / 2 + i) / static_cast<std::size_t>(i);
  const std::size_t half = static_cast<std::size_t>(header.n / 2);
  if (header.unit_count > row_sets * (half * half + 1) + 1)
    return std::to_string(header.unit_count) + " units is more than a join run of N=" + std::to_string(header.n) +
           " has";
  return {};
}

}  // namespace

RunHeader make_header(const WorkPlan& plan) {
  return {kVersion, EngineKind::dfs, plan.n, plan.symmetry, plan.split_depth, plan.units.size(), fingerprint(plan)};
}

std::string header_mismatch(const RunHeader& expected, const RunHeader& found) {
  auto differ = [](const char* what, const auto& there, const auto& here) {
    return std::string(what) + " is " + there + " there, " + here + " here";
  };
  using std::to_string;
  if (found.engine != expected.engine)
    return differ("the engine", std::string(to_string(found.engine)), std::string(to_string(expected.engine)));
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

std::string header_problem(const RunHeader& header) {
  if (!valid_board_size(header.n))
    return "N=" + std::to_string(header.n) + " is outside " + std::to_string(kMinN) + ".." + std::to_string(kMaxN);
  if (header.engine == EngineKind::join) return join_header_problem(header);
  if (header.engine != EngineKind::dfs) return "no file names the automatic engine";
  // split() clamps the depth to N on the smallest boards.
  if (header.split_depth < std::min(header.n, kMinSplitDepth) ||
      header.split_depth > std::min(header.n, kMaxSplitDepth))
    return "split depth " + std::to_string(header.split_depth) + " is impossible for N=" + std::to_string(header.n);
  std::size_t prefixes = 1;
  for (int row = 0; row < header.split_depth; ++row) prefixes *= static_cast<std::size_t>(header.n);
  if (header.unit_count > prefixes)
    return std::to_string(header.unit_count) + " units is more than N=" + std::to_string(header.n) + " has at depth " +
           std::to_string(header.split_depth);
  return {};
}

std::string run_identity(const RunHeader& header) {
  return "engine=" + std::string(to_string(header.engine)) + " n=" + std::to_string(header.n) +
         " symmetry=" + std::string(to_string(header.symmetry)) + " split_depth=" + std::to_string(header.split_depth) +
         " units=" + std::to_string(header.unit_count) + " fingerprint=" + fingerprint_hex(header.fingerprint);
}

std::string header_text(const RunHeader& header) { return "version=" + header.version + " " + run_identity(header); }

std::optional<RunHeader> parse_header_text(std::string_view text) {
  const auto words = parse_words(text);
  if (!words || words->size() != 6 + words->count("engine")) return std::nullopt;
  auto field = [&words](std::string_view key) -> std::string_view {
    const auto found = words->find(key);
    return found == words->end() ? std::string_view{} : std::string_view(found->second);
  };
  const auto engine = words->count("engine") ? parse_engine(field("engine")) : EngineKind::dfs;
  const auto n = detail::parse_whole<int>(field("n"));
  const auto symmetry = parse_symmetry(field("symmetry"));
  const auto depth = detail::parse_whole<int>(field("split_depth"));
  const auto units = detail::parse_whole<std::size_t>(field("units"));
  const auto print = detail::parse_whole<std::uint64_t>(field("fingerprint"), 16);
  if (field("version").empty() || !engine || *engine == EngineKind::automatic || !n || !symmetry || !depth || !units ||
      !print)
    return std::nullopt;
  return RunHeader{std::string(field("version")), *engine, *n, *symmetry, *depth, *units, *print};
}

std::string fingerprint_hex(std::uint64_t fingerprint) { return detail::to_hex(fingerprint, 16); }

}  // namespace nqueens
