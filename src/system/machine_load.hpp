#pragma once
// How busy the CPUs this process may run on are besides it: the CPU time every process spent on
// them (Linux's /proc/stat, per CPU) less this process's own, over an interval. `plan` times its
// sample by the threads' CPU clocks, which other work does not lengthen, while the count's wall
// time it predicts is for cores of its own: the load it saw while sampling says how far that holds.
#include <optional>

namespace nqueens {

//! This process's CPU time, all its threads together, in seconds (0 where the system does not say).
double process_cpu_seconds();

//! Two readings of the CPU clocks, a while apart, give the load between them.
struct CpuClocks {
  double busy_seconds = 0;    //!< the time not idle of the CPUs this process may run on, summed
  int cpus = 0;               //!< those CPUs (its affinity mask)
  double own_seconds = 0;     //!< this process's CPU time
  double steady_seconds = 0;  //!< the steady clock
};

//! Now; nullopt where the system does not say (no /proc/stat, no affinity mask).
std::optional<CpuClocks> read_cpu_clocks();

//! The CPUs' worth of time that other processes took on this process's CPUs between `before` and
//! `after`, on average (1.0: one of them kept busy all along); 0 for an interval too short to say.
double other_processes_cores(const CpuClocks& before, const CpuClocks& after);

}  // namespace nqueens
