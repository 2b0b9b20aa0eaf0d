#pragma once
// The test settings of the environment (NQUEENS_STOP_BEFORE_RENAME, NQUEENS_OUT_OF_MEMORY_AT):
// each a whole number from 1 up that picks the moment a test wants the program to stop or fail.
#include <cstddef>

namespace nqueens::shell {

//! The value of the environment variable `name`, or 0 when it is absent or empty. Throws
//! std::invalid_argument, "NAME is 'TEXT': MEANING (a test setting)", for anything but a whole
//! number from 1 up.
std::size_t test_setting(const char* name, const char* meaning);

}  // namespace nqueens::shell
