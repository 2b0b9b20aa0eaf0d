// Shards: k fixed, balanced subsets of a run's unit ids, written to JSON and merged back. The
// merge must give the run's exact totals, or name every missing, doubled, conflicting or
// altered unit.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "dfs/dfs_engine.hpp"
#include "dfs/kernel.hpp"
#include "dfs/split.hpp"
#include "nqueens/files/check.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_ranges.hpp"
#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "run/schedule.hpp"
#include "support/test_support.hpp"

namespace {

using nqueens::MergeReport;
using nqueens::ShardFile;
using nqueens::ShardSpec;
using nqueens::Symmetry;
using nqueens::UnitCount;
using nqueens::UnitProblem;
using nqueens::WorkPlan;
using test_support::describe;
using test_support::kModes;

std::vector<std::size_t> all_ids(const WorkPlan& plan) {
  std::vector<std::size_t> ids(plan.units.size());
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  return ids;
}

// Shard `index` of `count` counted unit by unit, as `count --shard` would write it.
ShardFile counted_shard(const WorkPlan& plan, int index, int count) {
  ShardFile file;
  file.source = "shard-" + std::to_string(index) + ".json";
  file.header = nqueens::make_header(plan);
  file.shard = {index, count};
  file.threads = 1;
  file.seconds = 0.5;
  for (const std::size_t id : nqueens::shard_ids(*nqueens::make_dfs_engine(plan), file.shard))
    file.units.push_back({id, nqueens::count_from(plan.units[id], plan.n)});
  return file;
}

std::vector<ShardFile> all_shards(const WorkPlan& plan, int count) {
  std::vector<ShardFile> files;
  for (int index = 1; index <= count; ++index) files.push_back(counted_shard(plan, index, count));
  return files;
}

std::vector<std::size_t> ids_of(const std::vector<UnitProblem>& problems) {
  std::vector<std::size_t> ids;
  for (const UnitProblem& problem : problems) ids.push_back(problem.id);
  return ids;
}

TEST(Shard, ShardsPartitionTheUnitsForEveryK) {
  for (Symmetry mode : kModes)
    for (int n : {1, 8, 12, 16}) {
      const WorkPlan plan = nqueens::split(n, mode);
      for (int k = 1; k <= 7; ++k) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " mode=" << nqueens::to_string(mode) << " k=" << k);
        std::vector<std::size_t> seen;
        for (int i = 1; i <= k; ++i) {
          const std::vector<std::size_t> ids = nqueens::shard_ids(*nqueens::make_dfs_engine(plan), {i, k});
          EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
          EXPECT_EQ(ids, nqueens::shard_ids(*nqueens::make_dfs_engine(plan), {i, k})) << "not deterministic";
          seen.insert(seen.end(), ids.begin(), ids.end());
        }
        std::sort(seen.begin(), seen.end());
        EXPECT_EQ(seen, all_ids(plan));
      }
    }
}

// Greedy assignment of the costliest unit first to the least loaded shard keeps every shard
// within one unit's cost of every other.
TEST(Shard, ShardsCarryNearlyEqualEstimatedWork) {
  for (int n : {12, 16, 20}) {
    const WorkPlan plan = nqueens::split(n, Symmetry::full);
    std::uint64_t largest = 0;
    for (const auto& unit : plan.units) largest = std::max(largest, nqueens::estimated_cost(unit, n));
    for (int k = 2; k <= 7; ++k) {
      std::vector<std::uint64_t> loads;
      for (int i = 1; i <= k; ++i) {
        std::uint64_t load = 0;
        for (const std::size_t id : nqueens::shard_ids(*nqueens::make_dfs_engine(plan), {i, k}))
          load += nqueens::estimated_cost(plan.units[id], n);
        loads.push_back(load);
      }
      const auto [low, high] = std::minmax_element(loads.begin(), loads.end());
      EXPECT_LE(*high - *low, largest) << "n=" << n << " k=" << k;
    }
  }
}

TEST(Shard, MoreShardsThanUnitsLeavesSomeEmpty) {
  const WorkPlan plan = nqueens::split(4, Symmetry::full);
  std::size_t total = 0;
  for (int i = 1; i <= 50; ++i) total += nqueens::shard_ids(*nqueens::make_dfs_engine(plan), {i, 50}).size();
  EXPECT_EQ(total, plan.units.size());
}

