#pragma once
// Numbers in the files and options the tool reads and writes, spelled one way everywhere: a
// whole number is plain digits (no sign, no spaces, nothing after), a hash or checksum is a
// fixed number of lower-case hex digits.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace nqueens::detail {

//! The whole of `text` as a number in `base`, or nullopt (empty, a sign, other characters,
//! out of range for Int).
template <typename Int>
std::optional<Int> parse_whole(std::string_view text, int base = 10) {
  if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
  Int value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

//! The low `digits` hex digits of `value`, zero-padded, lower case.
inline std::string to_hex(std::uint64_t value, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) hex[static_cast<std::size_t>(i)] = kDigits[value & 0xF];
  return hex;
}

}  // namespace nqueens::detail
