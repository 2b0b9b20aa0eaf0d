#pragma once
// Reference values from the OEIS: A000170 (all solutions) and A002562 (solutions up to
// rotation and reflection), as far as they are known exactly here (n = 27).
#include <cstdint>
#include <optional>

#include "nqueens/export.hpp"

namespace nqueens {

//! The largest N whose counts are published (and known to oeis_total() and oeis_unique()).
inline constexpr int kOeisMaxN = 27;

//! A000170(n) for 0 <= n <= 27.
NQUEENS_EXPORT std::optional<std::uint64_t> oeis_total(int n);

//! A002562(n) for 1 <= n <= 27.
NQUEENS_EXPORT std::optional<std::uint64_t> oeis_unique(int n);

}  // namespace nqueens