TEST(Shard, ParsesShardSpecs) {
  EXPECT_EQ(nqueens::parse_shard_spec("1/1"), (ShardSpec{1, 1}));
  EXPECT_EQ(nqueens::parse_shard_spec("3/7"), (ShardSpec{3, 7}));
  for (const char* bad : {"", "3", "0/3", "4/3", "1/0", "-1/3", "a/b", "1/3x", "1//3", " 1/3", "1/2000000"})
    EXPECT_THROW(nqueens::parse_shard_spec(bad), std::invalid_argument) << "'" << bad << "'";
}

TEST(Shard, RunUnitsRejectsBadIds) {
  const WorkPlan plan = nqueens::split(8, Symmetry::full);
  EXPECT_THROW(nqueens::run_units(*nqueens::make_dfs_engine(plan), 1, {}, {plan.units.size()}), std::invalid_argument);
  EXPECT_THROW(nqueens::run_units(*nqueens::make_dfs_engine(plan), 1, {}, {0, 1, 0}), std::invalid_argument);
}

TEST(Shard, ShardFileRoundTrips) {
  const WorkPlan plan = nqueens::split(11, Symmetry::mirror);
  const ShardFile written = counted_shard(plan, 2, 3);
  const ShardFile read = nqueens::parse_shard_json(nqueens::shard_json(written), "x.json");
  EXPECT_EQ(read.source, "x.json");
  EXPECT_EQ(read.header, written.header);
  EXPECT_EQ(read.shard, written.shard);
  EXPECT_EQ(read.threads, written.threads);
  EXPECT_EQ(read.seconds, written.seconds);
  EXPECT_EQ(read.units, written.units);
  EXPECT_TRUE(read.altered.empty());
}

TEST(Shard, EditedCountIsCaughtByItsChecksum) {
  const WorkPlan plan = nqueens::split(10, Symmetry::full);
  const ShardFile written = counted_shard(plan, 1, 2);
  const UnitCount& victim = written.units.at(1);
  std::string text = nqueens::shard_json(written);
  const std::string field = "{\"id\":" + std::to_string(victim.id) + ",\"total\":" + std::to_string(victim.tally.total);
  ASSERT_NE(text.find(field), std::string::npos);
  text.replace(text.find(field), field.size(),
               "{\"id\":" + std::to_string(victim.id) + ",\"total\":" + std::to_string(victim.tally.total + 8));
  const ShardFile read = nqueens::parse_shard_json(text, "edited.json");
  EXPECT_EQ(read.altered, std::vector<std::size_t>{victim.id});
  EXPECT_EQ(read.units.size(), written.units.size() - 1);
}

TEST(Shard, WhatIsNoShardFileIsRefused) {
  const WorkPlan plan = nqueens::split(8, Symmetry::full);
  const std::string good = nqueens::shard_json(counted_shard(plan, 1, 1));
  EXPECT_NO_THROW(nqueens::parse_shard_json(good, "good.json"));
  for (const std::string& bad : {std::string("not json"), std::string("{}"), good.substr(0, good.find('\n') / 2)})
    EXPECT_THROW(nqueens::parse_shard_json(bad, "bad.json"), nqueens::ShardFileError) << bad.substr(0, 80);
  // Reformatted by hand, it is one JSON document: read whole, and refused whole when anything is wrong.
  const std::string pretty = nlohmann::json::parse(good).dump(2);
  const ShardFile read = nqueens::parse_shard_json(pretty, "pretty.json");
  EXPECT_EQ(read.units, counted_shard(plan, 1, 1).units);
  for (const std::string& bad : {std::regex_replace(pretty, std::regex("\"id\": 0,"), "\"id\": 999,"),
                                 std::regex_replace(pretty, std::regex("\"nodes\":"), "\"nodez\":"),
                                 std::regex_replace(pretty, std::regex("nqueens-shard"), "something-else")})
    EXPECT_THROW(nqueens::parse_shard_json(bad, "bad.json"), nqueens::ShardFileError) << bad.substr(0, 80);
}

// ---- partial damage: a shard file loses at most what is damaged --------------------

