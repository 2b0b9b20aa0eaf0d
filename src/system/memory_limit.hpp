#pragma once
// What the machine lets this process hold: physical memory, the address space left under
// `ulimit -v`, a control group's limit. Probed here, from the system, and nowhere else; the
// run's budget (engine/memory_budget.hpp) is made from it.
#include <cstdint>
#include <string>
#include <string_view>

namespace nqueens {

//! The machine's physical memory in bytes (0 when the system does not say).
std::uint64_t physical_memory_bytes();

//! What this process holds in memory now (Linux's /proc/self/statm: its code, libraries and
//! heap); 0 where the system does not say.
std::uint64_t resident_memory_bytes();

//! The most memory this process may take, and what sets it: the least of the machine's
//! physical memory, the address space it may still map (RLIMIT_AS, `ulimit -v`, less what it
//! has mapped already) and its control group's limit (a container's, Slurm's --mem). The
//! physical memory and the control group's limit are shared by the `processes_on_machine`
//! processes of one job on the machine (the MPI ranks of a node); the address space is each
//! process's own. So the least is the least share.
struct MemoryLimit {
  std::uint64_t bytes = 0;   //!< 0: the system does not say
  std::string source;        //!< "physical memory", "the address-space limit (ulimit -v)", ...
  bool per_process = false;  //!< each process has all of `bytes`, not a share of it
  //! What one of `processes` processes on the machine may take of it.
  std::uint64_t share(int processes) const;
};
MemoryLimit memory_limit(int processes_on_machine = 1);

//! The address space this process has mapped (Linux's VmSize in /proc/self/status): what
//! RLIMIT_AS (`ulimit -v`) counts against its limit; 0 where the system does not say.
std::uint64_t mapped_address_space();

//! The address space this process may still map under RLIMIT_AS (`ulimit -v`): the limit less
//! what it has mapped; 0 when there is no limit.
std::uint64_t address_space_left();

//! address_space_left() as remember_address_space_at_start() found it, before any run mapped its
//! memory (or now, when it was not called): what a budget advised after running out of memory is
//! reckoned from, since by then the failed run's heap has used up what was left.
std::uint64_t address_space_left_at_start();
//! Called first thing in main(), so that address_space_left_at_start() is the program's own.
void remember_address_space_at_start();

//! What the program could not map at its start under its limit but maps there under a limit that
//! holds it (the stack of a thread it starts and ends first, which the C library keeps mapped).
void remember_unmapped_at_start(std::uint64_t bytes);
//! The address space the program maps at its start under a limit that holds it: what it had
//! mapped when remember_address_space_at_start() was called, and what it could not map before.
//! 0 when there is no limit.
std::uint64_t program_at_start();

//! "the address-space limit (ulimit -v 20000, in KiB)" when this process has one (RLIMIT_AS),
//! else "": what refuses a thread's stack or an allocation under `ulimit -v`, for a message that
//! names the limit that was met rather than one that was not (the process count, ulimit -u).
std::string address_space_limit_text();

//! The memory limit of the control group whose line of /proc/self/cgroup is in `proc_cgroup`,
//! under the cgroup file system mounted at `root` (/sys/fs/cgroup): the least of its and its
//! ancestors' memory.max (cgroup v2) or memory.limit_in_bytes (v1); 0 when none is set.
std::uint64_t cgroup_memory_limit(std::string_view proc_cgroup, const std::string& root);

}  // namespace nqueens
