#include "shell/supervision/cost_notice.hpp"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "engine/memory_budget.hpp"
#include "run/journal_place.hpp"
#include "run/rough_cost.hpp"

namespace nqueens::shell {

namespace {

constexpr double kHour = 3600;
constexpr double kDay = 24 * kHour;
constexpr double kYear = 365.25 * kDay;

std::string threads_text(int threads) { return fmt::format("{} thread{}", threads, threads == 1 ? "" : "s"); }

// What the run holds: an engine with a memory plan fills up to the budget, which its plan, logged
// before anything is allocated, details; the others hold little.
std::string memory_text(const RunRequest& request) {
  if (!request.engine->memory_plan) return "little memory";
  return "memory up to the budget of " + format_bytes(request.memory_bytes);
}

// "N=25: a whole count with the join engine takes about 82 days on 2 threads (164 days of thread time)".
std::string cost_text(int n, std::string_view engine, double thread_seconds, const ThreadsThatRun& threads) {
  return fmt::format("N={}: a whole count with the {} engine takes about {} on {} ({} of thread time{})", n, engine,
                     rough_duration_text(rough_wall_seconds(thread_seconds, threads.running)),
                     threads_text(threads.running), rough_duration_text(thread_seconds), threads.note());
}

// Where the run's finished units go: a long run without a journal loses them all to one
// interruption.
std::string journal_text(const RunSettings& session, int n, std::size_t sizes) {
  if (!session.selection.whole()) return "a part of the run, priced whole";
  if (!session.checkpoint) return "no journal: give --checkpoint FILE to keep finished units";
  return fmt::format("finished units go to {} (the same command resumes)",
                     journal_path(*session.checkpoint, n, sizes).string());
}

}  // namespace

std::string rough_duration_text(double seconds) {
  if (seconds < 90 * 60) return fmt::format("{:.0f} minutes", seconds / 60);
  if (seconds < 2 * kDay) return fmt::format("{:.1f} hours", seconds / kHour);
  if (seconds < 2 * kYear) return fmt::format("{:.0f} days", seconds / kDay);
  const double years = seconds / kYear;
  if (years < 1e4) return fmt::format("{:.0f} years", years);
  // Past ten thousand years, in words: "2.1e+05 years" had to be decoded.
  constexpr std::array<std::pair<double, const char*>, 3> kScales = {
      {{1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}}};
  if (years >= 1e15) return "over a thousand trillion years";
  for (const auto& [scale, word] : kScales)
    if (years >= scale) return fmt::format("{:.{}f} {} years", years / scale, years < 10 * scale ? 1 : 0, word);
  return fmt::format("{:.0f} thousand years", years / 1e3);
}

std::vector<std::string> announce_costs(const RunSettings& session, std::span<const RunRequest> requests,
                                        const ThreadsThatRun& threads, bool force) {
  std::vector<std::string> announced;
  for (const RunRequest& request : requests) {
    const int n = request.n;
    const EngineDescription& engine = *request.engine;
    const std::optional<double> thread_seconds = rough_thread_seconds(engine, n);
    if (!thread_seconds) continue;
    const double wall = rough_wall_seconds(*thread_seconds, threads.running);
    if (wall <= kAnnouncedSeconds) continue;
    const std::string cost = cost_text(n, engine.name, *thread_seconds, threads);
    if (wall > kRefusedSeconds && !force && session.selection.whole())
      throw std::invalid_argument(fmt::format(
          "{}, past the limit of a year: nothing was counted; `nqueens plan -n {}` measures an estimate, --force "
          "runs it anyway",
          cost, n));
    announced.push_back(
        fmt::format("{} and {} (the engine's cost model for a core of a 2-core x86-64 machine: `nqueens plan -n {}` "
                    "measures it on this one); {}",
                    cost, memory_text(request), n, journal_text(session, n, requests.size())));
  }
  return announced;
}

void warn_each(const std::vector<std::string>& announcements) {
  for (const std::string& line : announcements) spdlog::warn("{}", line);
}

}  // namespace nqueens::shell