// Of 150 random single-bit flips in a shard file, 110 made the whole file unreadable (merge exit
// 3). Read line by line, a flipped bit costs at most the one entry it hits, and no entry is ever
// read with other counts.
TEST(Shard, RandomSingleBitFlipsLoseAtMostTheEntryTheyHit) {
  const ShardFile written = counted_shard(nqueens::split(11, Symmetry::full), 1, 1);
  const std::string good = nqueens::shard_json(written);
  std::mt19937 random(22);
  std::uniform_int_distribution<std::size_t> byte(0, good.size() - 1);
  std::uniform_int_distribution<int> bit(0, 7);
  for (int flip = 0; flip < 150; ++flip) {
    const std::size_t at = byte(random);
    const int which = bit(random);
    SCOPED_TRACE(testing::Message() << "byte " << at << " ('" << good[at] << "'), bit " << which);
    std::string damaged = good;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << which));
    ShardFile read;
    try {
      read = nqueens::parse_shard_json(damaged, "flipped.json");
    } catch (const nqueens::ShardFileError& error) {
      ADD_FAILURE() << error.what();
      continue;
    }
    EXPECT_EQ(read.header, written.header);
    EXPECT_GE(read.units.size() + 1, written.units.size());
    for (const UnitCount& unit : read.units) {
      EXPECT_EQ(unit, written.units.at(unit.id));
      EXPECT_EQ(unit.microseconds, written.units.at(unit.id).microseconds);
    }
    EXPECT_FALSE(read.damaged.empty() && read.altered.empty()) << "the damage went unseen";
    const MergeReport report = nqueens::merge_shards(std::vector<ShardFile>{read});
    EXPECT_LE(report.missing.size(), 1u);
    EXPECT_TRUE(report.duplicated.empty() && report.conflicting.empty());
  }
}

TEST(Shard, DamagedLinesCostTheirEntriesOnly) {
  const ShardFile written = counted_shard(nqueens::split(10, Symmetry::full), 1, 1);
  const std::string good = nqueens::shard_json(written);
  const std::size_t entries = written.units.size();

  // Cut short: every complete entry is kept, and the cut is damage.
  const std::size_t cut = good.find("\n{\"id\":", good.size() / 2) + 20;
  const ShardFile truncated = nqueens::parse_shard_json(good.substr(0, cut), "cut.json");
  EXPECT_EQ(truncated.units.size(), static_cast<std::size_t>(std::count(good.begin(), good.begin() + cut, '\n')) - 1);
  ASSERT_FALSE(truncated.damaged.empty());
  EXPECT_NE(truncated.damaged.back().problem.find("cut short"), std::string::npos);

  const ShardFile out_of_range =
      nqueens::parse_shard_json(std::regex_replace(good, std::regex("\"id\":0,"), "\"id\":999,"), "id.json");
  EXPECT_EQ(out_of_range.units.size(), entries - 1);
  ASSERT_EQ(out_of_range.damaged.size(), 1u);
  EXPECT_EQ(out_of_range.damaged[0], (nqueens::LineDamage{2, "unit id 999 is out of range"}));

  const ShardFile renamed =
      nqueens::parse_shard_json(std::regex_replace(good, std::regex("\"nodes\":"), "\"nodez\":"), "nodez.json");
  EXPECT_TRUE(renamed.units.empty());
  EXPECT_EQ(renamed.damaged.size(), entries);
  EXPECT_EQ(renamed.damaged[0].problem, "no \"nodes\" field");

  // The header's format name damaged: the entries name the run.
  const ShardFile unnamed =
      nqueens::parse_shard_json(std::regex_replace(good, std::regex("nqueens-shard"), "something-else"), "x.json");
  EXPECT_EQ(unnamed.header, written.header);
  EXPECT_TRUE(unnamed.header_damaged);
  EXPECT_EQ(unnamed.units, written.units);

  // CRLF line ends are line ends.
  const ShardFile crlf = nqueens::parse_shard_json(std::regex_replace(good, std::regex("\n"), "\r\n"), "crlf.json");
  EXPECT_EQ(crlf.units, written.units);
  EXPECT_TRUE(crlf.damaged.empty());
}

// A shard file without its first line was read as one document of up to 256 MiB (120 MB took
// 2.16 GB) and refused. Its entries are read line by line, under the run of the other shard files
// of the merge (their checksums bind them to it), or refused as of an unknown run on its own.
TEST(Shard, AShardWithoutItsHeaderLineIsReadUnderTheRunOfTheOtherShards) {
  const WorkPlan plan = nqueens::split(12, Symmetry::full);
  const std::vector<ShardFile> files = all_shards(plan, 3);
  const std::string text = nqueens::shard_json(files[1]);
  const std::string headless = text.substr(text.find('\n') + 1);
  EXPECT_THROW(nqueens::parse_shard_json(headless, "headless.json"), nqueens::ShardRunUnknown);
  const nqueens::RunHeader other = nqueens::make_header(nqueens::split(12, Symmetry::mirror));
  EXPECT_THROW(nqueens::parse_shard_json(headless, "headless.json", std::vector{other}), nqueens::ShardRunUnknown);
  const ShardFile read = nqueens::parse_shard_json(headless, "headless.json", std::vector{other, files[0].header});
  EXPECT_EQ(read.header, files[0].header);
  EXPECT_TRUE(read.header_damaged);
  EXPECT_FALSE(read.head_trusted);
  EXPECT_EQ(read.units, files[1].units);
  ASSERT_FALSE(read.damaged.empty());
  EXPECT_EQ(read.damaged[0].line, 1u);
  std::vector<ShardFile> merged = {files[0], read, files[2]};
  const MergeReport report = nqueens::merge_shards(merged);
  EXPECT_TRUE(report.complete());
  EXPECT_EQ(describe(report.totals), describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), 2)));
}

