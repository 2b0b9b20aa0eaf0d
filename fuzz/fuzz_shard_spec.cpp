// libFuzzer target: `--shard i/k`, parse_shard_spec(). It throws std::invalid_argument or
// returns 1 <= i <= k <= kMaxShards, and an accepted spec reads back the same when printed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "nqueens/files/shard.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nqueens::ShardSpec spec;
  try {
    spec = nqueens::parse_shard_spec(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (spec.index < 1 || spec.index > spec.count || spec.count > nqueens::kMaxShards) std::abort();
  const std::string printed = std::to_string(spec.index) + "/" + std::to_string(spec.count);
  if (nqueens::parse_shard_spec(printed) != spec) std::abort();
  return 0;
}
