// The advice after running out of memory under an address-space limit (`ulimit -v`), followed as
// a user would: every way it names counts, with the same counts as a run without the limit.
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/program_harness.hpp"

namespace {

using harness::describe;
using harness::lines_of;

// Every 30th unit of the join at N = 19 (1023 units, under a second on one core): enough row sets
// that a cache given --memory 2G outgrows a low limit while counting, far fewer than the run's.
std::string unit_file() {
  const std::string path = testing::TempDir() + "nqueens_advice_units.txt";
  std::ofstream out(path);
  for (int id = 0; id < 30680; id += 30) out << id << '\n';
  return path;
}

struct Way {
  std::string limit_kib, threads, memory;
};

// `setting`: NAME=VALUE for the program (the test setting NQUEENS_OUT_OF_MEMORY_AT), or "".
harness::Outcome count(const Way& way, const std::string& units, const std::string& output,
                       const std::string& setting = "") {
  const std::string limit = way.limit_kib.empty() ? std::string() : "ulimit -v " + way.limit_kib + "; ";
  return harness::run_program({"/bin/bash", "-c",
                               limit + "exec " + (setting.empty() ? "" : "env " + setting + " ") +
                                   std::string(NQUEENS_BINARY) + " count -n 19 --no-progress -t " + way.threads +
                                   (way.memory.empty() ? "" : " --memory " + way.memory) + " --units @" + units +
                                   " --output " + output});
}

// "total over the sound records: 164415264 (nodes ...)" of `check FILE`: the shard's total.
std::string shard_total(const std::string& file) {
  const harness::Outcome r = harness::run_program({NQUEENS_BINARY, "check", file});
  const std::smatch found = [&] {
    std::smatch match;
    std::regex_search(r.out, match, std::regex("total over the sound records: ([0-9]+)"));
    return match;
  }();
  return found.empty() ? "none (" + describe(r) + ")" : found[1].str();
}

}  // namespace

// The advice was reckoned from the address space left when memory ran out, which the failed
// run's own heap had taken: "give --memory 1M", a budget the program then refuses. Now each way
// it names (a budget, fewer threads with one, a raised limit with one) is followed and counts.
TEST(CliMemoryAdvice, EveryWayTheOutOfMemoryAdviceNamesCounts) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const std::string units = unit_file(), output = testing::TempDir() + "nqueens_advice_shard.txt";
  std::optional<harness::Outcome> failed;
  std::string limit;
  // The lowest limit that starts two threads and then runs out of memory while counting.
  for (const char* kib : {"56000", "64000", "72000", "80000", "90000"}) {
    const harness::Outcome r = count({kib, "2", "2G"}, units, output);
    if (r.err.find("out of memory") == std::string::npos) continue;
    failed = r;
    limit = kib;
    break;
  }
  ASSERT_TRUE(failed) << "no limit tried ran out of memory";
  EXPECT_EQ(failed->exit_code, 3) << describe(*failed);
  EXPECT_EQ(lines_of(failed->err).size(), 1u) << describe(*failed);
  ASSERT_EQ(count({"", "2", ""}, units, output).exit_code, 0);
  const std::string expected = shard_total(output);
  ASSERT_EQ(expected.find("none"), std::string::npos) << expected;

  const std::string& advice = failed->err;
  std::vector<Way> ways;
  std::smatch match;
  if (std::regex_search(advice, match, std::regex(": give --memory ([0-9]+M)"))) ways.push_back({limit, "2", match[1]});
  if (std::regex_search(advice, match, std::regex("give --threads ([0-9]+) --memory ([0-9]+M)")))
    ways.push_back({limit, match[1], match[2]});
  const std::regex raise("raise the limit to ulimit -v ([0-9]+) and give --memory ([0-9]+M)");
  if (std::regex_search(advice, match, raise)) ways.push_back({match[1], "2", match[2]});
  ASSERT_FALSE(ways.empty()) << "no way on in: " << advice;
  for (const Way& way : ways) {
    const std::string what = "ulimit -v " + way.limit_kib + " -t " + way.threads + " --memory " + way.memory;
    const harness::Outcome r = count(way, units, output);
    ASSERT_EQ(r.exit_code, 0) << what << " (advised: " << advice << "): " << describe(r);
    EXPECT_EQ(shard_total(output), expected) << what;
  }
}