// check said "whole" of a shard file that merge refused as duplicated (an entry repeated in it):
// a repeat within one file is harmless to both, as in a journal; across files it is a doubled file.
TEST(Shard, CheckAndMergeAgreeOnAnEntryRepeatedInOneFile) {
  const WorkPlan plan = nqueens::split(10, Symmetry::full);
  ShardFile file = counted_shard(plan, 1, 1);
  file.units.push_back(file.units[3]);
  file.units.back().microseconds += 5;  // counted twice: another time, the same counts
  const ShardFile read = nqueens::parse_shard_json(nqueens::shard_json(file), "repeat.json");
  const nqueens::FileCheck check = nqueens::check_shard(read, all_ids(plan));
  EXPECT_TRUE(check.whole());
  EXPECT_EQ(check.repeated, 1u);
  const MergeReport report = nqueens::merge_shards(std::vector<ShardFile>{read});
  EXPECT_EQ(report.complete(), check.whole());
  EXPECT_TRUE(report.duplicated.empty());
  // Another count of it in the same file is a conflict to both.
  file.units.back().tally.total += 1;
  const ShardFile conflicting = nqueens::parse_shard_json(nqueens::shard_json(file), "conflict.json");
  EXPECT_FALSE(nqueens::check_shard(conflicting, all_ids(plan)).whole());
  EXPECT_FALSE(nqueens::merge_shards(std::vector<ShardFile>{conflicting}).complete());
}

TEST(Shard, MergedShardsGiveTheRunsTotals) {
  for (Symmetry mode : kModes) {
    const WorkPlan plan = nqueens::split(13, mode);
    const std::string whole = describe(nqueens::run_units(*nqueens::make_dfs_engine(plan), 2));
    for (int k : {1, 2, 3, 5, 7}) {
      const MergeReport report = nqueens::merge_shards(all_shards(plan, k));
      EXPECT_TRUE(report.complete()) << "k=" << k;
      EXPECT_EQ(describe(report.totals), whole) << "k=" << k;
    }
  }
}

TEST(Shard, MergeNamesMissingUnits) {
  const WorkPlan plan = nqueens::split(12, Symmetry::full);
  std::vector<ShardFile> files = all_shards(plan, 3);
  files.erase(files.begin() + 1);
  const MergeReport report = nqueens::merge_shards(files);
  EXPECT_FALSE(report.complete());
  EXPECT_EQ(report.missing, nqueens::shard_ids(*nqueens::make_dfs_engine(plan), {2, 3}));
  EXPECT_TRUE(report.duplicated.empty() && report.conflicting.empty() && report.altered.empty());
}

TEST(Shard, MergeNamesDuplicatedAndConflictingUnits) {
  const WorkPlan plan = nqueens::split(12, Symmetry::full);
  std::vector<ShardFile> files = all_shards(plan, 3);
  files.push_back(files[2]);  // shard 3 twice
  ShardFile changed = files[0];
  changed.units[0].tally.total += 1;
  files.push_back(changed);
  const MergeReport report = nqueens::merge_shards(files);
  EXPECT_FALSE(report.complete());
  EXPECT_TRUE(report.missing.empty());
  std::vector<std::size_t> expected_duplicates = nqueens::shard_ids(*nqueens::make_dfs_engine(plan), {3, 3});
  for (std::size_t i = 1; i < files[0].units.size(); ++i) expected_duplicates.push_back(files[0].units[i].id);
  std::sort(expected_duplicates.begin(), expected_duplicates.end());
  EXPECT_EQ(ids_of(report.duplicated), expected_duplicates);
  ASSERT_EQ(report.conflicting.size(), 1u);
  EXPECT_EQ(report.conflicting[0], (UnitProblem{files[0].units[0].id, {0, 4}}));
}

