#include "shell/progress/status_line.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "shell/output/readable_number.hpp"

namespace nqueens::shell {

namespace {

// The bar's inside, in characters: shorter than the minimum says too little to be worth its
// room; longer than the maximum says nothing more.
constexpr int kMinBar = 10;
constexpr int kMaxBar = 40;
constexpr std::string_view kGap = "  ";  // between the optional fields
// Columns left free at the end: the last one (writing there wraps some terminals) and two for
// the "^C" a terminal echoes when Ctrl-C is typed, which would otherwise wrap the line.
constexpr int kSpareColumns = 3;

struct Field {
  std::string text;
  int drop_rank;  //!< lower goes first when the line is too long
};

int length(const std::string& text) { return static_cast<int>(text.size()); }

std::string bar(double share, int inside) {
  const int filled = std::clamp(static_cast<int>(std::floor(share * inside)), 0, inside);
  return fmt::format("[{}{}]", std::string(static_cast<std::size_t>(filled), '#'),
                     std::string(static_cast<std::size_t>(inside - filled), '-'));
}

// The status line's numbers keep their widths while they change ("  7/860", " 41.3%", an
// unknown ETA as wide as a known one), so that the bar's length and every field's place stay put
// from one redraw to the next: a line that jitters is hard to read.
constexpr int kClockWidth = 7;  // "0:00:00", up to ten hours
constexpr int kRateWidth = 5;   // "312M", "81.0M"

// "N=17", or "N=17 shard 2/4": two shards in one terminal each say which one they are.
std::string named(int n, const std::string& part) {
  return part.empty() ? fmt::format("N={}", n) : fmt::format("N={} {}", n, part);
}

std::string head_text(const ProgressSnapshot& s) { return named(s.n, s.part); }

std::string eta_text(const ProgressSnapshot& s) { return s.eta_seconds ? clock_text(*s.eta_seconds) : "-"; }

std::string percent_text(const ProgressSnapshot& s) { return fmt::format("{:5.1f}%", 100 * s.work_share); }

std::string units_text(const ProgressSnapshot& s) {
  const std::size_t digits = std::to_string(s.units_total).size();
  return fmt::format("{:>{}}/{} units", s.units_done, digits, s.units_total);
}

// "7%": the share of a core the threads got, in whole percent (at least 1).
std::string core_share_text(double share) { return fmt::format("{:.0f}%", std::max(100 * share, 1.0)); }

// The optional fields in display order, each with its rank in the order they give way (equal
// ranks: the first one first).
std::vector<Field> optional_fields(const ProgressSnapshot& s) {
  std::vector<Field> fields{{units_text(s), 1},
                            {fmt::format("{:>{}} elapsed", clock_text(s.elapsed_seconds), kClockWidth), 0},
                            {fmt::format("ETA {:<{}}", eta_text(s), kClockWidth), 3},
                            {fmt::format("{:>{}} sol/s", rate_text(s.solutions_per_second), kRateWidth), 2}};
  if (s.core_share) fields.insert(fields.begin() + 3, {core_share_text(*s.core_share) + " of a core", 0});
  return fields;
}

// The ETA of a log line, with the share of a core the threads got where it is low.
std::string log_eta_text(const ProgressSnapshot& s) {
  if (!s.core_share) return eta_text(s);
  return fmt::format("{} on whole cores (the threads got {} of one)", eta_text(s), core_share_text(*s.core_share));
}

std::string join_fields(const std::vector<Field>& fields) {
  std::string text;
  for (const Field& field : fields) text += std::string(kGap) + field.text;
  return text;
}

void drop_lowest(std::vector<Field>& fields) {
  fields.erase(std::min_element(fields.begin(), fields.end(),
                                [](const Field& a, const Field& b) { return a.drop_rank < b.drop_rank; }));
}

}  // namespace

std::string clock_text(double seconds) {
  const long long s = std::llround(std::max(seconds, 0.0));
  return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

std::string fit_status(const ProgressSnapshot& s, int width) {
  const int limit = std::max(width - kSpareColumns, 1);
  const std::string head = head_text(s);
  const std::string percent = percent_text(s);
  std::vector<Field> fields = optional_fields(s);
  // With a bar: drop fields until a bar of the least useful length fits, then give it the rest.
  // The ETA is worth more than the bar, so the bar goes before the ETA does.
  while (true) {
    const std::string tail = join_fields(fields);
    const int room = limit - length(head) - length(percent) - length(tail) - 4;  // two spaces, two brackets
    if (room >= kMinBar)
      return fmt::format("{} {} {}{}", head, bar(s.work_share, std::min(room, kMaxBar)), percent, tail);
    if (fields.size() <= 1) break;
    drop_lowest(fields);
  }
  for (;; drop_lowest(fields)) {
    const std::string line = fmt::format("{} {}{}", head, percent, join_fields(fields));
    if (length(line) <= limit || fields.empty()) return line.substr(0, static_cast<std::size_t>(limit));
  }
}

std::string fit_setup_status(const SetupSnapshot& s, int width) {
  const int limit = std::max(width - kSpareColumns, 1);
  const std::string phase = fmt::format("setting up {}: {}", named(s.n, s.part), s.phase);
  const std::string elapsed = fmt::format("{}{} elapsed", kGap, clock_text(s.elapsed_seconds));
  const std::string line = length(phase) + length(elapsed) <= limit ? phase + elapsed : phase;
  return line.substr(0, static_cast<std::size_t>(limit));
}

std::string log_setup_status(const SetupSnapshot& s) {
  return fmt::format("{}: setting up: {}, {} elapsed", named(s.n, s.part), s.phase, clock_text(s.elapsed_seconds));
}

std::string log_status(const ProgressSnapshot& s) {
  return fmt::format("{}: {}/{} units, ~{:.1f}% of work, {} elapsed, ETA {}, {} sol/s", head_text(s), s.units_done,
                     s.units_total, 100 * s.work_share, clock_text(s.elapsed_seconds), log_eta_text(s),
                     rate_text(s.solutions_per_second));
}

}  // namespace nqueens::shell
