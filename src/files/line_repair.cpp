#include "files/line_repair.hpp"

#include <algorithm>

#include "nqueens/files/unit_record.hpp"

namespace nqueens::detail {

std::string_view without_cr(std::string_view line) {
  if (line.ends_with('\r')) line.remove_suffix(1);
  return line;
}

std::vector<std::string> single_bit_repairs(std::string_view original, std::size_t flippable, std::uint32_t checksum) {
  std::vector<std::string> repairs;
  std::string text(original);
  for (std::size_t at = 0; at < std::min(flippable, text.size()); ++at)
    for (int bit = 0; bit < 8; ++bit) {
      text[at] = static_cast<char>(text[at] ^ (1 << bit));
      if (crc32(text) == checksum) repairs.push_back(text);
      text[at] = static_cast<char>(text[at] ^ (1 << bit));
    }
  return repairs;
}

}  // namespace nqueens::detail
