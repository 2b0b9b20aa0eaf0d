#include "shell/supervision/out_of_memory_at.hpp"

#include "shell/supervision/test_setting.hpp"

namespace nqueens::shell {

std::size_t out_of_memory_test_unit() {
  return test_setting("NQUEENS_OUT_OF_MEMORY_AT", "the unit (from 1) after which the count runs out of memory");
}

}  // namespace nqueens::shell
