#pragma once
// `--verify`: a counted result held against the OEIS tables, for `count` and `merge` alike.
#include "nqueens/count.hpp"
#include "shell/output/report.hpp"

namespace nqueens::shell {

//! The record to print for `result`. Under `verify`, also compares with the OEIS and logs each
//! disagreement at error level; a size past the table is logged as a warning, not failed.
CountRecord make_record(const CountResult& result, bool verify);

}  // namespace nqueens::shell
