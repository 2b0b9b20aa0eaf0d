#include "run/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace nqueens {

namespace {

struct Unit {
  std::string_view name;
  int shift;  // bytes = number << shift
};

constexpr std::array<Unit, 9> kUnits = {
    {{"", 0}, {"K", 10}, {"M", 20}, {"G", 30}, {"T", 40}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}}};

std::invalid_argument bad_size(std::string_view text, std::string_view why) {
  return std::invalid_argument("bad memory size '" + std::string(text) + "': " + std::string(why) +
                               " (give a number and a unit K, M, G or T, e.g. 512M, 4G, 1.5GiB)");
}

}  // namespace

std::uint64_t parse_memory_size(std::string_view text) {
  const char* const end = text.data() + text.size();
  const char* digits_end = text.data();
  while (digits_end != end && ((*digits_end >= '0' && *digits_end <= '9') || *digits_end == '.')) ++digits_end;
  if (digits_end == text.data()) throw bad_size(text, "it does not start with a number");
  double number = 0;
  const auto [stop, error] = std::from_chars(text.data(), digits_end, number, std::chars_format::fixed);
  if (error != std::errc{} || stop != digits_end) throw bad_size(text, "the number is malformed");
  const std::string_view unit_name(digits_end, static_cast<std::size_t>(end - digits_end));
  for (const Unit& unit : kUnits) {
    if (unit.name != unit_name) continue;
    const double bytes = std::round(std::ldexp(number, unit.shift));
    if (!(bytes >= 1)) throw bad_size(text, "the budget must be at least one byte");
    if (bytes >= 0x1p64) throw bad_size(text, "it does not fit 64 bits");
    return static_cast<std::uint64_t>(bytes);
  }
  throw bad_size(text, "unknown unit '" + std::string(unit_name) + "'");
}

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t default_memory_budget(int processes_on_machine) {
  const std::uint64_t physical = physical_memory_bytes();
  const std::uint64_t half = physical == 0 ? std::uint64_t{1} << 30 : physical / 2;
  return half / static_cast<std::uint64_t>(std::max(processes_on_machine, 1));
}

std::uint64_t resolve_memory_budget(std::uint64_t requested) {
  return requested != 0 ? requested : default_memory_budget();
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 5> kNames = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && unit + 1 < kNames.size()) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, kNames[unit]);
  return text;
}

}  // namespace nqueens
