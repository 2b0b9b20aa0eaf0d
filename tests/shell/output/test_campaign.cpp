// shell/campaign.hpp: a campaign's folder read as a whole. The folders are made here with the
// library's own writers (shard_json, journal lines): 10,000 shard files of a real run's header,
// with counts made up per unit so that every sum is known; then a shard lost, a record forged with
// a valid checksum, a journal held by a live lock, a file of another split and of another run.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "nqueens/files/journal.hpp"
#include "nqueens/files/shard.hpp"
#include "run/registry.hpp"
#include "shell/output/campaign.hpp"
#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using nqueens::RunHeader;
using nqueens::ShardFile;
using nqueens::UnitCount;
using nqueens::shell::Campaign;
using nqueens::shell::read_campaign;
using nqueens::shell::ShardState;

// The run: the dfs engine's N = 22, 37,360 units at its default split depth.
RunHeader run_header(int n = 22) {
  nqueens::CountOptions options;
  options.engine = "dfs";
  return nqueens::make_engine(n, options)->header();
}

// Made-up counts a unit's id determines, so that any set of units has a known sum.
UnitCount unit(std::size_t id) {
  UnitCount count;
  count.id = id;
  count.tally.total = 8 * (id + 1);
  count.tally.orbits = {0, 0, 0, id + 1};
  count.tally.nodes = 100 * (id + 1);
  count.microseconds = 1000 + id % 7;
  return count;
}

// Shard i of k holds the ids i-1, i-1+k, ...: a layout of its own (status never rebuilds one).
ShardFile shard(const RunHeader& header, int index, int count) {
  ShardFile file;
  file.header = header;
  file.shard = {index, count};
  file.threads = 1;
  file.seconds = 0.5;
  for (std::size_t id = static_cast<std::size_t>(index - 1); id < header.unit_count;
       id += static_cast<std::size_t>(count))
    file.units.push_back(unit(id));
  return file;
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

fs::path campaign_folder(const RunHeader& header, int shards) {
  const fs::path folder = harness::fresh_test_directory("campaign");
  for (int i = 1; i <= shards; ++i)
    write(folder / ("shard-" + std::to_string(i) + ".json"), nqueens::shard_json(shard(header, i, shards)));
  return folder;
}

nqueens::Count sum_of_totals(std::size_t units) {
  nqueens::Count total = 0;
  for (std::size_t id = 0; id < units; ++id) total += unit(id).tally.total;
  return total;
}

TEST(Campaign, TenThousandShardFilesReadAsOneCompleteRun) {
  const RunHeader header = run_header();
  ASSERT_GT(header.unit_count, 10'000U);
  const fs::path folder = campaign_folder(header, 10'000);
  const Campaign campaign = read_campaign(folder);
  EXPECT_EQ(campaign.shard_count, 10'000);
  EXPECT_EQ(campaign.count(ShardState::done), 10'000U);
  EXPECT_EQ(campaign.files_read, 10'000U);
  EXPECT_EQ(campaign.units_counted, header.unit_count);
  EXPECT_TRUE(campaign.complete());
  EXPECT_TRUE(campaign.totals.total == sum_of_totals(header.unit_count));
  EXPECT_TRUE(campaign.left_out.empty());
  EXPECT_TRUE(campaign.conflicting.empty());
  fs::remove_all(folder);
}

TEST(Campaign, MissingShardForgedRecordLiveJournalAndStrayFilesAreEachNamed) {
  const RunHeader header = run_header();
  constexpr int kShards = 40;
  const fs::path folder = campaign_folder(header, kShards);
  // Shard 7 lost: missing, and its units are not counted.
  fs::remove(folder / "shard-7.json");
  // Shard 9 unfinished: its shard file gone, a journal holding its first two units, held by a
  // live lock (as a running count holds it).
  fs::remove(folder / "shard-9.json");
  const ShardFile nine = shard(header, 9, kShards);
  write(folder / "shard-9.journal", nqueens::journal_header_line(header) +
                                        nqueens::journal_record_line(header, nine.units[0]) +
                                        nqueens::journal_record_line(header, nine.units[1]));
  const int held = ::open((folder / "shard-9.journal").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(held, 0);
  ASSERT_EQ(::flock(held, LOCK_EX | LOCK_NB), 0);
  // Shard 11 stopped: a journal nothing holds, and no shard file.
  fs::remove(folder / "shard-11.json");
  write(folder / "shard-11.journal", nqueens::journal_header_line(header));
  // Shard 12 failed, as slurm-shards.sh's log says.
  fs::remove(folder / "shard-12.json");
  write(folder / "shard-12.log",
        "[t] shard 12/40 of N=22 on n1, start 0\n[t] shard 12/40 failed (exit 3); once its cause is fixed, run it "
        "again with:\n");
  // A forged record of unit 5 (shard 6's) with a valid checksum, in a journal of its own.
  UnitCount forged = unit(5);
  forged.tally.total += 8;
  write(folder / "recount.journal",
        nqueens::journal_header_line(header) + nqueens::journal_record_line(header, forged));
  // A shard of another split and a shard of another run.
  write(folder / "other-split.json", nqueens::shard_json(shard(header, 1, 8)));
  write(folder / "other-run.json", nqueens::shard_json(shard(run_header(21), 1, kShards)));

  const Campaign campaign = read_campaign(folder);
  ::close(held);
  EXPECT_EQ(campaign.shard_count, kShards);
  EXPECT_EQ(campaign.count(ShardState::done), kShards - 4U);
  auto state_of = [&campaign](int index) { return campaign.shards[static_cast<std::size_t>(index - 1)].state; };
  EXPECT_EQ(state_of(7), ShardState::missing);
  EXPECT_EQ(state_of(9), ShardState::running);
  EXPECT_EQ(state_of(11), ShardState::interrupted);
  EXPECT_EQ(state_of(12), ShardState::failed);
  EXPECT_NE(campaign.shards[11].note.find("failed (exit 3)"), std::string::npos);
  EXPECT_EQ(campaign.conflicting, std::vector<std::size_t>{5});
  EXPECT_FALSE(campaign.complete());
  // Counted: every unit but those of shards 7, 11 and 12 and all but two of shard 9's.
  std::size_t expected = header.unit_count;
  for (const int gone : {7, 9, 11, 12}) expected -= shard(header, gone, kShards).units.size();
  EXPECT_EQ(campaign.units_counted, expected + 2);
  ASSERT_EQ(campaign.left_out.size(), 2U);
  std::string reasons;
  for (const auto& file : campaign.left_out) reasons += file.path.filename().string() + ": " + file.reason + "\n";
  EXPECT_NE(reasons.find("other-run.json: a file of another run: N is 21 there, 22 here"), std::string::npos)
      << reasons;
  EXPECT_NE(reasons.find("other-split.json: shard 1/8 of another split"), std::string::npos) << reasons;
  // What remains: the mean of the 36 done shards for each of the 4 others, less what shard 9's
  // journal holds.
  const auto remaining = nqueens::shell::remaining_from_shards(campaign);
  ASSERT_TRUE(remaining.has_value());
  EXPECT_GT(remaining->thread_seconds, 0);
  EXPECT_GT(remaining->error_95, 0);
  fs::remove_all(folder);
}

TEST(Campaign, FolderWithoutFilesOfARunIsRefused) {
  const fs::path folder = harness::fresh_test_directory("campaign");
  write(folder / "notes.json", "{}\n");
  EXPECT_THROW(read_campaign(folder), std::invalid_argument);
  EXPECT_THROW(read_campaign(folder / "absent"), std::invalid_argument);
  fs::remove_all(folder);
}

}  // namespace