// A real failure at N = 19 comes only under limits too low for any budget beside two threads (the
// join uses well under its cautious least budget): its advice is the raised limit. The other two
// forms are reached with memory made to run out after the third unit (NQUEENS_OUT_OF_MEMORY_AT,
// a test setting) under higher limits, the advice reckoned as for a real failure, and followed
// under the same limit without the setting. Under a limit that already holds the run, the advice
// said "raise the limit to ulimit -v K" with K below the limit in force: no advice now names a
// limit that is not higher than the one in force.
TEST(CliMemoryAdvice, EachFormOfTheAdviceIsReachedAndFollowed) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const std::string units = unit_file(), output = testing::TempDir() + "nqueens_advice_forms.txt";
  ASSERT_EQ(count({"", "2", ""}, units, output).exit_code, 0);
  const std::string expected = shard_total(output);
  ASSERT_EQ(expected.find("none"), std::string::npos) << expected;

  const std::regex fewer("no budget fits beside 2 threads .*give --threads ([0-9]+) --memory ([0-9]+M)");
  const std::regex budget(": give --memory ([0-9]+M) \\(what the limit left");
  const std::regex raise("raise the limit to ulimit -v ([0-9]+)");
  std::optional<Way> fewer_threads, smaller_budget;
  for (const char* kib : {"80000", "90000", "100000", "110000", "130000", "170000", "400000"}) {
    const harness::Outcome r = count({kib, "2", "2G"}, units, output, "NQUEENS_OUT_OF_MEMORY_AT=3");
    ASSERT_EQ(r.exit_code, 3) << kib << ": " << describe(r);
    ASSERT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    ASSERT_NE(r.err.find("out of memory (std::bad_alloc) while counting the units"), std::string::npos) << r.err;
    std::smatch match;
    if (std::regex_search(r.err, match, raise)) {
      EXPECT_GT(std::stoul(match[1].str()), std::stoul(kib))
          << "a limit to raise to, at ulimit -v " << kib << ": " << r.err;
    }
    if (!fewer_threads && std::regex_search(r.err, match, fewer)) fewer_threads = Way{kib, match[1], match[2]};
    if (!smaller_budget && std::regex_search(r.err, match, budget)) smaller_budget = Way{kib, "2", match[1]};
  }
  ASSERT_TRUE(fewer_threads) << "no limit tried advised fewer threads";
  ASSERT_TRUE(smaller_budget) << "no limit tried advised a smaller budget";
  for (const Way& way : {*fewer_threads, *smaller_budget}) {
    const std::string what = "ulimit -v " + way.limit_kib + " -t " + way.threads + " --memory " + way.memory;
    const harness::Outcome r = count(way, units, output);
    ASSERT_EQ(r.exit_code, 0) << what << ": " << describe(r);
    EXPECT_EQ(shard_total(output), expected) << what;
  }
}

// The test setting is checked: anything but a unit number from 1 up is refused in one line.
TEST(CliMemoryAdvice, TheOutOfMemorySettingRefusesWhatIsNoUnitNumber) {
  const std::string units = unit_file(), output = testing::TempDir() + "nqueens_advice_setting.txt";
  for (const char* value : {"0", "x", "3x"}) {
    const harness::Outcome r = count({"", "1", ""}, units, output, std::string("NQUEENS_OUT_OF_MEMORY_AT=") + value);
    EXPECT_EQ(r.exit_code, 2) << value << ": " << describe(r);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    EXPECT_NE(r.err.find("NQUEENS_OUT_OF_MEMORY_AT is"), std::string::npos) << r.err;
  }
}

// The default budget was half of what the limit left beside a cautious guess of the threads' room:
// at ulimit -v 130000, N = 19 on two threads was offered 37.7 MiB and refused (it needs 53.6 MiB),
// while --memory 2G counted under the same limit. The room is measured now, and the default is
// the largest budget that fits beside it: it counts.
TEST(CliMemoryAdvice, TheDefaultBudgetUnderALowLimitCounts) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const std::string units = unit_file(), output = testing::TempDir() + "nqueens_advice_default.txt";
  ASSERT_EQ(count({"", "2", ""}, units, output).exit_code, 0);
  const std::string expected = shard_total(output);
  for (const char* threads : {"1", "2"}) {
    const harness::Outcome r = count({"130000", threads, ""}, units, output);
    ASSERT_EQ(r.exit_code, 0) << "ulimit -v 130000 -t " << threads << ": " << describe(r);
    EXPECT_EQ(shard_total(output), expected) << threads;
  }
}

// A default budget too small under a low limit was refused with what the run needs and no way on:
// the default is the limit's, so no --memory helps. The refusal names one (fewer threads whose
// default holds the run, or the limit to raise to and the budget then), and followed it counts.
// Both forms are reached by the limits tried.
TEST(CliMemoryAdvice, ARefusedDefaultBudgetNamesAWayOnThatCounts) {
  if (harness::kSanitized) GTEST_SKIP() << "a sanitized program cannot run under an address-space limit";
  const std::string units = unit_file(), output = testing::TempDir() + "nqueens_advice_refused.txt";
  ASSERT_EQ(count({"", "2", ""}, units, output).exit_code, 0);
  const std::string expected = shard_total(output);
  ASSERT_EQ(expected.find("none"), std::string::npos) << expected;

  const std::regex fewer("leaves beside 2 threads: give --threads ([0-9]+)$");
  const std::regex raise("leaves beside 2 threads: raise the limit to ulimit -v ([0-9]+) and give --memory ([0-9]+M)$");
  std::optional<Way> fewer_threads, raised_limit;
  for (int kib = 56000; kib <= 128000 && !(fewer_threads && raised_limit); kib += 8000) {
    const harness::Outcome r = count({std::to_string(kib), "2", ""}, units, output);
    if (r.exit_code == 0) break;  // the default holds the run from here up
    ASSERT_EQ(r.exit_code, 2) << kib << ": " << describe(r);
    ASSERT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    const std::string line = lines_of(r.err).front();
    std::smatch match;
    if (!fewer_threads && std::regex_search(line, match, fewer))
      fewer_threads = Way{std::to_string(kib), match[1], ""};
    else if (!raised_limit && std::regex_search(line, match, raise))
      raised_limit = Way{match[1], "2", match[2]};
    else
      EXPECT_TRUE(fewer_threads || raised_limit) << "no way on at ulimit -v " << kib << ": " << line;
  }
  ASSERT_TRUE(fewer_threads) << "no limit tried advised fewer threads";
  ASSERT_TRUE(raised_limit) << "no limit tried advised a raised limit";
  for (const Way& way : {*fewer_threads, *raised_limit}) {
    const std::string what = "ulimit -v " + way.limit_kib + " -t " + way.threads + " --memory " + way.memory;
    const harness::Outcome r = count(way, units, output);
    ASSERT_EQ(r.exit_code, 0) << what << ": " << describe(r);
    EXPECT_EQ(shard_total(output), expected) << what;
  }
}
