#include "plan/memory_ask.hpp"

#include <algorithm>
#include <cmath>

#include "system/memory_limit.hpp"

namespace nqueens::plan {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

std::uint64_t mebibytes_up(std::uint64_t bytes) { return (bytes + kMiB - 1) / kMiB; }

}  // namespace

std::uint64_t program_memory_bytes() { return resident_memory_bytes(); }

std::string count_memory_option(std::uint64_t counting_bytes) {
  return std::to_string(std::max<std::uint64_t>(1, mebibytes_up(counting_bytes))) + "M";
}

std::uint64_t node_memory_bytes(std::uint64_t process_bytes, int ranks_per_node) {
  const double processes = static_cast<double>(process_bytes) * static_cast<double>(ranks_per_node);
  const auto node = static_cast<std::uint64_t>(std::ceil(processes * (1 + kNodeMemoryMargin))) + kNodeMemoryExtraBytes;
  return mebibytes_up(node) * kMiB;
}

std::string slurm_mem_option(std::uint64_t node_bytes) { return std::to_string(mebibytes_up(node_bytes)) + "M"; }

}  // namespace nqueens::plan
