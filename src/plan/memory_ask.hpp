#pragma once
// What a plan tells a user to ask for: the --memory a count is given, and a node's memory from
// a batch system (Slurm's --mem), for `nqueens plan` and the library's plan_count alike.
#include <cstdint>
#include <string>

namespace nqueens::plan {

//! A process is given --memory of its counting memory rounded up to a MiB, and a node of R
//! processes asks the batch system for R x the memory of one (counting and the program) plus a
//! margin for what a budget does not cover (the allocator, thread stacks, the libraries' own):
//! 10 % and 64 MiB, rounded up to a MiB.
inline constexpr double kNodeMemoryMargin = 0.10;
inline constexpr std::uint64_t kNodeMemoryExtraBytes = std::uint64_t{64} << 20;

//! What the process holds before it builds anything for the run (its code, libraries and heap),
//! which a node's memory adds to the count's: read now (0 where the system does not say).
std::uint64_t program_memory_bytes();

//! The --memory option for count: `counting_bytes` rounded up to a MiB, in MiB ("9936M").
std::string count_memory_option(std::uint64_t counting_bytes);

//! A node's memory, in bytes rounded up to a MiB, for `ranks_per_node` processes of
//! `process_bytes` each.
std::uint64_t node_memory_bytes(std::uint64_t process_bytes, int ranks_per_node);

//! Slurm's --mem for a node of that many bytes: "10993M".
std::string slurm_mem_option(std::uint64_t node_bytes);

}  // namespace nqueens::plan
