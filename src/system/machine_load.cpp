#include "system/machine_load.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

namespace nqueens {

double process_cpu_seconds() {
  timespec now{};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return 0;
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

namespace {

// "cpu3 user nice system idle iowait irq softirq steal ...": CPU 3's busy ticks, or -1 for
// another line (the total "cpu", "intr", ...).
long long busy_ticks(const std::string& line, int& cpu) {
  std::istringstream fields(line);
  std::string label;
  unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(fields >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal)) return -1;
  if (label.size() <= 3 || !label.starts_with("cpu")) return -1;
  try {
    cpu = std::stoi(label.substr(3));
  } catch (const std::exception&) {
    return -1;
  }
  return static_cast<long long>(user + nice + system + irq + softirq + steal);
}

}  // namespace

std::optional<CpuClocks> read_cpu_clocks() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (::sched_getaffinity(0, sizeof(mine), &mine) != 0) return std::nullopt;
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  std::ifstream stat("/proc/stat");
  if (!stat || ticks_per_second <= 0) return std::nullopt;
  CpuClocks clocks;
  long long ticks = 0;
  for (std::string line; std::getline(stat, line);) {
    int cpu = -1;
    const long long busy = busy_ticks(line, cpu);
    if (busy < 0 || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &mine)) continue;
    ticks += busy;
    ++clocks.cpus;
  }
  if (clocks.cpus == 0) return std::nullopt;
  clocks.busy_seconds = static_cast<double>(ticks) / static_cast<double>(ticks_per_second);
  clocks.own_seconds = process_cpu_seconds();
  clocks.steady_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  return clocks;
}

double other_processes_cores(const CpuClocks& before, const CpuClocks& after) {
  // /proc/stat counts in ticks (10 ms): shorter intervals say little.
  constexpr double kShortest = 0.2;
  const double seconds = after.steady_seconds - before.steady_seconds;
  if (seconds < kShortest || before.cpus != after.cpus) return 0;
  const double others = (after.busy_seconds - before.busy_seconds) - (after.own_seconds - before.own_seconds);
  return std::clamp(others / seconds, 0.0, static_cast<double>(after.cpus));
}

}  // namespace nqueens
