// A shard spec: `i/k`, the i-th of k shards.
#include <stdexcept>
#include <string>

#include "nqueens/files/shard.hpp"
#include "text/echo.hpp"
#include "text/text_numbers.hpp"

namespace nqueens {

ShardSpec parse_shard_spec(std::string_view text) {
  const std::string quoted = "shard " + detail::echo(text);
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) throw std::invalid_argument(quoted + " is not of the form i/k (e.g. 2/8)");
  const auto index = detail::parse_whole<int>(text.substr(0, slash));
  const auto count = detail::parse_whole<int>(text.substr(slash + 1));
  if (!index || !count) throw std::invalid_argument(quoted + " is not of the form i/k with whole numbers i and k");
  if (*count < 1 || *count > kMaxShards)
    throw std::invalid_argument(quoted + ": the shard count must be between 1 and " + std::to_string(kMaxShards));
  if (*index < 1 || *index > *count)
    throw std::invalid_argument(quoted + ": the shard index must be between 1 and " + std::to_string(*count));
  return {*index, *count};
}

}  // namespace nqueens