TEST(Shard, MergeNamesAlteredUnitsAndDoesNotCountThem) {
  const WorkPlan plan = nqueens::split(12, Symmetry::full);
  std::vector<ShardFile> files = all_shards(plan, 2);
  const std::size_t victim = files[1].units[3].id;
  files[1].units.erase(files[1].units.begin() + 3);
  files[1].altered.push_back(victim);
  const MergeReport report = nqueens::merge_shards(files);
  EXPECT_FALSE(report.complete());
  ASSERT_EQ(report.altered.size(), 1u);
  EXPECT_EQ(report.altered[0], (UnitProblem{victim, {1}}));
  EXPECT_EQ(report.missing, std::vector<std::size_t>{victim});
}

TEST(Shard, MergeRefusesFilesOfDifferentRuns) {
  std::vector<ShardFile> files = all_shards(nqueens::split(12, Symmetry::full), 2);
  files.push_back(counted_shard(nqueens::split(12, Symmetry::mirror), 1, 2));
  EXPECT_THROW(nqueens::merge_shards(files), std::invalid_argument);
  EXPECT_THROW(nqueens::merge_shards(std::vector<ShardFile>{}), std::invalid_argument);
}

// ---- headers and entries bound to their run ---------------------------------------

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

void expect_unreadable(const std::string& text, const std::string& message) {
  try {
    nqueens::parse_shard_json(text, "edited.json");
    ADD_FAILURE() << "accepted; expected " << message;
  } catch (const nqueens::ShardFileError& error) {
    EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
  }
}

// "n":16 edited to 17 in a K = 1 shard file merged to "17 14772512", exit 0. An edited header
// fails its checksum, and the run is the one the entries, bound to it, check out under: one bit
// flipped back where that makes the checksum hold, else the run as the line reads (the shard,
// threads and seconds then unknown).
TEST(Shard, EditedHeaderFailsItsChecksumAndTheEntriesNameTheRun) {
  const WorkPlan plan = nqueens::split(10, Symmetry::full);
  const ShardFile written = counted_shard(plan, 1, 1);
  const std::string good = nqueens::shard_json(written);
  const std::string fails = "the header fails its checksum";
  for (const auto& [from, to, corrected] :
       {std::tuple{"\"n\":10", "\"n\":11", true},
        std::tuple{"\"index\":1,\"count\":1", "\"index\":1,\"count\":2", false},
        std::tuple{"\"threads\":1", "\"threads\":2", false}, std::tuple{"\"seconds\":0.5", "\"seconds\":1.5", true}}) {
    SCOPED_TRACE(to);
    const ShardFile read = nqueens::parse_shard_json(replaced(good, from, to), "edited.json");
    ASSERT_FALSE(read.damaged.empty());
    EXPECT_EQ(read.damaged[0].line, 1u);
    EXPECT_NE(read.damaged[0].problem.find(fails), std::string::npos) << read.damaged[0].problem;
    EXPECT_EQ(read.header, written.header);
    EXPECT_EQ(read.units, written.units);
    EXPECT_EQ(read.head_trusted, corrected);
    if (corrected) {
      EXPECT_TRUE(read.shard == written.shard && read.seconds == written.seconds);
    }
  }
  // "n":10 to 13 is two bits: the line reads N = 13, which no entry fits.
  expect_unreadable(replaced(good, "\"n\":10", "\"n\":13"), "no unit entry checks out under the run it names");
}

// Unit entries copied from a shard of another N (sound checksums of their own) merged to a wrong total.
TEST(Shard, EntriesFromAnotherRunAreAltered) {
  const WorkPlan ten = nqueens::split(10, Symmetry::full);
  const WorkPlan eleven = nqueens::split(11, Symmetry::full);
  const ShardFile theirs = counted_shard(eleven, 1, 1);
  std::string text = nqueens::shard_json(counted_shard(ten, 1, 1));
  const std::string entry_of_theirs =
      nqueens::shard_json(theirs).substr(nqueens::shard_json(theirs).find("\n{\"id\":0,"));
  const std::string entry_of_ours = text.substr(text.find("\n{\"id\":0,"));
  text = replaced(text, entry_of_ours.substr(0, entry_of_ours.find('}') + 1),
                  entry_of_theirs.substr(0, entry_of_theirs.find('}') + 1));
  const ShardFile read = nqueens::parse_shard_json(text, "spliced.json");
  EXPECT_EQ(read.altered, std::vector<std::size_t>{0});
}

// The header line with its checksum made to hold again, as a crafted file would have it.
std::string with_sound_checksum(std::string text) {
  const std::size_t marker = text.find(",\"crc\":\"");
  const std::string head = text.substr(0, marker) + "}";
  return text.replace(marker + 8, 8, nqueens::checksum_hex(nqueens::crc32(head)));
}

