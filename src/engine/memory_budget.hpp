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

namespace nqueens::detail {
struct ThreadRoom;  // engine/thread_allowance.hpp
}  // namespace nqueens::detail

namespace nqueens {

//! "512M", "4G", "1.5GiB", "1048576": a number (a decimal fraction allowed) and an optional
//! binary unit K, M, G or T (also written KiB, MiB, GiB, TiB), 1024 apart; no unit: bytes.
//! Throws std::invalid_argument with the reason for anything else, zero included.
std::uint64_t parse_memory_size(std::string_view text);

//! What `threads` threads take of the address space besides the count's memory: what one thread
//! of oneTBB's stack size and oneTBB's own start-up map in this process, measured once as they
//! start (engine/thread_allowance.hpp), and 256 KiB a worker for oneTBB's bookkeeping.
std::uint64_t room_for_threads(int threads);
//! The same with `room` for what one thread and oneTBB's start map (not measured: allocates nothing).
std::uint64_t room_for_threads(int threads, const detail::ThreadRoom& room);

//! The budget a count on `threads` threads can use when `left` bytes of address space are left
//! under `ulimit -v`: all of it beside the threads' room but what the heap's allocator takes
//! beyond the bytes asked of it (a sixteenth, and 2 MiB); 0 when nothing is left.
std::uint64_t budget_within_address_space(std::uint64_t left, int threads);
//! The address space that budget_within_address_space() turns into at least `budget` on
//! `threads` threads: its inverse, for advice that names a limit to raise to.
std::uint64_t address_space_for_budget(std::uint64_t budget, int threads);

//! What the process is allocating for, named in an out-of-memory failure: set for its scope by
//! the stages of a run that allocate (building an engine, counting), "" outside them. A stage
//! that an exception leaves stays named, for the handler that reports the failure.
class AllocationStage {
 public:
  explicit AllocationStage(const char* what);
  ~AllocationStage();
  AllocationStage(const AllocationStage&) = delete;
  AllocationStage& operator=(const AllocationStage&) = delete;
  //! The innermost stage now, or "".
  static const char* now();

 private:
  const char* outer_;
  int uncaught_;
};

//! The least budget of the run being built, as its engine reckons it: what the run holds on any
//! number of threads, and what each thread adds (both 0 where the engine does not say). Running
//! out of memory, the advice suggests no budget below it: one the program refuses is no way on.
struct LeastBudget {
  int threads = 0;  //!< the run's threads
  std::uint64_t fixed = 0;
  std::uint64_t per_thread = 0;
  int n = 0;  //!< the board size of the run
  //! The least budget on `count` threads.
  std::uint64_t on(int count) const { return fixed + static_cast<std::uint64_t>(count) * per_thread; }
};
//! Noted as a run's engine is built (make_engine notes the run's threads alone first), so that
//! the note is that of the run that ran out of memory.
void note_least_budget(const LeastBudget& least);
LeastBudget noted_least_budget();

//! The default budget: half of one process's share of memory_limit() (the rest is the program's,
//! the allocator's and the system's) when `processes_on_machine` processes share the machine
//! (the MPI ranks of one node), each running `threads` threads; 1 GiB shared by them when the
//! system does not say. Under an address-space limit (`ulimit -v`) that is lower, the limit is
//! the process's own and what is mapped is measured: the default is then the largest budget that
//! fits (budget_within_address_space), not half of it.
std::uint64_t default_memory_budget(int processes_on_machine = 1, int threads = 0);

//! The default budget and where it comes from, for the log.
struct DefaultBudget {
  std::uint64_t bytes = 0;
  std::string text;  //!< "9.4 GiB, half of physical memory (18.8 GiB); --memory SIZE sets another"
};
DefaultBudget default_budget(int processes_on_machine = 1, int threads = 0);

//! The budget a run of CountOptions::memory_bytes = `requested` has (0: the default).
std::uint64_t resolve_memory_budget(std::uint64_t requested);

//! "1.5 GiB", "640.0 MiB", "12.0 KiB", "512 B": for the log and refusals.
std::string format_bytes(std::uint64_t bytes);

//! Why `budget` cannot hold a run of N=`n` whose memory is its unit list, `units` units of
//! `unit_bytes` each plus what the run keeps per unit (kRunBytesPerUnit): "a budget of 1.0 KiB is
//! too small for N=8: its unit list alone takes 2.6 KiB (16 units, with what the run keeps per
//! unit)"; "" when it can.
std::string unit_list_refusal(int n, std::size_t units, std::uint64_t unit_bytes, std::uint64_t budget);

//! What the run keeps per work unit whatever the engine (costs, orders, to-do list, ledger of
//! tallies and times): the part of an engine's memory that grows with its unit count.
inline constexpr std::uint64_t kRunBytesPerUnit =
    4 * sizeof(std::uint64_t) + sizeof(Tally) + sizeof(std::uint64_t) + sizeof(char) + 2 * sizeof(std::size_t);

}  // namespace nqueens
