#include "shell/output/verify.hpp"

#include <spdlog/spdlog.h>

#include "nqueens/oeis.hpp"

namespace nqueens::shell {

CountRecord make_record(const CountResult& result, bool verify) {
  CountRecord record{result, oeis_total(result.n), oeis_unique(result.n), std::nullopt};
  if (!verify) return record;
  if (!record.expected_total) {
    spdlog::warn("N={}: no OEIS value to verify against (the table stops at N={})", result.n, kOeisMaxN);
    return record;
  }
  const bool total_ok = result.totals.total == *record.expected_total;
  const bool unique_ok = !result.unique || !record.expected_unique || *result.unique == *record.expected_unique;
  record.verified = total_ok && unique_ok;
  if (!total_ok)
    spdlog::error("N={}: total {} disagrees with OEIS A000170 {}", result.n, to_string(result.totals.total),
                  *record.expected_total);
  if (!unique_ok)
    spdlog::error("N={}: unique {} disagrees with OEIS A002562 {}", result.n, to_string(*result.unique),
                  *record.expected_unique);
  return record;
}

}  // namespace nqueens::shell
