#include "shell/options/memory_advice.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/memory_budget.hpp"
#include "engine/thread_allowance.hpp"
#include "run/registry.hpp"
#include "system/memory_limit.hpp"

namespace nqueens::shell {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// The driver's thread (the supervisor's, or an MPI rank's own) beside a run's `threads`, as the
// default budget counts them.
int beside_driver(int threads) { return threads + 1; }

// "--memory 54M": a budget in whole MiB, as a user would type it.
std::string memory_option(std::uint64_t bytes) { return "--memory " + std::to_string(bytes / kMiB) + "M"; }

// The budget to advise on `threads` threads when the program had `left` of address space at its
// start: the default budget's rule (all of it beside their room and the heap's own), in whole
// MiB; 0 when that is below the run's least on them (the program would refuse it).
std::uint64_t budget_beside(int threads, std::uint64_t left, const LeastBudget& least) {
  const std::uint64_t budget = budget_within_address_space(left, beside_driver(threads)) / kMiB * kMiB;
  return budget >= std::max(least.on(threads), kMiB) ? budget : 0;
}

// "raise the limit to ulimit -v K and give --memory M": a limit whose room beside the program as
// it started holds `threads` threads and the run's least budget on them, with a MiB to spare on
// each side of the rounding; "" when that is no more than the limit now (a limit that already
// holds the budget advised beside it is not one to raise).
std::string raised_limit(int threads, std::uint64_t left, const LeastBudget& least) {
  struct rlimit limit {};
  getrlimit(RLIMIT_AS, &limit);
  const auto most = static_cast<std::uint64_t>(limit.rlim_cur);
  const std::uint64_t program = most > left ? most - left : 0;
  const std::uint64_t budget = (std::max(least.on(threads), kMiB) + kMiB - 1) / kMiB * kMiB;
  const std::uint64_t room = address_space_for_budget(budget + kMiB, beside_driver(threads)) + kMiB;
  const std::uint64_t kib = (program + room + 1023) / 1024;
  if (kib * 1024 <= most) return "";
  return "raise the limit to ulimit -v " + std::to_string(kib) + " and give " +
         memory_option(budget_beside(threads, room, least));
}

std::string advice_under_limit(const std::string& limit) {
  const std::uint64_t left = address_space_left_at_start();
  const LeastBudget least = noted_least_budget();
  const int threads = least.threads > 0 ? least.threads : detail::proven_threads();
  const std::string holds =
      " under " + limit + ", which holds the program, a stack per thread and the count's memory: ";
  const std::string raise = raised_limit(threads, left, least);
  if (const std::uint64_t budget = budget_beside(threads, left, least); budget != 0)
    return holds + "give " + memory_option(budget) + " (what the limit left the program beside " +
           std::to_string(threads) + " threads)" + (raise.empty() ? "" : ", or " + raise);
  std::string text = holds + "no budget fits beside " + std::to_string(threads) + " threads";
  if (least.on(threads) != 0) text += " (the run needs at least " + format_bytes(least.on(threads)) + ")";
  text += "; ";
  for (int fewer = threads - 1; fewer > 0; --fewer)
    if (const std::uint64_t budget = budget_beside(fewer, left, least); budget != 0) {
      text += "give --threads " + std::to_string(fewer) + " " + memory_option(budget) + (raise.empty() ? "" : ", or ");
      break;
    }
  return text + raise;
}

// The fewest threads short of `threads` whose default budget holds the run, or 0: the default is
// reckoned from what is left now, which the refused run's planning only lowered since its
// default was set, so that a command given those threads is offered no less.
int fewer_threads_that_fit(int threads, const LeastBudget& least) {
  for (int fewer = threads - 1; fewer > 0; --fewer)
    if (default_memory_budget(1, beside_driver(fewer)) >= least.on(fewer)) return fewer;
  return 0;
}

}  // namespace

std::string default_budget_refusal_advice(int threads, std::uint64_t budget, std::string_view whose) {
  const std::string limit = address_space_limit_text();
  const LeastBudget least = noted_least_budget();
  if (limit.empty() || least.threads != threads || least.on(threads) <= budget) return "";
  const std::string said = "; " + std::string(whose) + " default budget is what " + limit + " leaves beside " +
                           std::to_string(threads) + (threads == 1 ? " thread: " : " threads: ");
  if (const int fewer = fewer_threads_that_fit(threads, least); fewer != 0)
    return said + "give --threads " + std::to_string(fewer);
  // What is left now holds everything mapped so far: the limit it names is on the safe side.
  const std::string raise = raised_limit(threads, address_space_left(), least);
  return raise.empty() ? "" : said + raise;
}

std::string refused_default_budget_advice(std::span<const RunRequest> requests, RunArena& arena,
                                          std::string_view whose) {
  if (requests.empty()) return "";
  const LeastBudget least = noted_least_budget();
  const auto refused = std::find_if(requests.begin(), requests.end(), [&least](const RunRequest& request) {
    return request.n == least.n && request.threads == least.threads;
  });
  if (refused != requests.end() && least.per_thread == 0 && least.fixed > refused->memory_bytes) {
    RunRequest request = *refused;
    request.memory_bytes = least.fixed;
    request.memory_plan.reset();
    try {
      arena.execute([&request] { return memory_plan(request); });
    } catch (const std::invalid_argument&) {  // refused again, with the least noted
    }
  }
  return default_budget_refusal_advice(requests.front().threads, requests.front().memory_bytes, whose);
}

std::string out_of_memory_advice() {
  const std::string stage = AllocationStage::now();
  const std::string what = "out of memory (std::bad_alloc)" + (stage.empty() ? std::string() : " while " + stage);
  if (const std::string limit = address_space_limit_text(); !limit.empty()) return what + advice_under_limit(limit);
  const std::uint64_t suggested = default_memory_budget(1, detail::proven_threads());
  return what + ": the system gave this process less memory than the command needed; " +
         (suggested >= kMiB ? "give " + memory_option(suggested) + ", or " : std::string()) +
         "run where more memory is allowed (ulimit -v, the container's or the batch job's memory limit)";
}

void remember_room_at_start() { remember_address_space_at_start(); }

}  // namespace nqueens::shell
