#include "engine/memory_budget.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/thread_allowance.hpp"
#include "system/memory_limit.hpp"

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

std::uint64_t room_for_threads(int threads) { return room_for_threads(threads, detail::measured_thread_room()); }

std::uint64_t room_for_threads(int threads, const detail::ThreadRoom& room) {
  if (threads <= 0) return 0;
  // oneTBB's own bookkeeping per worker (its slot, mailbox and scheduler state) beside the stack:
  // about 128 KiB measured with oneTBB 2021; twice that is the margin.
  constexpr std::uint64_t kWorkerBookkeeping = 256u << 10;
  return room.library + static_cast<std::uint64_t>(threads) * (room.per_thread + kWorkerBookkeeping);
}

namespace {

// The heap's allocator maps more than the bytes asked of it (chunk headers, its free lists, the
// top it keeps, a block's rounding to pages): a sixteenth of the budget and 2 MiB held every
// count of the join at N = 17 to 19 on 1 to 4 threads at its default under `ulimit -v`.
constexpr std::uint64_t kAllocatorFixed = 2u << 20;
constexpr std::uint64_t kAllocatorShare = 16;

}  // namespace

std::uint64_t budget_within_address_space(std::uint64_t left, int threads) {
  const std::uint64_t room = room_for_threads(threads) + kAllocatorFixed;
  if (left <= room) return 0;
  const std::uint64_t usable = left - room;
  return usable - usable / kAllocatorShare;
}

std::uint64_t address_space_for_budget(std::uint64_t budget, int threads) {
  const std::uint64_t usable = budget + budget / (kAllocatorShare - 1) + 1;
  return usable + room_for_threads(threads) + kAllocatorFixed;
}

namespace {

std::atomic<const char*> current_stage{""};

// memory_limit() with the room of `threads` set aside from the address space, and the
// allocator's share of the rest: all of what is left is the budget then (`usable`). Threads
// that do not fit at all are refused as such when they start (prove_threads), with the limit
// that would hold them: a budget of nothing would be refused first, for the wrong reason.
struct BudgetLimit {
  MemoryLimit limit;
  bool usable = false;
};

BudgetLimit limit_beside_threads(int processes, int threads) {
  const MemoryLimit limit = memory_limit(processes);
  // The threads' room is measured the first time it is asked, and what the measure starts
  // (oneTBB) stays mapped: measured before what is left is read, so that the first call does not
  // offer what the measure then takes (66 MiB more on 1 thread than on 2 under a 4 GiB limit).
  detail::measured_thread_room();
  const std::uint64_t left = address_space_left();
  if (left == 0) return {limit, false};
  const std::uint64_t budget = budget_within_address_space(left, threads);
  if (budget == 0 || (!limit.per_process && limit.share(processes) / 2 <= budget)) return {limit, false};
  return {{budget,
           "the address space left under its limit (ulimit -v) beside " + std::to_string(threads) +
               " threads' stacks and the heap's own",
           true},
          true};
}

}  // namespace

AllocationStage::AllocationStage(const char* what)
    : outer_(current_stage.exchange(what)), uncaught_(std::uncaught_exceptions()) {}

// Left in place while an exception leaves the stage, so that its handler can still name it.
AllocationStage::~AllocationStage() {
  if (std::uncaught_exceptions() == uncaught_) current_stage.store(outer_);
}

const char* AllocationStage::now() { return current_stage.load(); }

namespace {

std::mutex least_budget_lock;
LeastBudget least_budget_noted;

}  // namespace

void note_least_budget(const LeastBudget& least) {
  const std::lock_guard<std::mutex> guard(least_budget_lock);
  least_budget_noted = least;
}

LeastBudget noted_least_budget() {
  const std::lock_guard<std::mutex> guard(least_budget_lock);
  return least_budget_noted;
}

DefaultBudget default_budget(int processes_on_machine, int threads) {
  const int processes = std::max(processes_on_machine, 1);
  const auto [limit, usable] = limit_beside_threads(processes, threads);
  DefaultBudget budget;
  if (usable) {
    budget.bytes = limit.bytes;
    budget.text = format_bytes(budget.bytes) + ", all of " + limit.source;
  } else if (limit.bytes == 0) {
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

std::string unit_list_refusal(int n, std::size_t units, std::uint64_t unit_bytes, std::uint64_t budget) {
  const std::uint64_t needed = units * (unit_bytes + kRunBytesPerUnit);
  // The run being built holds this on any number of threads (make_engine asks here first).
  LeastBudget least = noted_least_budget();
  least.fixed = needed;
  least.n = n;
  note_least_budget(least);
  if (budget >= needed) return "";
  return "a budget of " + format_bytes(budget) + " is too small for N=" + std::to_string(n) +
         ": its unit list alone takes " + format_bytes(needed) + " (" + std::to_string(units) +
         " units, with what the run keeps per unit)";
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
