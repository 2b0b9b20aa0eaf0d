// libFuzzer target: the board-size list a user types ("8,10-12"), parse_n_spec().
// Whatever the bytes, the parser either throws SpecError or returns sizes within the board
// limits, none twice.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "nqueens/board.hpp"
#include "nqueens/n_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  std::vector<int> sizes;
  try {
    sizes = nqueens::parse_n_spec(spec);
  } catch (const nqueens::SpecError&) {
    return 0;
  }
  if (sizes.empty()) std::abort();
  std::vector<bool> seen(nqueens::kMaxN + 1);
  for (const int n : sizes) {
    if (!nqueens::valid_board_size(n) || seen[static_cast<std::size_t>(n)]) std::abort();
    seen[static_cast<std::size_t>(n)] = true;
  }
  return 0;
}