// Values no file can hold, under a checksum that holds (crafted): refused whole.
TEST(Shard, ImpossibleValuesAreRefused) {
  const std::string good = nqueens::shard_json(counted_shard(nqueens::split(8, Symmetry::full), 1, 1));
  auto crafted = [&good](const std::string& from, const std::string& to) {
    return with_sound_checksum(replaced(good, from, to));
  };
  expect_unreadable(crafted("\"seconds\":0.5", "\"seconds\":-0.5"), "\"seconds\" is not a time");
  expect_unreadable(crafted("\"threads\":1", "\"threads\":0"), "\"threads\" is 0");
  expect_unreadable(crafted("\"index\":1,\"count\":1", "\"index\":2,\"count\":1"), "does not exist");
  expect_unreadable(crafted("\"format_version\":4", "\"format_version\":5"), "unknown format_version 5");
  // An entry without its time is that entry's damage only.
  const ShardFile untimed = nqueens::parse_shard_json(replaced(good, "\"microseconds\":0,", ""), "untimed.json");
  ASSERT_EQ(untimed.damaged.size(), 1u);
  EXPECT_EQ(untimed.damaged[0].problem, "no \"microseconds\" field");
}

// ---- the time of each unit ------------------------------------------------------

// A shard whose units carry times, as `count --shard` writes them: unit id plus `base`.
ShardFile timed_shard(const WorkPlan& plan, int index, int count, std::uint64_t base) {
  ShardFile file = counted_shard(plan, index, count);
  for (UnitCount& unit : file.units) unit.microseconds = base + unit.id;
  return file;
}

TEST(Shard, EachUnitsTimeRoundTripsAndIsCoveredByItsChecksum) {
  const WorkPlan plan = nqueens::split(10, Symmetry::full);
  const ShardFile written = timed_shard(plan, 1, 1, 1000);
  const std::string text = nqueens::shard_json(written);
  EXPECT_NE(text.find("\"format_version\":4"), std::string::npos);
  const ShardFile read = nqueens::parse_shard_json(text, "timed.json");
  ASSERT_EQ(read.units.size(), written.units.size());
  for (std::size_t i = 0; i < read.units.size(); ++i)
    EXPECT_EQ(read.units[i].microseconds, written.units[i].microseconds) << "unit " << read.units[i].id;
  EXPECT_TRUE(read.altered.empty());
  const UnitCount& victim = written.units[1];
  const std::string field = "\"microseconds\":" + std::to_string(victim.microseconds);
  const ShardFile edited = nqueens::parse_shard_json(replaced(text, field, field + "0"), "edited.json");
  EXPECT_EQ(edited.altered, std::vector<std::size_t>{victim.id});
}

TEST(Shard, MergeSumsTheTimeOfEveryUnitOnce) {
  const WorkPlan plan = nqueens::split(12, Symmetry::full);
  std::vector<ShardFile> files;
  std::uint64_t sum = 0;
  for (int index = 1; index <= 3; ++index) {
    files.push_back(timed_shard(plan, index, 3, 1000 * static_cast<std::uint64_t>(index)));
    for (const UnitCount& unit : files.back().units) sum += unit.microseconds;
  }
  const MergeReport report = nqueens::merge_shards(files);
  ASSERT_TRUE(report.complete());
  EXPECT_EQ(report.unit_time, (nqueens::UnitTime{sum}));
}

// Equal counts with another time are the same unit twice: duplicated, not conflicting.
TEST(Shard, EntriesWithEqualCountsAndOtherTimesAreDuplicatesNotConflicts) {
  const WorkPlan plan = nqueens::split(12, Symmetry::full);
  std::vector<ShardFile> files = {timed_shard(plan, 1, 1, 10), timed_shard(plan, 1, 1, 20)};
  const MergeReport report = nqueens::merge_shards(files);
  EXPECT_TRUE(report.conflicting.empty());
  EXPECT_EQ(report.duplicated.size(), plan.units.size());
}

// ---- shard files of older formats: refused in one line, never changed ----------------------

// The fields formats 1 to 3 gave every run for the dfs engine's two settings: full and 0 for an
// engine without them.
std::pair<std::string, std::string> fixed_fields(const nqueens::RunHeader& h) {
  if (h.settings.empty()) return {"full", "0"};
  return {h.settings.at("symmetry"), h.settings.at("split-depth")};
}

