#include "engine/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include <oneapi/tbb/global_control.h>

namespace nqueens {

namespace {

struct Unit {
  std::string_view name;
  int shift;  // bytes = number << shift
};

constexpr std::array<Unit, 9> kUnits = {
    {{"", 0}, {"K", 10}, {"M", 20}, {"G", 30}, {"T", 40}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}}};

std::invalid_argument bad_size(std::string_view text, std::string_view why) {
  return std::invalid_argument("bad memory size '" + std::string(text) + "': " + std::string(why) +
                               " (give a number and a unit K, M, G or T, e.g. 512M, 4G, 1.5GiB)");
}

// A whole number of a unit, exactly: through a double, 18446744073709551615 was rounded up to
// 2^64 and refused as too large.
std::uint64_t whole_size(std::string_view text, std::string_view digits, std::string_view unit_name) {
  std::uint64_t number = 0;
  const auto [stop, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (error == std::errc::result_out_of_range) throw bad_size(text, "it does not fit 64 bits");
  if (error != std::errc{} || stop != digits.data() + digits.size()) throw bad_size(text, "the number is malformed");
  for (const Unit& unit : kUnits) {
    if (unit.name != unit_name) continue;
    if (number == 0) throw bad_size(text, "the budget must be at least one byte");
    if (number > (std::numeric_limits<std::uint64_t>::max() >> unit.shift))
      throw bad_size(text, "it does not fit 64 bits");
    return number << unit.shift;
  }
  throw bad_size(text, "unknown unit '" + std::string(unit_name) + "'");
}

}  // namespace

std::uint64_t parse_memory_size(std::string_view text) {
  const char* const end = text.data() + text.size();
  const char* digits_end = text.data();
  while (digits_end != end && ((*digits_end >= '0' && *digits_end <= '9') || *digits_end == '.')) ++digits_end;
  if (digits_end == text.data()) throw bad_size(text, "it does not start with a number");
  const std::string_view digits(text.data(), static_cast<std::size_t>(digits_end - text.data()));
  const std::string_view unit_name(digits_end, static_cast<std::size_t>(end - digits_end));
  if (digits.find('.') == std::string_view::npos) return whole_size(text, digits, unit_name);
  if (unit_name.empty()) throw bad_size(text, "a fraction of a byte: give whole bytes, or a unit");
  double number = 0;
  const auto [stop, error] = std::from_chars(digits.data(), digits_end, number, std::chars_format::fixed);
  if (error != std::errc{} || stop != digits_end) throw bad_size(text, "the number is malformed");
  for (const Unit& unit : kUnits) {
    if (unit.name != unit_name) continue;
    const double bytes = std::round(std::ldexp(number, unit.shift));
    if (!(bytes >= 1)) throw bad_size(text, "the budget must be at least one byte");
    if (bytes >= 0x1p64) throw bad_size(text, "it does not fit 64 bits");
    return static_cast<std::uint64_t>(bytes);
  }
  throw bad_size(text, "unknown unit '" + std::string(unit_name) + "'");
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

std::uint64_t address_space_left() {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  const auto most = static_cast<std::uint64_t>(limit.rlim_cur);
  const std::string status = small_file("/proc/self/status");
  const std::size_t at = status.find("VmSize:");
  if (at == std::string::npos) return most;
  std::string_view rest = std::string_view(status).substr(at + 7);
  rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
  const std::uint64_t mapped = limit_value(rest) << 10;  // in kB
  return mapped < most ? most - mapped : 1;
}

std::uint64_t room_for_threads(int threads) {
  if (threads <= 0) return 0;
  const auto count = static_cast<std::uint64_t>(threads);
  const std::uint64_t stack = tbb::global_control::active_value(tbb::global_control::thread_stack_size);
  // 12 MiB and 256 KiB a thread were the least that never failed from 1 to 16 threads (with the
  // heap kept to one arena, share_heap_under_address_limit); 4 MiB more is the margin.
  constexpr std::uint64_t kLibrary = 16u << 20, kPerThread = 256u << 10;
  return kLibrary + count * (stack + kPerThread);
}

namespace {

std::atomic<const char*> current_stage{""};

}  // namespace

AllocationStage::AllocationStage(const char* what)
    : outer_(current_stage.exchange(what)), uncaught_(std::uncaught_exceptions()) {}

// Left in place while an exception leaves the stage, so that its handler can still name it.
AllocationStage::~AllocationStage() {
  if (std::uncaught_exceptions() == uncaught_) current_stage.store(outer_);
}

const char* AllocationStage::now() { return current_stage.load(); }

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

MemoryLimit memory_limit(int processes_on_machine, int threads) {
  MemoryLimit limit{physical_memory_bytes(), "physical memory"};
  const auto take = [&limit, processes_on_machine](const MemoryLimit& other) {
    if (other.bytes != 0 && (limit.bytes == 0 || other.share(processes_on_machine) < limit.share(processes_on_machine)))
      limit = other;
  };
  take({cgroup_memory_limit(small_file("/proc/self/cgroup"), "/sys/fs/cgroup"), "the control group's memory limit"});
  if (const std::uint64_t left = address_space_left(); left != 0) {
    // Threads that do not fit at all are refused as such when they start (prove_threads), with
    // the limit that would hold them: a budget of nothing would be refused first, for the wrong reason.
    const std::uint64_t room = left > room_for_threads(threads) ? room_for_threads(threads) : 0;
    take({left - room,
          room > 0 ? "the address space left under its limit (ulimit -v) after " + std::to_string(threads) +
                         " threads' stacks"
                   : std::string("the address space left under its limit (ulimit -v)"),
          true});
  }
  return limit;
}

DefaultBudget default_budget(int processes_on_machine, int threads) {
  const int processes = std::max(processes_on_machine, 1);
  const MemoryLimit limit = memory_limit(processes, threads);
  DefaultBudget budget;
  if (limit.bytes == 0) {
    budget.bytes = (std::uint64_t{1} << 30) / static_cast<std::uint64_t>(processes);
    budget.text = format_bytes(budget.bytes) + " (the system does not say how much memory there is)";
  } else {
    budget.bytes = std::max<std::uint64_t>(limit.share(processes) / 2, 1);
    const bool shared = !limit.per_process && processes > 1;
    budget.text = format_bytes(budget.bytes) + ", half of " + limit.source + " (" + format_bytes(limit.bytes) + ")" +
                  (shared ? " shared by " + std::to_string(processes) + " processes" : "");
  }
  budget.text += "; --memory SIZE sets another";
  return budget;
}

std::uint64_t default_memory_budget(int processes_on_machine, int threads) {
  return default_budget(processes_on_machine, threads).bytes;
}

std::uint64_t resolve_memory_budget(std::uint64_t requested) {
  return requested != 0 ? requested : default_memory_budget();
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 5> kNames = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && unit + 1 < kNames.size()) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, kNames[unit]);
  return text;
}

}  // namespace nqueens
