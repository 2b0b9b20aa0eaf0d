// Damaged journals are judged and repaired, never thrown away. Finished journals of
// N = 12..15 (both engines) are damaged every way a disk or a hand can: every byte of a sample
// of lines flipped, cut at random offsets, lines repeated, garbage appended. check_journal()
// must classify each case, and a journal opened with --repair must keep a byte-for-byte copy
// of the damaged file and end, once its missing units are counted, at the exact OEIS total.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "join/join_plan.hpp"
#include "nqueens/files/check.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/oeis.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"

namespace {

namespace fs = std::filesystem;
using nqueens::FileCheck;
using nqueens::Journal;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The engine each N is checked with: both engines, alternating.
std::unique_ptr<nqueens::Engine> engine_for(int n) {
  nqueens::CountOptions options;
  options.engine = n % 2 == 0 && nqueens::join::unsupported_reason(n).empty() ? "join" : "dfs";
  return nqueens::make_engine(n, options);
}

// Where each line of a journal starts.
std::vector<std::size_t> line_starts(const std::string& bytes) {
  std::vector<std::size_t> starts = {0};
  for (std::size_t at = bytes.find('\n'); at + 1 < bytes.size(); at = bytes.find('\n', at + 1))
    starts.push_back(at + 1);
  return starts;
}

class DamagedJournal : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    const std::string name = testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("nqueens-check-" + std::to_string(getpid()) + "-" + std::to_string(GetParam()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    engine_ = engine_for(GetParam());
    path_ = dir_ / "run.journal";
    nqueens::Run(engine_for(GetParam()), nqueens::Selection::whole_run(), nqueens::JournalRequest{path_}).execute(2);
    finished_ = read_bytes(path_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes `damaged` as the journal, checks it, repairs it, counts what is left, and expects
  // the OEIS total and a backup equal to `damaged`. Returns what check said before the repair.
  FileCheck check_and_repair(const std::string& damaged) {
    write_bytes(path_, damaged);
    FileCheck check;
    bool header_damaged = false;
    try {
      check = nqueens::check_journal(damaged, "run.journal");
    } catch (const nqueens::JournalCorrupt&) {
      header_damaged = true;  // the run header itself: only --repair, knowing the run, reads on
    }
    {
      nqueens::Run session(engine_for(GetParam()), nqueens::Selection::whole_run(),
                           nqueens::JournalRequest{path_, true});
      session.execute(1);
      const nqueens::CountResult result = session.result(1, 0);
      const Journal& journal = *session.journal();
      EXPECT_TRUE(result.totals.total == *nqueens::oeis_total(GetParam())) << "a wrong total after the repair";
      if (journal.repaired()) {
        EXPECT_EQ(read_bytes(journal.repaired()->backup), damaged) << "the backup differs from the damaged file";
        fs::remove(journal.repaired()->backup);
      } else {
        EXPECT_FALSE(header_damaged || check.damaged_or_conflicting()) << "damage that was not repaired";
      }
    }
    EXPECT_TRUE(nqueens::check_journal(read_bytes(path_), "run.journal").whole()) << "not whole after the repair";
    if (header_damaged) check.damaged.push_back({1, "the run header is damaged"});
    return check;
  }

  fs::path dir_, path_;
  std::unique_ptr<nqueens::Engine> engine_;
  std::string finished_;
};

TEST_P(DamagedJournal, AFinishedJournalIsWhole) {
  const FileCheck check = nqueens::check_journal(finished_, "run.journal");
  EXPECT_TRUE(check.whole());
  EXPECT_EQ(check.sound, engine_->unit_count());
  EXPECT_TRUE(check.totals.total == *nqueens::oeis_total(GetParam()));
}

// A flipped byte anywhere in a record, its checksum or its newline is damage, never a record
// read with other counts (CRC-32 catches every error burst of up to 32 bits).
TEST_P(DamagedJournal, EveryFlippedByteOfASampleOfLinesIsDamageAndRepaired) {
  const std::vector<std::size_t> starts = line_starts(finished_);
  ASSERT_GT(starts.size(), 3u);
  for (const std::size_t line : {std::size_t{0}, starts.size() / 2, starts.size() - 1}) {
    const std::size_t end = line + 1 < starts.size() ? starts[line + 1] : finished_.size();
    // In the header, every one of its first 18 bytes ("nqueens-journal 3 ": one flipped bit
    // there made "not an nqueens journal" of it), then every fifth.
    for (std::size_t at = starts[line]; at < end; at += line == 0 && at >= 18 ? 5 : 1) {
      SCOPED_TRACE(testing::Message() << "line " << line + 1 << ", byte " << at - starts[line]);
      std::string damaged = finished_;
      damaged[at] = static_cast<char>(damaged[at] ^ 0x01);
      const FileCheck check = check_and_repair(damaged);
      EXPECT_TRUE(check.damaged_or_conflicting());
      EXPECT_FALSE(check.whole());
    }
  }
}

// A cut is a torn journal, not a damaged one: what is before it is sound, the rest is missing.
TEST_P(DamagedJournal, CutsAtRandomOffsetsAreIncompleteNotDamaged) {
  std::mt19937 random(static_cast<unsigned>(GetParam()));
  const std::size_t header_end = finished_.find('\n') + 1;
  std::uniform_int_distribution<std::size_t> offset(header_end, finished_.size() - 1);
  for (int cut = 0; cut < 20; ++cut) {
    const std::size_t at = offset(random);
    SCOPED_TRACE(testing::Message() << "cut at " << at);
    const FileCheck check = check_and_repair(finished_.substr(0, at));
    EXPECT_FALSE(check.damaged_or_conflicting());
    EXPECT_FALSE(check.missing.empty());
    EXPECT_EQ(check.sound + check.missing.size(), engine_->unit_count());
  }
}

TEST_P(DamagedJournal, RepeatedLinesAreHarmlessAndGarbageIsDamage) {
  const std::vector<std::size_t> starts = line_starts(finished_);
  const std::string third = finished_.substr(starts[2], starts[3] - starts[2]);
  const FileCheck repeated = check_and_repair(finished_ + third + third);
  EXPECT_TRUE(repeated.whole());
  EXPECT_EQ(repeated.repeated, 2u);

  const FileCheck garbage = check_and_repair(finished_ + "this is not a record\n");
  EXPECT_EQ(garbage.damaged.size(), 1u);
  EXPECT_TRUE(garbage.missing.empty());
  const FileCheck tail = check_and_repair(finished_ + std::string(300, 'x'));
  ASSERT_EQ(tail.damaged.size(), 1u);
  EXPECT_NE(tail.damaged[0].problem.find("bytes that are not a record"), std::string::npos);
}

// Two sound records of one unit with different counts: neither is used, and the unit is counted again.
TEST_P(DamagedJournal, ConflictingRecordsDropTheirUnit) {
  std::vector<nqueens::UnitCount> units = nqueens::scan_journal(finished_, "run.journal").units;
  nqueens::UnitCount changed = units.at(3);
  changed.tally.total += 8;
  const FileCheck check = check_and_repair(finished_ + nqueens::journal_record_line(engine_->header(), changed));
  EXPECT_EQ(check.conflicting, std::vector<std::size_t>{changed.id});
  EXPECT_EQ(check.missing, std::vector<std::size_t>{changed.id});
}

// The unit time check reports is the sum over the sound records, each unit once: a repeat with
// another time (the unit counted twice) is a harmless repeat and adds nothing.
TEST_P(DamagedJournal, UnitTimeIsTheSumOverTheSoundRecords) {
  const std::vector<nqueens::UnitCount> units = nqueens::scan_journal(finished_, "run.journal").units;
  std::uint64_t sum = 0;
  for (const nqueens::UnitCount& unit : units) sum += unit.microseconds;
  nqueens::UnitCount again = units.at(3);
  again.microseconds += 1000;
  const FileCheck check = check_and_repair(finished_ + nqueens::journal_record_line(engine_->header(), again));
  EXPECT_TRUE(check.whole());
  EXPECT_EQ(check.repeated, 1u);
  EXPECT_EQ(check.unit_time, (nqueens::UnitTime{sum}));
}

INSTANTIATE_TEST_SUITE_P(N12To15, DamagedJournal, testing::Values(12, 13, 14, 15));

}  // namespace