// A shard file of an older format, built by hand as the builds that wrote it did. Formats 1 and
// 2 were written by development builds before the first release: format 1 had no engine and no
// header checksum, and checked each entry on its own text; format 2 had both and bound each
// entry to its run, but no unit times. Format 3 added the times; like the others, it gave the
// run the fixed fields symmetry and split_depth, and bound each entry to them.
std::string older_shard(int format, const ShardFile& file) {
  const nqueens::RunHeader& h = file.header;
  const auto [symmetry, depth] = fixed_fields(h);
  // Appended piece by piece: GCC 12 takes a long chain of + for an overlapping memcpy (-Wrestrict).
  std::string head = "{\"format\":\"nqueens-shard\",\"format_version\":";
  head += std::to_string(format);
  head += ",\"run\":{\"version\":\"";
  head += h.version;
  head += "\",";
  if (format != 1) head += "\"engine\":\"" + h.engine + "\",";
  head += "\"n\":" + std::to_string(h.n);
  head += ",\"symmetry\":\"" + symmetry;
  head += "\",\"split_depth\":" + depth;
  head += ",\"units\":" + std::to_string(h.unit_count);
  head += ",\"fingerprint\":\"" + nqueens::fingerprint_hex(h.fingerprint);
  head += "\"},\"shard\":{\"index\":" + std::to_string(file.shard.index);
  head += ",\"count\":" + std::to_string(file.shard.count);
  head += "},\"threads\":" + std::to_string(file.threads);
  head += ",\"seconds\":0.5}";
  std::string text = head.substr(0, head.size() - 1);
  if (format != 1) text += ",\"crc\":\"" + nqueens::checksum_hex(nqueens::crc32(head)) + "\"";
  text += ",\"units\":[";
  const std::string identity = "engine=" + h.engine + " n=" + std::to_string(h.n) + " symmetry=" + symmetry +
                               " split_depth=" + depth + " units=" + std::to_string(h.unit_count) +
                               " fingerprint=" + nqueens::fingerprint_hex(h.fingerprint);
  const std::uint32_t bound = format == 1 ? 0 : nqueens::crc32(identity + "\n");
  for (std::size_t i = 0; i < file.units.size(); ++i) {
    const nqueens::Tally& t = file.units[i].tally;
    std::string record = "U";
    for (const std::uint64_t field :
         {std::uint64_t{file.units[i].id}, t.total, t.orbits[0], t.orbits[1], t.orbits[2], t.orbits[3], t.nodes}) {
      record += ' ';
      record += std::to_string(field);
    }
    if (format == 3) record += " " + std::to_string(file.units[i].microseconds);
    text += i ? ",\n" : "\n";
    text += "{\"id\":" + std::to_string(file.units[i].id);
    text += ",\"total\":" + std::to_string(t.total);
    text += ",\"orbits\":[";
    for (std::size_t o = 0; o < 4; ++o) {
      if (o) text += ',';
      text += std::to_string(t.orbits[o]);
    }
    text += "],\"nodes\":" + std::to_string(t.nodes);
    if (format == 3) text += ",\"microseconds\":" + std::to_string(file.units[i].microseconds);
    text += ",\"crc\":\"" + nqueens::checksum_hex(nqueens::crc32(record, bound)) + "\"}";
  }
  return text + "\n]}\n";
}

// Format 3 is read: its fixed fields become the run's settings (none for an engine that takes
// none), its entries check out under the run as format 3 bound them, as a file laid out as
// written and as one JSON document, and it merges with a file of this build's format.
TEST(Shard, Format3FilesAreReadWithTheirFieldsAsSettings) {
  const WorkPlan plan = nqueens::split(10, Symmetry::mirror, 3);
  const ShardFile first = timed_shard(plan, 1, 2, 100);
  const ShardFile second = timed_shard(plan, 2, 2, 200);
  const std::string text = older_shard(3, first);
  const nlohmann::json document = nlohmann::json::parse(text);
  for (const std::string& written : {text, document.dump(2)}) {
    const ShardFile read = nqueens::parse_shard_json(written, "old.json");
    EXPECT_EQ(read.format_version, 3);
    EXPECT_EQ(read.header, first.header);
    EXPECT_EQ(read.header.settings, (nqueens::EngineSettings{{"symmetry", "mirror"}, {"split-depth", "3"}}));
    EXPECT_EQ(read.units, first.units);
    EXPECT_TRUE(read.altered.empty() && read.damaged.empty());
    const std::vector<ShardFile> both = {read, second};
    const MergeReport report = nqueens::merge_shards(both);
    EXPECT_TRUE(report.complete());
    EXPECT_EQ(report.totals.total, 724u);
  }
  // An entry's count edited still fails its checksum under the format's binding.
  const ShardFile edited =
      nqueens::parse_shard_json(std::regex_replace(text, std::regex("\"total\":0,"), "\"total\":1,"), "x.json");
  EXPECT_FALSE(edited.altered.empty());
  // An engine without settings wrote symmetry full and split depth 0: no settings at all.
  nqueens::CountOptions join_options;
  join_options.engine = "join";
  const auto join = nqueens::make_engine(12, join_options);
  ShardFile joined;
  joined.header = join->header();
  joined.threads = 1;
  for (std::size_t id = 0; id < 3; ++id) joined.units.push_back({id, {id, {id, 0, 0, 0}, 5}, 7});
  const ShardFile read = nqueens::parse_shard_json(older_shard(3, joined), "join.json");
  EXPECT_TRUE(read.header.settings.empty());
  EXPECT_EQ(read.header, joined.header);
  EXPECT_EQ(read.units, joined.units);
}

