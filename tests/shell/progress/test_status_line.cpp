// The shell's pure parts: the progress line at every width, colour choice, JSON counts as
// strings, cache sizes as /sys writes them.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "run/registry.hpp"
#include "shell/options/logging.hpp"
#include "shell/output/build_info.hpp"
#include "shell/output/readable_number.hpp"
#include "shell/output/report.hpp"
#include "shell/progress/eta.hpp"
#include "shell/progress/status_line.hpp"
#include "shell/supervision/cost_notice.hpp"

namespace {

using nqueens::shell::fit_status;
using nqueens::shell::ProgressSnapshot;

ProgressSnapshot midway() {
  ProgressSnapshot s;
  s.n = 18;
  s.units_done = 12345;
  s.units_total = 47000;
  s.work_share = 0.413;
  s.elapsed_seconds = 83;
  s.eta_seconds = 4000;
  s.solutions_per_second = 3.12e8;
  return s;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The bar's inside: what lies between '[' and ']'.
std::string bar_of(const std::string& line) {
  const std::size_t open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

// Three columns stay free: the last one, and two for the "^C" a terminal echoes on Ctrl-C.
TEST(StatusLine, LeavesTheLastThreeColumnsFreeAtAnyWidth) {
  for (int width = 1; width <= 300; ++width) {
    const std::string line = fit_status(midway(), width);
    EXPECT_LE(static_cast<int>(line.size()), std::max(width - 3, 1)) << width << ": " << line;
    EXPECT_FALSE(line.empty()) << width;
  }
}

TEST(StatusLine, WideTerminalShowsEveryFieldAndAFullBar) {
  const std::string line = fit_status(midway(), 200);
  EXPECT_EQ(line.rfind("N=18 [", 0), 0u) << line;
  for (const char* field : {"41.3%", "12345/47000 units", "0:01:23 elapsed", "ETA 1:06:40", " 312M sol/s"})
    EXPECT_TRUE(contains(line, field)) << field << " in " << line;
  EXPECT_EQ(bar_of(line).size(), 40u) << line;
  EXPECT_EQ(bar_of(line), std::string(16, '#') + std::string(24, '-')) << "41.3% of 40 is 16 filled";
}

TEST(StatusLine, EightyColumnsDropTheElapsedTimeFirst) {
  const std::string line = fit_status(midway(), 80);
  EXPECT_FALSE(contains(line, "elapsed")) << line;
  for (const char* field : {"N=18", "41.3%", "units", "ETA 1:06:40", "sol/s"})
    EXPECT_TRUE(contains(line, field)) << field << " in " << line;
  EXPECT_GE(bar_of(line).size(), 10u) << line;
}

TEST(StatusLine, FortyColumnsKeepTheBarPercentAndEta) {
  const std::string line = fit_status(midway(), 40);
  EXPECT_EQ(line.rfind("N=18 [", 0), 0u) << line;
  EXPECT_TRUE(contains(line, "41.3%")) << line;
  EXPECT_TRUE(contains(line, "ETA 1:06:40")) << line;
  EXPECT_FALSE(contains(line, "units")) << line;
  EXPECT_FALSE(contains(line, "sol/s")) << line;
}

TEST(StatusLine, NarrowTerminalsGiveUpTheBarThenTheEta) {
  EXPECT_EQ(fit_status(midway(), 27), "N=18  41.3%  ETA 1:06:40");
  EXPECT_EQ(fit_status(midway(), 26), "N=18  41.3%");
  EXPECT_EQ(fit_status(midway(), 8), "N=18 ");
}

TEST(StatusLine, UnknownEtaAndFinishedWork) {
  ProgressSnapshot s = midway();
  s.eta_seconds.reset();
  EXPECT_TRUE(contains(fit_status(s, 200), "ETA -")) << fit_status(s, 200);
  s.work_share = 1.0;
  EXPECT_EQ(bar_of(fit_status(s, 200)), std::string(40, '#'));
  s.work_share = 0.0;
  EXPECT_EQ(bar_of(fit_status(s, 200)), std::string(40, '-'));
}

// Numbers pad to fixed widths: from the first units to the last, with or without an ETA, at a
// rate of units or of billions, the line keeps its length and the bar its size.
TEST(StatusLine, KeepsItsWidthWhileTheNumbersChange) {
  for (const int width : {40, 80, 200}) {
    ProgressSnapshot early = midway();
    early.units_done = 7;
    early.work_share = 0.001;
    early.eta_seconds.reset();
    early.elapsed_seconds = 1;
    early.solutions_per_second = 5;
    ProgressSnapshot late = midway();
    late.units_done = 46999;
    late.work_share = 0.999;
    late.solutions_per_second = 1.23e9;
    const std::string a = fit_status(early, width), b = fit_status(midway(), width), c = fit_status(late, width);
    EXPECT_EQ(a.size(), b.size()) << width << "\n" << a << "\n" << b;
    EXPECT_EQ(b.size(), c.size()) << width << "\n" << b << "\n" << c;
    EXPECT_EQ(bar_of(a).size(), bar_of(c).size()) << a << "\n" << c;
    EXPECT_EQ(a.find(" units"), c.find(" units")) << a << "\n" << c;
  }
}

TEST(SetupStatus, NamesNThePhaseAndTheTimeWithinTheWidth) {
  const nqueens::shell::SetupSnapshot s{27, "estimating unit costs", 754, ""};
  EXPECT_EQ(nqueens::shell::fit_setup_status(s, 80), "setting up N=27: estimating unit costs  0:12:34 elapsed");
  EXPECT_EQ(nqueens::shell::fit_setup_status(s, 50), "setting up N=27: estimating unit costs");
  EXPECT_EQ(nqueens::shell::fit_setup_status(s, 20), "setting up N=27: ");
  EXPECT_EQ(nqueens::shell::log_setup_status(s), "N=27: setting up: estimating unit costs, 0:12:34 elapsed");
}

// A run at a steady pace: the smoothed ETA is the plain one, counting down.
TEST(EtaSmoother, FollowsASteadyPaceExactly) {
  nqueens::shell::EtaSmoother eta;
  for (double t = 5; t < 100; t += 5) {
    const std::optional<double> left = eta.update(t, t / 100);
    ASSERT_TRUE(left) << t;
    EXPECT_NEAR(*left, 100 - t, 1e-9) << t;
  }
  EXPECT_EQ(eta.update(101, 1.0), 0.0);
}

TEST(EtaSmoother, SaysNothingBeforeItsFirstSecondsOrAnyWork) {
  nqueens::shell::EtaSmoother eta;
  EXPECT_FALSE(eta.update(0.5, 0.2)) << "the first units say little of the pace";
  EXPECT_FALSE(eta.update(nqueens::shell::EtaSmoother::kFirstEtaSeconds, 0));
  EXPECT_TRUE(eta.update(nqueens::shell::EtaSmoother::kFirstEtaSeconds, 0.01));
}

// A costly unit finishing at once doubles the share done: the plain ETA halves, the shown one
// moves only part of the way, and a lasting change of pace is followed.
TEST(EtaSmoother, DampsAJumpAndFollowsALastingChange) {
  nqueens::shell::EtaSmoother eta;
  for (double t = 4; t <= 20; t += 1) eta.update(t, t / 200);  // finishing at 200 s
  const double before = *eta.update(21, 21.0 / 200);
  const double plain_after = 22 / (2 * 22.0 / 200) - 22;  // the share doubled: finishing at 100 s
  const double shown_after = *eta.update(22, 2 * 22.0 / 200);
  EXPECT_GT(shown_after, plain_after + 0.8 * (before - plain_after)) << "the ETA jumped with one unit";
  double shown = shown_after;
  for (double t = 23; t <= 80; t += 1) shown = *eta.update(t, t / 100);  // the pace stays: finishing at 100 s
  EXPECT_NEAR(shown, 20, 1) << "a lasting pace is followed";
}

TEST(RoughDuration, ReadsInTheUnitThatFits) {
  using nqueens::shell::rough_duration_text;
  EXPECT_EQ(rough_duration_text(3000), "50 minutes");
  EXPECT_EQ(rough_duration_text(5 * 3600), "5.0 hours");
  EXPECT_EQ(rough_duration_text(6.08 * 86400), "6 days");
  EXPECT_EQ(rough_duration_text(41 * 365.25 * 86400), "41 years");
  constexpr double kYear = 365.25 * 86400;
  EXPECT_EQ(rough_duration_text(2.1e5 * kYear), "210 thousand years");  // was "2.1e+05 years"
  EXPECT_EQ(rough_duration_text(3.44e6 * kYear), "3.4 million years");
  EXPECT_EQ(rough_duration_text(52e9 * kYear), "52 billion years");
  EXPECT_EQ(rough_duration_text(7e12 * kYear), "7.0 trillion years");
  EXPECT_EQ(rough_duration_text(3e20 * kYear), "over a thousand trillion years");
}

TEST(StatusLine, LogFormKeepsEveryField) {
  EXPECT_EQ(nqueens::shell::log_status(midway()),
            "N=18: 12345/47000 units, ~41.3% of work, 0:01:23 elapsed, ETA 1:06:40, 312M sol/s");
}

// A rate reads at a glance, with an SI prefix, never in scientific notation ("2.48e+08").
TEST(ReadableNumber, RatesTakeAnSiPrefixNeverAnExponent) {
  using nqueens::shell::rate_text;
  EXPECT_EQ(rate_text(2.48e8), "248M");
  EXPECT_EQ(rate_text(8.1e7), "81.0M");
  EXPECT_EQ(rate_text(3190), "3.19k");
  EXPECT_EQ(rate_text(999.7), "1.00k") << "rounding up to 1000 takes the next prefix";
  EXPECT_EQ(rate_text(950), "950");
  EXPECT_EQ(rate_text(1.234e9), "1.23G");
  EXPECT_EQ(rate_text(0), "0");
}

// Seconds in one notation down a column: positional, three significant digits.
TEST(ReadableNumber, DecimalsArePositionalWithThreeSignificantDigits) {
  using nqueens::shell::decimal_text;
  EXPECT_EQ(decimal_text(6.891e-5), "0.0000689");
  EXPECT_EQ(decimal_text(0.12345), "0.123");
  EXPECT_EQ(decimal_text(14.53), "14.5");
  EXPECT_EQ(decimal_text(9.996), "10.0") << "rounding carries into another digit";
  EXPECT_EQ(decimal_text(1234.4), "1234");
}

// Two shards in one terminal: each line says which shard it is.
TEST(StatusLine, APartOfTheRunIsNamedOnEveryForm) {
  ProgressSnapshot s = midway();
  s.part = "shard 2/4";
  EXPECT_EQ(fit_status(s, 200).rfind("N=18 shard 2/4 [", 0), 0u) << fit_status(s, 200);
  EXPECT_EQ(nqueens::shell::log_status(s).rfind("N=18 shard 2/4: ", 0), 0u) << nqueens::shell::log_status(s);
  const nqueens::shell::SetupSnapshot setup{18, "estimating unit costs", 12, "shard 2/4"};
  EXPECT_EQ(nqueens::shell::fit_setup_status(setup, 200).rfind("setting up N=18 shard 2/4: ", 0), 0u);
  EXPECT_EQ(nqueens::shell::log_setup_status(setup).rfind("N=18 shard 2/4: setting up", 0), 0u);
}

TEST(Color, AutoFollowsTheTerminalAndNoColor) {
  using nqueens::shell::wants_color;
  EXPECT_TRUE(wants_color("auto", nullptr, true));
  EXPECT_FALSE(wants_color("auto", nullptr, false));
  EXPECT_FALSE(wants_color("auto", "1", true));
  EXPECT_TRUE(wants_color("auto", "", true)) << "no-color.org: an empty NO_COLOR does not count";
  EXPECT_TRUE(wants_color("always", "1", false)) << "an explicit --color wins over NO_COLOR";
  EXPECT_FALSE(wants_color("never", nullptr, true));
}

TEST(JsonCounts, StringModeWritesEveryCountAsADecimalString) {
  nlohmann::ordered_json record = {{"n", 27},           {"total", 234907967154122528ULL},
                                   {"unique", nullptr}, {"nodes", 9007199254740993ULL},
                                   {"seconds", 1.5},    {"threads", 2}};
  const nlohmann::ordered_json strings = nqueens::shell::counts_as_strings(record);
  EXPECT_EQ(strings["total"], "234907967154122528");
  EXPECT_EQ(strings["nodes"], "9007199254740993");  // 2^53 + 1: a double would read 2^53
  EXPECT_TRUE(strings["unique"].is_null());
  EXPECT_EQ(strings["n"], 27) << "sizes and thread counts are small: they stay numbers";
  EXPECT_EQ(strings["threads"], 2);
  EXPECT_EQ(strings["seconds"], 1.5);
}

TEST(BuildInfo, CacheSizesAsSysWritesThem) {
  using nqueens::shell::parse_cache_size;
  EXPECT_EQ(parse_cache_size("32K"), 32u * 1024);
  EXPECT_EQ(parse_cache_size("1M"), 1024u * 1024);
  EXPECT_EQ(parse_cache_size("512"), 512u);
  EXPECT_EQ(parse_cache_size(""), 0u);
  EXPECT_EQ(parse_cache_size("K"), 0u);
  EXPECT_EQ(parse_cache_size("32Q"), 0u);
  EXPECT_EQ(parse_cache_size("17179869183G"), 17179869183ull << 30) << "the largest size that fits";
  EXPECT_EQ(parse_cache_size("17179869184G"), 0u) << "one more and it does not";
  EXPECT_EQ(parse_cache_size("99999999999G"), 0u) << "past 2^64 once scaled: not a wrapped number";
  EXPECT_EQ(parse_cache_size("18446744073709551616"), 0u) << "past 2^64 as it stands";
}

TEST(BuildInfo, NamesTheBuildAndTheKernelsThisCpuRuns) {
  const nqueens::shell::BuildInfo build = nqueens::shell::build_info();
  EXPECT_FALSE(build.commit.empty());
  EXPECT_FALSE(build.compiler.empty());
  EXPECT_TRUE(build.target == "native" || build.target == "portable") << build.target;
  std::map<std::string, std::string> paths;
  for (const auto& hardware : build.cpu_paths) paths[hardware.key] = hardware.path;
  std::size_t with_paths = 0;
  for (const nqueens::EngineDescription* engine : nqueens::registered_engines()) {
    if (engine->cpu_path_key.empty()) continue;
    ++with_paths;
    ASSERT_TRUE(paths.count(std::string(engine->cpu_path_key))) << engine->name;
    EXPECT_EQ(paths.at(std::string(engine->cpu_path_key)), engine->cpu_path()) << engine->name;
  }
  EXPECT_EQ(paths.size(), with_paths) << "one path per engine that has one, under distinct keys";
  EXPECT_TRUE(paths.at("dfs_kernel") == "avx2" || paths.at("dfs_kernel") == "scalar") << paths.at("dfs_kernel");
  const std::string& matcher = paths.at("join_matcher");
  EXPECT_TRUE(matcher == "avx512" || matcher == "avx2" || matcher == "scalar" || matcher == "avx512+pext" ||
              matcher == "avx2+pext")
      << matcher;
  EXPECT_FALSE(build.tbb_version.empty());
  const std::string text = nqueens::shell::version_text(build);
  EXPECT_EQ(text.rfind("nqueens " + build.version + "\n", 0), 0u) << text;
  for (const auto& hardware : build.cpu_paths)
    EXPECT_NE(text.find(hardware.path + " (on " + hardware.seen_by + ")"), std::string::npos) << text;
}

}  // namespace
