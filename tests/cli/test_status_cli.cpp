// `nqueens status DIR` on folders made by real counts: N = 12 in 5 shards (two done, one
// interrupted, one failed by its log, one missing), then the same folder finished; a shard
// counting while status reads (a live lock); and bad input. Its sums are checked against counts
// made apart: the units counted so far add up to the whole run less the shards not counted.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using harness::describe;
using harness::Outcome;
using Json = nlohmann::ordered_json;

Outcome run(std::vector<std::string> args) {
  args.insert(args.begin(), NQUEENS_BINARY);
  return harness::run_program(std::move(args));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Shard I of 5 of N = 12 counted into `folder` as slurm-shards.sh lays it out.
void count_shard(const fs::path& folder, int i, bool output = true) {
  const std::string stem = (folder / ("shard-" + std::to_string(i))).string();
  std::vector<std::string> args = {
      "count", "-n", "12", "-t", "1", "--shard", std::to_string(i) + "/5", "--checkpoint", stem + ".journal"};
  if (output) args.insert(args.end(), {"--output", stem + ".json"});
  const Outcome counted = run(args);
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
}

// The total of a shard counted apart, in a folder of its own: its entries' totals summed.
std::uint64_t shard_total(int i) {
  const fs::path apart = harness::fresh_test_directory("status-apart");
  count_shard(apart, i);
  std::uint64_t total = 0;
  std::ifstream file(apart / ("shard-" + std::to_string(i) + ".json"));
  for (std::string line; std::getline(file, line);) {
    if (line.rfind("{\"id\"", 0) != 0) continue;
    if (line.back() == ',') line.pop_back();
    total += Json::parse(line)["total"].get<std::uint64_t>();
  }
  fs::remove_all(apart);
  return total;
}

TEST(StatusCli, ShardsInEveryStateTheirUnitsAndTheCommandsThatFinish) {
  const fs::path folder = harness::fresh_test_directory("status");
  count_shard(folder, 1);
  count_shard(folder, 2);
  count_shard(folder, 3, false);  // a journal and no shard file: interrupted
  std::ofstream(folder / "shard-4.log") << "[t] shard 4/5 of N=12 on n1, start 0\n"
                                        << "[t] shard 4/5 failed (exit 3); once its cause is fixed, run it again\n";
  const Outcome status = run({"status", "--format", "json", folder.string()});
  ASSERT_EQ(status.exit_code, 1) << describe(status);  // unfinished
  const Json json = Json::parse(status.out);
  EXPECT_EQ(json["shards"], 5);
  EXPECT_EQ(json["shards_by_state"]["done"], "1-2");
  EXPECT_EQ(json["shards_by_state"]["interrupted"], "3");
  EXPECT_EQ(json["shards_by_state"]["failed"], "4");
  EXPECT_EQ(json["shards_by_state"]["missing"], "5");
  EXPECT_EQ(json["complete"], false);
  EXPECT_EQ(json["verified"], nullptr);
  EXPECT_FALSE(json.contains("total"));
  // Counted so far: N = 12's 14,200 less shards 4 and 5, counted apart.
  EXPECT_EQ(json["counted_total"].get<std::uint64_t>(), 14200 - shard_total(4) - shard_total(5));
  EXPECT_NE(json["remaining"], nullptr);  // two shards done: a measured estimate
  const std::string commands = json["commands"].dump();
  EXPECT_TRUE(contains(commands, "--shard I/5 --checkpoint " + folder.string() + "/shard-I.journal")) << commands;
  EXPECT_TRUE(contains(commands, "# for I in 3-5")) << commands;
  EXPECT_TRUE(contains(commands, "ARRAY=3-5 N=12 K=5")) << commands;

  const Outcome text = run({"status", folder.string()});
  EXPECT_EQ(text.exit_code, 1) << describe(text);
  EXPECT_TRUE(contains(text.out, "shard 4: [t] shard 4/5 failed (exit 3)")) << text.out;
  EXPECT_TRUE(contains(text.out, "(so far; not the total)")) << text.out;

  // Finished: the journal of shard 3 answers at once; then every shard is done, the total is the
  // run's and verified, and status exits 0.
  for (const int i : {3, 4, 5}) count_shard(folder, i);
  const Outcome done = run({"status", "--format", "json", folder.string()});
  ASSERT_EQ(done.exit_code, 0) << describe(done);
  const Json finished = Json::parse(done.out);
  EXPECT_EQ(finished["states"]["done"], 5);
  EXPECT_EQ(finished["total"], 14200);
  EXPECT_EQ(finished["verified"], true);
  EXPECT_TRUE(contains(finished["commands"].dump(), "nqueens merge --verify")) << finished["commands"].dump();
  fs::remove_all(folder);
}

TEST(StatusCli, ShardCountingNowIsRunning) {
  const fs::path folder = harness::fresh_test_directory("status");
  const std::string stem = (folder / "shard-1").string();
  fs::create_directories(folder / "capture");
  harness::Process counting({NQUEENS_BINARY, "count", "-n", "18", "-t", "1", "--engine", "dfs", "--shard", "1/2",
                             "--checkpoint", stem + ".journal", "--output", stem + ".json"},
                            harness::Options::captured_in(folder / "capture"));
  for (int tries = 0; tries < 400 && !fs::exists(stem + ".journal"); ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const Outcome status = run({"status", "--shards", "2", "--format", "json", folder.string()});
  const bool still_counting = !counting.ended();
  counting.signal(SIGTERM);
  counting.wait();
  ASSERT_TRUE(still_counting) << "the count ended before status read the folder";
  ASSERT_EQ(status.exit_code, 1) << describe(status);
  const Json json = Json::parse(status.out);
  EXPECT_EQ(json["shards_by_state"]["running"], "1");
  EXPECT_EQ(json["shards_by_state"]["missing"], "2");
  // Stopped, the same journal is no longer held: interrupted.
  const Json after = Json::parse(run({"status", "--shards", "2", "--format", "json", folder.string()}).out);
  EXPECT_EQ(after["shards_by_state"]["interrupted"], "1");
  fs::remove_all(folder);
}

// What a run killed outright while it wrote a file leaves (shard-2.journal.partial: a repair's,
// shard-1.json.partial: a shard file's) is named with the run that removes it; a FILE.partial
// a live process holds (flock, as every writer holds its own) is a write in progress, not named.
TEST(StatusCli, NamesTheTemporaryFilesAKilledRunLeft) {
  const fs::path folder = harness::fresh_test_directory("status");
  count_shard(folder, 1);
  count_shard(folder, 2, false);
  for (const char* name : {"shard-2.journal.partial", "shard-1.json.partial", "shard-3.json.partial"})
    std::ofstream(folder / name) << "nqueens-journal 3 cut short\n";
  const int holder = ::open((folder / "shard-3.json.partial").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  const Outcome text = run({"status", folder.string()});
  const Outcome json = run({"status", "--format", "json", folder.string()});
  ::close(holder);
  EXPECT_EQ(text.exit_code, 1) << describe(text);
  for (const char* name : {"shard-2.journal.partial", "shard-1.json.partial"}) {
    EXPECT_TRUE(contains(text.out, "left out: " + (folder / name).string() + ": left by a run killed while it wrote"))
        << describe(text);
    EXPECT_TRUE(contains(json.out, (folder / name).string())) << json.out;
  }
  EXPECT_TRUE(contains(text.out, "while it wrote shard-2.journal; the next run that writes it")) << text.out;
  EXPECT_FALSE(contains(text.out, "shard-3.json.partial")) << text.out;
  fs::remove_all(folder);
}

TEST(StatusCli, FolderOfNoRunIsBadInput) {
  const fs::path folder = harness::fresh_test_directory("status");
  const Outcome empty = run({"status", folder.string()});
  EXPECT_EQ(empty.exit_code, 2) << describe(empty);
  EXPECT_TRUE(contains(empty.err, "holds no shard file (*.json) or journal (*.journal) of nqueens")) << empty.err;
  const Outcome absent = run({"status", (folder / "absent").string()});
  EXPECT_EQ(absent.exit_code, 2) << describe(absent);
  fs::remove_all(folder);
}

}  // namespace
