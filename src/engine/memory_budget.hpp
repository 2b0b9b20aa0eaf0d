#pragma once
// The run's memory budget: the one owner of how much memory a count may hold (--memory,
// CountOptions::memory_bytes). An engine whose memory grows with N sizes what it keeps from this,
// says what it will use before it allocates, and refuses a budget too small for its work. What
// the machine allows (system/memory_limit.hpp) is probed in the system folder.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "nqueens/counts.hpp"

namespace nqueens {

//! "512M", "4G", "1.5GiB", "1048576": a number (a decimal fraction allowed) and an optional
//! binary unit K, M, G or T (also written KiB, MiB, GiB, TiB), 1024 apart; no unit: bytes.
//! Throws std::invalid_argument with the reason for anything else, zero included.
std::uint64_t parse_memory_size(std::string_view text);

//! The default budget: half of one process's share of memory_limit() (the rest is the program's,
//! the allocator's and the system's) when `processes_on_machine` processes share the machine
//! (the MPI ranks of one node); 1 GiB shared by them when the system does not say.
std::uint64_t default_memory_budget(int processes_on_machine = 1);

//! The default budget and where it comes from, for the log.
struct DefaultBudget {
  std::uint64_t bytes = 0;
  std::string text;  //!< "9.4 GiB, half of physical memory (18.8 GiB); --memory SIZE sets another"
};
DefaultBudget default_budget(int processes_on_machine = 1);

//! The budget a run of CountOptions::memory_bytes = `requested` has (0: the default).
std::uint64_t resolve_memory_budget(std::uint64_t requested);

//! "1.5 GiB", "640.0 MiB", "12.0 KiB", "512 B": for the log and refusals.
std::string format_bytes(std::uint64_t bytes);

//! What the run keeps per work unit whatever the engine (costs, orders, to-do list, ledger of
//! tallies and times): the part of an engine's memory that grows with its unit count.
inline constexpr std::uint64_t kRunBytesPerUnit =
    4 * sizeof(std::uint64_t) + sizeof(Tally) + sizeof(std::uint64_t) + sizeof(char) + 2 * sizeof(std::size_t);

}  // namespace nqueens
