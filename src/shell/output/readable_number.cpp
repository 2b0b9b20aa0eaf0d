#include "shell/output/readable_number.hpp"

#include <array>
#include <cmath>

#include <fmt/core.h>

namespace nqueens::shell {

namespace {

constexpr int kSignificant = 3;

// The decimals that leave `kSignificant` significant digits of `magnitude` (0 for 100 and up).
int decimals_for(double magnitude) {
  if (magnitude <= 0 || !std::isfinite(magnitude)) return 0;
  return std::max(0, kSignificant - 1 - static_cast<int>(std::floor(std::log10(magnitude))));
}

}  // namespace

std::string decimal_text(double value) {
  if (!std::isfinite(value)) return fmt::format("{}", value);
  // Rounding may carry into another digit (9.996 -> "10.0"): decide the decimals on the rounded value.
  const int first = decimals_for(std::fabs(value));
  const double rounded = std::round(value * std::pow(10.0, first)) / std::pow(10.0, first);
  return fmt::format("{:.{}f}", value, decimals_for(std::fabs(rounded)));
}

std::string rate_text(double per_second) {
  static constexpr std::array<const char*, 6> kPrefixes = {"", "k", "M", "G", "T", "P"};
  std::size_t prefix = 0;
  double scaled = per_second;
  // 999.6 rounds to "1000": one prefix up ("1.00k") keeps three digits.
  while (std::fabs(scaled) >= 999.5 && prefix + 1 < kPrefixes.size()) {
    scaled /= 1000;
    ++prefix;
  }
  if (prefix == 0) return decimal_text(scaled);
  return decimal_text(scaled) + kPrefixes[prefix];
}

}  // namespace nqueens::shell