TEST(Shard, OlderFormatsAreRefusedInOneLineAndLeftAsTheyAre) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("nqueens-old-shard-" + std::to_string(::getpid()) + ".json");
  const ShardFile old = counted_shard(nqueens::split(10, Symmetry::full), 1, 2);
  for (const int format : {1, 2}) {
    SCOPED_TRACE(testing::Message() << "format " << format);
    const std::string text = older_shard(format, old);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    const std::string line = path.string() + ": a format " + std::to_string(format) +
                             " shard file, written by a development build of nqueens; this build reads format 3 "
                             "and 4 only: count the shard again";
    for (const bool whole_file : {true, false}) {
      try {
        if (whole_file)
          nqueens::read_shard_file(path);
        else
          nqueens::parse_shard_json(text, path.string());
        ADD_FAILURE() << "read";
      } catch (const nqueens::ShardFileError& error) {
        EXPECT_EQ(error.what(), line);
      }
    }
    std::ifstream in(path, std::ios::binary);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), text)
        << "the file was changed";
  }
  std::filesystem::remove(path);
}

// "cannot read FILE" gave no reason.
TEST(Shard, UnreadableFilesSayWhy) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/nonexistent/shard.json", "cannot read /nonexistent/shard.json: No such file or directory"},
      {"/", "/ is a directory"},
      {"/dev/null", "/dev/null is not a regular file"}};
  for (const auto& [path, message] : cases) {
    try {
      nqueens::read_shard_file(path);
      ADD_FAILURE() << path << " read";
    } catch (const nqueens::ShardFileError& error) {
      EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << error.what();
    }
  }
}

// ---- id lists (check and merge print them, count --units reads them) ------------------------

TEST(UnitRanges, FormatsRunsAndCutsLongLists) {
  using V = std::vector<std::size_t>;
  EXPECT_EQ(nqueens::format_id_ranges(V{}), "");
  EXPECT_EQ(nqueens::format_id_ranges(V{7}), "7");
  EXPECT_EQ(nqueens::format_id_ranges(V{0, 1, 2, 3, 5, 7, 8}), "0-3,5,7-8");
  EXPECT_EQ(nqueens::format_id_ranges(V{0, 2, 4, 6, 7}, 2), "0,2,... (5 units in all)");
  V many(999'998);
  std::iota(many.begin(), many.end(), std::size_t{1});
  EXPECT_EQ(nqueens::format_id_ranges(many, 20), "1-999998");
}

TEST(UnitRanges, ParsesWhatItPrints) {
  const std::vector<std::size_t> ids = {0, 1, 2, 3, 5, 7, 8, 40};
  EXPECT_EQ(nqueens::parse_id_ranges(nqueens::format_id_ranges(ids), 41), ids);
  EXPECT_EQ(nqueens::parse_id_ranges("8, 0-3,  5,7", 41), (std::vector<std::size_t>{0, 1, 2, 3, 5, 7, 8}));
}

TEST(UnitRanges, RefusesWhatIsNoList) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty unit list"},
      {"3,", "'' in unit list"},
      {"a", "'a' in unit list"},
      {"-3", "'' in unit list"},
      {"+3", "'+3' in unit list"},
      {"5-3", "range '5-3' runs backwards"},
      {"41", "unit 41 is out of range: the run has 41 units"},
      {"1-3,3", "unit 3 is named twice"},
      {"0,1,... (5 units in all)", "in unit list"}};
  for (const auto& [text, message] : cases) {
    try {
      nqueens::parse_id_ranges(text, 41);
      ADD_FAILURE() << "'" << text << "' accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(message), std::string::npos) << text << ": " << error.what();
    }
  }
}

}  // namespace
