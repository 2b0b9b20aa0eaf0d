#pragma once
// NQUEENS_OUT_OF_MEMORY_AT=K, a test setting: the K-th unit a count finishes (from 1) is followed
// by std::bad_alloc, as if memory ran out while counting. The advice that follows is reckoned as
// for a real failure, from the address-space limit and the run's least budget, so that a test can
// reach each of its forms under a chosen `ulimit -v` and follow it (the join's real use stays well
// under its cautious least budget, so a real failure gives only the raised-limit form).
#include <cstddef>

namespace nqueens::shell {

//! The unit after which to fail, or 0 when the setting is absent. Throws std::invalid_argument,
//! naming the setting, for anything but a whole number from 1 up.
std::size_t out_of_memory_test_unit();

}  // namespace nqueens::shell
