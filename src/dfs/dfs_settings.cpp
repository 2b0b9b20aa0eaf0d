#include "dfs/dfs_settings.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

#include "dfs/split.hpp"

namespace nqueens {

namespace {

int split_depth_of(std::string_view text) {
  int depth = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), depth);
  const bool in_range = depth == 0 || (depth >= kMinSplitDepth && depth <= kMaxSplitDepth);
  if (error != std::errc{} || end != text.data() + text.size() || !in_range)
    throw std::invalid_argument("the split depth must be between " + std::to_string(kMinSplitDepth) + " and " +
                                std::to_string(kMaxSplitDepth) + ", not " + std::string(text));
  return depth;
}

}  // namespace

DfsSettings read_dfs_settings(const EngineSettings& given) {
  DfsSettings settings;
  for (const auto& [name, value] : given) {
    if (name == "symmetry") {
      const std::optional<Symmetry> symmetry = parse_symmetry(value);
      if (!symmetry) throw std::invalid_argument("the symmetry must be none, mirror or full, not " + value);
      settings.symmetry = *symmetry;
    } else if (name == "split-depth") {
      settings.split_depth = split_depth_of(value);
    } else {
      throw std::invalid_argument("the dfs engine takes --symmetry and --split-depth, not --" + name);
    }
  }
  return settings;
}

EngineSettings dfs_header_settings(Symmetry symmetry, int split_depth) {
  return {{std::string(kDfsSettings[0].name), std::string(to_string(symmetry))},
          {std::string(kDfsSettings[1].name), std::to_string(split_depth)}};
}

}  // namespace nqueens
