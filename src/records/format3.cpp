#include "records/format3.hpp"

#include "nqueens/files/unit_record.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::detail {

namespace {

constexpr std::string_view kSymmetry = "symmetry";
constexpr std::string_view kSplitDepth = "split-depth";

bool known_symmetry(std::string_view mode) { return mode == "none" || mode == "mirror" || mode == "full"; }

}  // namespace

std::optional<EngineSettings> format3_settings(std::string_view symmetry, int split_depth) {
  if (!known_symmetry(symmetry) || split_depth < 0) return std::nullopt;
  if (split_depth == 0) {
    if (symmetry != "full") return std::nullopt;
    return EngineSettings{};
  }
  return EngineSettings{{std::string(kSymmetry), std::string(symmetry)},
                        {std::string(kSplitDepth), std::to_string(split_depth)}};
}

std::optional<Format3Fields> format3_fields(const RunHeader& header) {
  if (header.settings.empty()) return Format3Fields{"full", 0};
  const auto symmetry = header.settings.find(kSymmetry);
  const auto depth = header.settings.find(kSplitDepth);
  if (header.settings.size() != 2 || symmetry == header.settings.end() || depth == header.settings.end())
    return std::nullopt;
  const auto split_depth = parse_whole<int>(depth->second);
  if (!split_depth || *split_depth == 0 || !known_symmetry(symmetry->second)) return std::nullopt;
  return Format3Fields{symmetry->second, *split_depth};
}

std::optional<RunHeader> parse_format3_header_text(std::string_view text) {
  std::optional<RunHeader> header = parse_header_text(text);
  if (!header || header->settings.size() != 2) return std::nullopt;
  const auto symmetry = header->settings.find(kSymmetry);
  const auto depth = header->settings.find(kSplitDepth);
  if (symmetry == header->settings.end() || depth == header->settings.end()) return std::nullopt;
  const auto split_depth = parse_whole<int>(depth->second);
  if (!split_depth) return std::nullopt;
  std::optional<EngineSettings> settings = format3_settings(symmetry->second, *split_depth);
  if (!settings) return std::nullopt;
  header->settings = std::move(*settings);
  return header;
}

std::string format3_identity(const RunHeader& header) {
  const std::optional<Format3Fields> fields = format3_fields(header);
  if (!fields) return {};
  return "engine=" + header.engine + " n=" + std::to_string(header.n) + " symmetry=" + fields->symmetry +
         " split_depth=" + std::to_string(fields->split_depth) + " units=" + std::to_string(header.unit_count) +
         " fingerprint=" + fingerprint_hex(header.fingerprint);
}

std::uint32_t record_binding(const RunHeader& header, bool format3) {
  return crc32((format3 ? format3_identity(header) : run_identity(header)) + '\n');
}

}  // namespace nqueens::detail
