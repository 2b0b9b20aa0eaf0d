#include "nqueens/files/unit_record.hpp"

#include <array>

#include "text/text_numbers.hpp"

namespace nqueens {

namespace {

// The reflected polynomial 0xEDB88320, one table entry per byte value.
constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();

}  // namespace

std::uint32_t crc32(std::string_view bytes, std::uint32_t before) {
  std::uint32_t crc = before ^ 0xFFFFFFFFu;
  for (const char c : bytes) crc = kCrcTable[(crc ^ static_cast<unsigned char>(c)) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string unit_record_text(const UnitCount& unit) {
  std::string text = "U " + std::to_string(unit.id) + ' ' + std::to_string(unit.tally.total);
  for (const std::uint64_t orbit : unit.tally.orbits) text += ' ' + std::to_string(orbit);
  return text + ' ' + std::to_string(unit.tally.nodes) + ' ' + std::to_string(unit.microseconds);
}

std::uint32_t unit_checksum(const RunHeader& run, const UnitCount& unit) {
  return crc32(unit_record_text(unit), crc32(run_identity(run) + '\n'));
}

std::string checksum_hex(std::uint32_t checksum) { return detail::to_hex(checksum, 8); }

}  // namespace nqueens
