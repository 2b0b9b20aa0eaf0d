#include "system/memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace nqueens {

std::uint64_t resident_memory_bytes() {
  std::ifstream statm("/proc/self/statm");  // in pages
  std::uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

namespace {

// The whole of a small file ("max\n", "VmSize: 1234 kB..."), or "" when it cannot be read.
std::string small_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A limit file's value: bytes, or 0 for "max", nothing or no number.
std::uint64_t limit_value(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && end != text.data() ? value : 0;
}

}  // namespace

std::uint64_t mapped_address_space() {
  const std::string status = small_file("/proc/self/status");
  const std::size_t at = status.find("VmSize:");
  if (at == std::string::npos) return 0;
  std::string_view rest = std::string_view(status).substr(at + 7);
  rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
  return limit_value(rest) << 10;  // in kB
}

std::uint64_t address_space_left() {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  const auto most = static_cast<std::uint64_t>(limit.rlim_cur);
  const std::uint64_t mapped = mapped_address_space();
  return mapped < most ? most - mapped : 1;
}

namespace {

// UINT64_MAX: not remembered.
std::atomic<std::uint64_t> left_at_start{UINT64_MAX};

}  // namespace

std::uint64_t address_space_left_at_start() {
  const std::uint64_t remembered = left_at_start.load();
  return remembered != UINT64_MAX ? remembered : address_space_left();
}

void remember_address_space_at_start() { left_at_start.store(address_space_left()); }

namespace {

std::atomic<std::uint64_t> unmapped_at_start{0};

}  // namespace

void remember_unmapped_at_start(std::uint64_t bytes) { unmapped_at_start.store(bytes); }

std::uint64_t program_at_start() {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  const auto most = static_cast<std::uint64_t>(limit.rlim_cur);
  const std::uint64_t left = address_space_left_at_start();
  return (most > left ? most - left : 0) + unmapped_at_start.load();
}

std::string address_space_limit_text() {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return {};
  return "the address-space limit (ulimit -v " + std::to_string(static_cast<std::uint64_t>(limit.rlim_cur) >> 10) +
         ", in KiB)";
}

std::uint64_t cgroup_memory_limit(std::string_view proc_cgroup, const std::string& root) {
  std::uint64_t least = 0;
  const auto take = [&least](std::uint64_t value) {
    if (value != 0 && (least == 0 || value < least)) least = value;
  };
  for (std::size_t begin = 0; begin < proc_cgroup.size();) {
    const std::size_t end = std::min(proc_cgroup.find('\n', begin), proc_cgroup.size());
    const std::string_view line = proc_cgroup.substr(begin, end - begin);
    begin = end + 1;
    // "0::/path" (v2, one hierarchy) or "4:memory:/path" (v1, one per controller).
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string_view::npos || second == std::string_view::npos) continue;
    const std::string_view controllers = line.substr(first + 1, second - first - 1);
    const bool v2 = controllers.empty();
    if (!v2 && controllers.find("memory") == std::string_view::npos) continue;
    const std::string base = v2 ? root : root + "/memory";
    const char* const file = v2 ? "/memory.max" : "/memory.limit_in_bytes";
    // The group and each group above it: the least limit on the way up holds.
    for (std::string group(line.substr(second + 1));; group.erase(group.rfind('/'))) {
      take(limit_value(small_file(base + group + file)));
      if (group.empty() || group.rfind('/') == std::string::npos) break;
    }
  }
  return least;
}

std::uint64_t MemoryLimit::share(int processes) const {
  return per_process ? bytes : bytes / static_cast<std::uint64_t>(std::max(processes, 1));
}

MemoryLimit memory_limit(int processes_on_machine) {
  MemoryLimit limit{physical_memory_bytes(), "physical memory"};
  const auto take = [&limit, processes_on_machine](const MemoryLimit& other) {
    if (other.bytes != 0 && (limit.bytes == 0 || other.share(processes_on_machine) < limit.share(processes_on_machine)))
      limit = other;
  };
  take({cgroup_memory_limit(small_file("/proc/self/cgroup"), "/sys/fs/cgroup"), "the control group's memory limit"});
  take({address_space_left(), "the address space left under its limit (ulimit -v)", true});
  return limit;
}

}  // namespace nqueens
