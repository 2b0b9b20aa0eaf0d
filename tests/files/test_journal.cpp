// The checkpoint journal: what is appended comes back, a torn last line is dropped, and every
// other kind of damage or a journal of another run is refused with the file left byte for byte
// as it was.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "dfs/dfs_engine.hpp"
#include "dfs/kernel.hpp"
#include "dfs/split.hpp"
#include "files/file_io.hpp"
#include "nqueens/files/check.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "run/resume_engine.hpp"
#include "run/run.hpp"
#include "run/schedule.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nqueens::Journal;
using nqueens::JournalCorrupt;
using nqueens::JournalMismatch;
using nqueens::RunHeader;
using nqueens::Symmetry;
using nqueens::UnitCount;
using nqueens::WorkPlan;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

UnitCount counted(const WorkPlan& plan, std::size_t id) { return {id, nqueens::count_from(plan.units[id], plan.n)}; }

// A unit of this run with a time, as a worker reports it.
UnitCount timed(const WorkPlan& plan, std::size_t id, std::uint64_t microseconds) {
  UnitCount unit = counted(plan, id);
  unit.microseconds = microseconds;
  return unit;
}

class JournalTest : public testing::Test {
 protected:
  void SetUp() override {
    const std::string name = testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / ("nqueens-journal-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A journal of N = 10 holding its first `units` units.
  fs::path make_journal(std::size_t units) {
    const fs::path path = dir_ / "run.journal";
    Journal journal(path, header_);
    for (std::size_t id = 0; id < units; ++id) journal.append(counted(plan_, id));
    return path;
  }

  // A journal line for `unit` of this run with a correct checksum, as the journal writes it.
  std::string record_line(const UnitCount& unit) const { return nqueens::journal_record_line(header_, unit); }

  // Opening the file must throw `Error` and leave every byte as it was.
  template <typename Error>
  void expect_refused(const fs::path& path, const RunHeader& header, const std::string& message_part = "") {
    const std::string before = read_bytes(path);
    try {
      Journal journal(path, header);
      ADD_FAILURE() << "opened without complaint";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find(message_part), std::string::npos) << error.what();
    }
    EXPECT_EQ(read_bytes(path), before) << "the file was changed";
  }

  fs::path dir_;
  WorkPlan plan_ = nqueens::split(10, Symmetry::full);
  RunHeader header_ = nqueens::make_header(plan_);
};

// The lines spelled out by hand, not made by the writer's own functions, so that a field renamed,
// reordered or left out, or another format number, fails here instead of being echoed. A checksum
// is the CRC-32, in 8 lowercase hex digits, of the text before it: the header's own text, and a
// record's text after the run's identity line (the header's words from engine= on).
std::string crc_hex(const std::string& text, std::uint32_t before = 0) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(nqueens::crc32(text, before)));
  return hex;
}

// N = 10 split at depth 2 into 29 units; the fingerprint is of that unit list.
const std::string kIdentityOfN10 = "engine=dfs n=10 split_depth=2 symmetry=full units=29 fingerprint=04299b8b3905321d";

TEST_F(JournalTest, NewJournalHoldsOnlyTheHeader) {
  const std::string text = "nqueens-journal 4 version=" + std::string(nqueens::kVersion) + " " + kIdentityOfN10;
  EXPECT_EQ(read_bytes(make_journal(0)), text + " crc=" + crc_hex(text) + "\n");
}

TEST_F(JournalTest, ARecordLineHoldsTheUnitsCountsAndTimeBoundToItsRun) {
  const fs::path path = make_journal(0);
  const std::string header = read_bytes(path);
  {
    Journal journal(path, header_);
    journal.append(timed(plan_, 0, 4321));
  }
  const std::string text = "U 0 32 0 0 0 4 414 4321";  // id, total, orbits of 1/2/4/8, nodes, microseconds
  EXPECT_EQ(read_bytes(path), header + text + " " + crc_hex(text, nqueens::crc32(kIdentityOfN10 + "\n")) + "\n");
}

TEST_F(JournalTest, AppendedUnitsComeBackOnReopen) {
  const fs::path path = make_journal(7);
  Journal journal(path, header_);
  ASSERT_EQ(journal.recorded().size(), 7u);
  for (std::size_t id = 0; id < 7; ++id) EXPECT_EQ(journal.recorded()[id], counted(plan_, id));
  EXPECT_EQ(journal.dropped_bytes(), 0u);
  EXPECT_EQ(journal.units(), 7u);
}

TEST_F(JournalTest, UnitsFromManyWorkerThreadsAllArrive) {
  const WorkPlan plan = nqueens::split(12, Symmetry::mirror);
  const RunHeader header = nqueens::make_header(plan);
  const fs::path path = dir_ / "threads.journal";
  {
    Journal journal(path, header);
    nqueens::run_units(*nqueens::make_dfs_engine(plan), 4, [&journal](std::size_t id, const nqueens::Tally& t) {
      journal.append({id, t});
    });
  }
  Journal reopened(path, header);
  nqueens::Totals sum;
  std::set<std::size_t> ids;
  for (const UnitCount& unit : reopened.recorded()) {
    EXPECT_EQ(unit, counted(plan, unit.id));
    ids.insert(unit.id);
    sum += unit.tally;
  }
  EXPECT_EQ(ids.size(), plan.units.size());
  EXPECT_TRUE(sum.total == 14200);
}

TEST_F(JournalTest, TornLastRecordIsDroppedAndTheFileRepaired) {
  const fs::path path = make_journal(5);
  const std::string sound = read_bytes(path);
  const std::string torn = record_line(counted(plan_, 5)).substr(0, 9);
  write_bytes(path, sound + torn);
  {
    Journal journal(path, header_);
    EXPECT_EQ(journal.recorded().size(), 5u);
    EXPECT_EQ(journal.dropped_bytes(), torn.size());
    EXPECT_EQ(read_bytes(path), sound);  // cut back to the last complete record
    journal.append(counted(plan_, 5));
  }
  Journal again(path, header_);
  EXPECT_EQ(again.recorded().size(), 6u);
  EXPECT_EQ(again.dropped_bytes(), 0u);
}

TEST_F(JournalTest, ZerosLeftByACrashAreATornRecord) {
  const fs::path path = make_journal(3);
  write_bytes(path, read_bytes(path) + std::string(40, '\0'));
  Journal journal(path, header_);
  EXPECT_EQ(journal.recorded().size(), 3u);
  EXPECT_EQ(journal.dropped_bytes(), 40u);
}

// More than 16 MiB of zeros after the records was refused as too large, with no advice (issue
// 22.4): zeros at the end are a torn tail whatever their length, and are never read into memory.
TEST_F(JournalTest, ZerosOfAnyLengthAtTheEndAreATornTail) {
  const fs::path path = make_journal(3);
  const std::string sound = read_bytes(path);
  const std::uintmax_t zeros = std::uintmax_t{40} << 20;
  fs::resize_file(path, sound.size() + zeros);  // sparse where the file system allows
  std::size_t zero_tail = 0;
  EXPECT_EQ(nqueens::read_journal(path, &zero_tail), sound);
  EXPECT_EQ(zero_tail, zeros);
  {
    Journal journal(path, header_);
    EXPECT_EQ(journal.recorded().size(), 3u);
    EXPECT_EQ(journal.dropped_bytes(), zeros);
  }
  EXPECT_EQ(read_bytes(path), sound);
  // Written zeros, not a hole, read a block at a time: the same.
  write_bytes(path, sound + record_line(counted(plan_, 3)).substr(0, 7) + std::string(std::size_t{20} << 20, '\0'));
  Journal journal(path, header_);
  EXPECT_EQ(journal.recorded().size(), 3u);
  EXPECT_EQ(read_bytes(path), sound);
}

TEST_F(JournalTest, TornHeaderStartsTheJournalAfresh) {
  const fs::path path = dir_ / "torn-header.journal";
  write_bytes(path, nqueens::journal_header_line(header_).substr(0, 30));
  Journal journal(path, header_);
  EXPECT_TRUE(journal.recorded().empty());
  EXPECT_EQ(journal.dropped_bytes(), 30u);
  EXPECT_EQ(read_bytes(path), nqueens::journal_header_line(header_));
}

TEST_F(JournalTest, DamagedRecordIsRefusedUntouched) {
  const fs::path path = make_journal(6);
  std::string bytes = read_bytes(path);
  const std::size_t third = bytes.find("\nU 2 ") + 5;  // a digit of unit 2's total
  bytes[third] = bytes[third] == '9' ? '8' : static_cast<char>(bytes[third] + 1);
  write_bytes(path, bytes);
  expect_refused<JournalCorrupt>(path, header_, "line 4: the record fails its checksum");
}

TEST_F(JournalTest, DamagedLastCompleteRecordIsNotTakenForATornOne) {
  const fs::path path = make_journal(4);
  std::string bytes = read_bytes(path);
  bytes[bytes.size() - 3] = bytes[bytes.size() - 3] == 'a' ? 'b' : 'a';  // inside the last checksum
  write_bytes(path, bytes);
  expect_refused<JournalCorrupt>(path, header_, "line 5");
}

TEST_F(JournalTest, DamagedHeaderIsRefusedUntouched) {
  const fs::path path = make_journal(2);
  std::string bytes = read_bytes(path);
  bytes.replace(bytes.find("units="), 6, "unitz=");
  write_bytes(path, bytes);
  expect_refused<JournalCorrupt>(path, header_, "line 1");
}

TEST_F(JournalTest, ForeignLinesAndLongTailsAreRefusedUntouched) {
  const fs::path path = make_journal(3);
  const std::string sound = read_bytes(path);
  write_bytes(path, sound + "hello\n" + record_line(counted(plan_, 3)));
  expect_refused<JournalCorrupt>(path, header_, "line 5");
  write_bytes(path, sound + std::string(300, '1'));  // no newline, but far longer than a record
  expect_refused<JournalCorrupt>(path, header_, "not a record");
  write_bytes(path, sound + "U 3 x");  // a character no record holds
  expect_refused<JournalCorrupt>(path, header_, "not a record");
}

TEST_F(JournalTest, ConflictingDuplicateAndOutOfRangeIdsAreRefused) {
  const fs::path path = make_journal(3);
  const std::string sound = read_bytes(path);
  UnitCount changed = counted(plan_, 1);
  changed.tally.total += 1;
  write_bytes(path, sound + record_line(changed));
  expect_refused<JournalCorrupt>(path, header_, "unit 1 is recorded twice with different counts");
  write_bytes(path, sound + record_line({plan_.units.size(), {}}));
  expect_refused<JournalCorrupt>(path, header_, "out of range");
}

TEST_F(JournalTest, RepeatedIdenticalRecordCountsOnce) {
  const fs::path path = make_journal(3);
  write_bytes(path, read_bytes(path) + record_line(counted(plan_, 1)));
  Journal journal(path, header_);
  EXPECT_EQ(journal.recorded().size(), 3u);
}

TEST_F(JournalTest, JournalOfAnotherRunIsRefusedUntouched) {
  const fs::path path = make_journal(4);
  expect_refused<JournalMismatch>(path, nqueens::make_header(nqueens::split(11, Symmetry::full)),
                                  "N is 10 there, 11 here");
  expect_refused<JournalMismatch>(path, nqueens::make_header(nqueens::split(10, Symmetry::mirror)),
                                  "the setting --symmetry is full there, mirror here");
  expect_refused<JournalMismatch>(path, nqueens::make_header(nqueens::split(10, Symmetry::full, 3)),
                                  "the setting --split-depth is 2 there, 3 here");
  RunHeader other_units = header_;
  other_units.fingerprint ^= 1;
  expect_refused<JournalMismatch>(path, other_units, "fingerprint");
}

TEST_F(JournalTest, FileThatIsNoJournalIsRefusedUntouched) {
  const fs::path path = dir_ / "results.csv";
  write_bytes(path, "n,total\n8,92\n");
  expect_refused<JournalMismatch>(path, header_, "is not an nqueens journal");
}

TEST_F(JournalTest, OneProcessAtATime) {
  const fs::path path = make_journal(1);
  Journal first(path, header_);
  EXPECT_THROW(Journal second(path, header_), std::runtime_error);
}

// A write whose target is a journal being counted is refused, the journal left as it was: a
// shard file renamed over it left the count appending to a deleted file.
TEST_F(JournalTest, AJournalBeingCountedIsNoWritesTarget) {
  const fs::path path = make_journal(3);
  Journal journal(path, header_);
  const std::string before = read_bytes(path);
  try {
    nqueens::detail::write_file_atomically(path, "{}\n");
    ADD_FAILURE() << "wrote over a live journal";
  } catch (const nqueens::detail::FileInUse& busy) {
    EXPECT_NE(std::string(busy.what()).find("the journal of a count running in another nqueens process"),
              std::string::npos)
        << busy.what();
  }
  EXPECT_EQ(read_bytes(path), before);
  EXPECT_FALSE(fs::exists(nqueens::detail::temporary_path(path)));
  journal.append(counted(plan_, 3));
  EXPECT_EQ(journal.units(), 4u);
}

// A journal is not started under a name another process is writing (it holds FILE.partial and
// would rename its file over the journal): refused, and the file it would have created is not left.
TEST_F(JournalTest, AJournalIsNotStartedWhereAnotherWriteWillLand) {
  const fs::path path = dir_ / "run.journal";
  nqueens::detail::AtomicFile writer(path);
  try {
    Journal journal(path, header_);
    ADD_FAILURE() << "opened a journal another process is about to replace";
  } catch (const nqueens::detail::FileInUse& busy) {
    EXPECT_NE(std::string(busy.what()).find("is being written by another nqueens process"), std::string::npos)
        << busy.what();
  }
  EXPECT_FALSE(fs::exists(path));
}

// A repair killed between its backup and its rewrite left the backup; the next repair of the
// same bytes keeps that one instead of making a second identical FILE.damaged.1. A backup of
// other bytes is kept apart as before.
TEST_F(JournalTest, ARepairKilledAfterItsBackupLeavesNoSecondCopy) {
  const fs::path path = make_journal(2);
  const std::string damaged = read_bytes(path) + "damage\n" + record_line(counted(plan_, 2));
  write_bytes(path, damaged);
  const fs::path backup = dir_ / "run.journal.damaged";
  write_bytes(backup, damaged);
  {
    Journal journal(path, header_, true);
    ASSERT_TRUE(journal.repaired().has_value());
    EXPECT_EQ(journal.repaired()->backup, backup);
  }
  EXPECT_EQ(read_bytes(backup), damaged);
  EXPECT_FALSE(fs::exists(dir_ / "run.journal.damaged.1"));

  write_bytes(path, damaged + "more damage\n");
  Journal again(path, header_, true);
  ASSERT_TRUE(again.repaired().has_value());
  EXPECT_EQ(again.repaired()->backup, dir_ / "run.journal.damaged.1");
  EXPECT_EQ(read_bytes(dir_ / "run.journal.damaged.1"), damaged + "more damage\n");
}

// --repair rewrites its own journal, whose lock it holds itself.
TEST_F(JournalTest, RepairRewritesTheJournalItHolds) {
  const fs::path path = make_journal(2);
  write_bytes(path, read_bytes(path) + "damage\n" + record_line(counted(plan_, 2)));
  Journal journal(path, header_, true);
  ASSERT_TRUE(journal.repaired().has_value());
  EXPECT_EQ(journal.recorded().size(), 3u);
  EXPECT_THROW(Journal second(path, header_), nqueens::detail::FileInUse);
}

TEST_F(JournalTest, SealedJournalIgnoresLaterAppends) {
  const fs::path path = make_journal(0);
  {
    Journal journal(path, header_);
    journal.append(counted(plan_, 0));
    journal.seal();
    journal.append(counted(plan_, 1));
    EXPECT_EQ(journal.units(), 1u);
  }
  Journal reopened(path, header_);
  EXPECT_EQ(reopened.recorded().size(), 1u);
}

// ---- records and headers bound to their run ---------------------------------------

// Records of an N = 11 journal, each with a sound line checksum, spliced into an N = 10 journal
// resumed to a wrong total: each record's checksum now covers the run it belongs to.
TEST_F(JournalTest, RecordsSplicedFromAnotherRunAreRefused) {
  const WorkPlan eleven = nqueens::split(11, Symmetry::full);
  const RunHeader other = nqueens::make_header(eleven);
  const fs::path path = make_journal(3);
  const std::string spliced = nqueens::journal_record_line(other, counted(eleven, 3));
  write_bytes(path, read_bytes(path) + spliced);
  expect_refused<JournalCorrupt>(path, header_, "line 5: the record fails its checksum");
  // The same record, bound to this run, is accepted: only the binding differs.
  write_bytes(path,
              read_bytes(path).substr(0, read_bytes(path).size() - spliced.size()) + record_line(counted(eleven, 3)));
  EXPECT_NO_THROW(Journal(path, header_));
}

// A header edited to name another run (and given a checksum to match) no longer fits any record.
TEST_F(JournalTest, HeaderEditedToAnotherRunFailsEveryRecord) {
  const fs::path path = make_journal(2);
  const std::string bytes = read_bytes(path);
  RunHeader edited = header_;
  edited.n = 11;
  edited.fingerprint = nqueens::make_header(nqueens::split(11, Symmetry::full)).fingerprint;
  edited.unit_count = header_.unit_count;
  write_bytes(path, nqueens::journal_header_line(edited) + bytes.substr(bytes.find('\n') + 1));
  const nqueens::JournalScan scan = nqueens::scan_journal(read_bytes(path), "edited");
  EXPECT_TRUE(scan.units.empty());
  EXPECT_EQ(scan.damaged.size(), 2u);
  expect_refused<JournalCorrupt>(path, edited, "line 2: the record fails its checksum");
}

// ---- damaged headers, line ends and first bytes ------------------------------

// The header with one bit of byte `at` flipped.
std::string with_header_bit_flipped(std::string bytes, std::size_t at, int bit = 0) {
  bytes[at] = static_cast<char>(bytes[at] ^ (1 << bit));
  return bytes;
}

// `count -n 16 --checkpoint F --repair` on an N = 17 journal with one flipped header bit exited 0
// after "kept 0 sound records, dropped 183481": the repair emptied another run's journal. Its
// records bind their run: none checks out under this one, so it is refused, the file untouched.
TEST_F(JournalTest, RepairOfAHeaderDamagedJournalUnderAnotherRunIsRefusedUntouched) {
  const fs::path path = make_journal(6);
  const std::string damaged = with_header_bit_flipped(read_bytes(path), read_bytes(path).find(" fingerprint=") + 14);
  write_bytes(path, damaged);
  const RunHeader eleven = nqueens::make_header(nqueens::split(11, Symmetry::full));
  for (const bool repair : {true, false}) {
    SCOPED_TRACE(testing::Message() << "repair " << repair);
    try {
      Journal journal(path, eleven, repair);
      ADD_FAILURE() << "opened under another run";
    } catch (const JournalMismatch& refused) {
      const std::string what = refused.what();
      EXPECT_NE(what.find("its run header is damaged, and none of its 6 records checks out under this run"),
                std::string::npos)
          << what;
      // Its own run, recovered from the one-bit damage and its records, is named.
      EXPECT_NE(what.find("belongs to another run (the journal of `nqueens count -n 10 --engine dfs"),
                std::string::npos)
          << what;
    }
    EXPECT_EQ(read_bytes(path), damaged) << "the file was changed";
    EXPECT_FALSE(fs::exists(path.string() + ".damaged"));
  }
  // Under its own run, the repair keeps every record.
  Journal journal(path, header_, true);
  ASSERT_TRUE(journal.repaired());
  EXPECT_EQ(journal.repaired()->kept, 6u);
  EXPECT_EQ(journal.recorded().size(), 6u);
}

// One flipped bit in the first 18 bytes made "not an nqueens journal" of a journal: refused by
// count, check and --repair alike. Such a file is a journal whose header is damaged.
TEST_F(JournalTest, AFlippedBitInTheFirstBytesIsADamagedHeader) {
  const fs::path path = make_journal(5);
  const std::string sound = read_bytes(path);
  for (std::size_t at = 0; at < 18; ++at)
    for (const int bit : {0, 5}) {
      SCOPED_TRACE(testing::Message() << "byte " << at << ", bit " << bit);
      const std::string damaged = with_header_bit_flipped(sound, at, bit);
      EXPECT_TRUE(nqueens::looks_like_journal(damaged));
      // check recovers the run: the flipped bit is found by the header's own checksum.
      const nqueens::FileCheck check = nqueens::check_journal(damaged, "j");
      EXPECT_EQ(check.header, header_);
      EXPECT_EQ(check.sound, 5u);
      ASSERT_EQ(check.damaged.size(), 1u);
      EXPECT_EQ(check.damaged[0].line, 1u);
      write_bytes(path, damaged);
      expect_refused<JournalCorrupt>(path, header_, "line 1: the run header fails its checksum");
      Journal journal(path, header_, true);
      EXPECT_EQ(journal.recorded().size(), 5u);
      EXPECT_EQ(read_bytes(path), sound);
      fs::remove(journal.repaired()->backup);
    }
  EXPECT_FALSE(nqueens::looks_like_journal("n,total\n8,92\n"));
  EXPECT_FALSE(nqueens::looks_like_journal("nqueens-shard 3 and more"));
}

// A journal rewritten with CRLF line ends kept none of its records (0 of 3,300): both line ends
// are read, and the journal resumes with every record.
TEST_F(JournalTest, CrlfLineEndsAreLineEnds) {
  const fs::path path = make_journal(7);
  std::string crlf;
  for (const char c : read_bytes(path)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  write_bytes(path, crlf);
  const nqueens::FileCheck check = nqueens::check_journal(crlf, "crlf.journal");
  EXPECT_TRUE(check.damaged.empty());
  EXPECT_EQ(check.sound, 7u);
  {
    Journal journal(path, header_);
    EXPECT_EQ(journal.recorded().size(), 7u);
    EXPECT_EQ(journal.dropped_bytes(), 0u);
    journal.append(counted(plan_, 7));
  }
  Journal again(path, header_);
  EXPECT_EQ(again.recorded().size(), 8u);
  // A record torn after its CR is a torn record, not damage.
  write_bytes(path, crlf + record_line(counted(plan_, 9)).substr(0, 6) + "\r");
  EXPECT_EQ(nqueens::scan_journal(read_bytes(path), "j").tail_damaged, false);
}

// ---- journals of older formats: refused in one line, never changed -------------------------

// A journal of a format that development builds wrote before the first release, built by hand:
// its header line and one record, spelled and checksummed as those builds did. Format 1 had no
// engine in its header and checked each record on its own text; format 2 bound each record to
// its run but had no unit time.
std::string older_journal(int format, const RunHeader& header, const UnitCount& unit) {
  const std::string run = format == 1 ? "version=" + header.version + " n=" + std::to_string(header.n) +
                                            " symmetry=" + header.settings.at("symmetry") +
                                            " split_depth=" + header.settings.at("split-depth") +
                                            " units=" + std::to_string(header.unit_count) +
                                            " fingerprint=" + nqueens::fingerprint_hex(header.fingerprint)
                                      : nqueens::header_text(header);
  const std::string head = "nqueens-journal " + std::to_string(format) + " " + run;
  const nqueens::Tally& t = unit.tally;
  std::string record = "U";
  for (const std::uint64_t field :
       {std::uint64_t{unit.id}, t.total, t.orbits[0], t.orbits[1], t.orbits[2], t.orbits[3], t.nodes}) {
    record += ' ';
    record += std::to_string(field);
  }
  const std::uint32_t bound = format == 1 ? 0 : nqueens::crc32(nqueens::run_identity(header) + "\n");
  return head + " crc=" + nqueens::checksum_hex(nqueens::crc32(head)) + "\n" + record + " " +
         nqueens::checksum_hex(nqueens::crc32(record, bound)) + "\n";
}

// What `read` throws as JournalMismatch; empty when it throws nothing.
template <typename Read>
std::string mismatch_of(Read read) {
  try {
    read();
  } catch (const JournalMismatch& refused) {
    return refused.what();
  }
  return {};
}

// A journal of format 3 as it was written: the fixed fields symmetry and split_depth in its
// header (full and 0 for an engine without settings), each record bound to them.
std::string format3_journal(const RunHeader& header, const std::vector<UnitCount>& units) {
  const std::string fields = header.settings.empty() ? "symmetry=full split_depth=0"
                                                     : "symmetry=" + header.settings.at("symmetry") +
                                                           " split_depth=" + header.settings.at("split-depth");
  const std::string identity = "engine=" + header.engine + " n=" + std::to_string(header.n) + " " + fields +
                               " units=" + std::to_string(header.unit_count) +
                               " fingerprint=" + nqueens::fingerprint_hex(header.fingerprint);
  const std::string head = "nqueens-journal 3 version=0.1.0 " + identity;
  std::string bytes = head + " crc=" + crc_hex(head) + "\n";
  for (const UnitCount& unit : units) {
    const std::string text = nqueens::unit_record_text(unit);
    bytes += text + " " + crc_hex(text, nqueens::crc32(identity + "\n")) + "\n";
  }
  return bytes;
}

// Format 3 is read, its fields into the run's settings, its records under the run as format 3
// bound them; a run that resumes it rewrites it in this build's format, records and all.
TEST_F(JournalTest, Format3JournalsAreReadAndRewrittenInThisFormatWhenResumed) {
  const std::vector<UnitCount> units = {timed(plan_, 0, 11), timed(plan_, 5, 22)};
  const std::string bytes = format3_journal(header_, units);
  const nqueens::JournalScan scan = nqueens::scan_journal(bytes, "old.journal", &header_);
  EXPECT_TRUE(scan.sound());
  EXPECT_EQ(scan.format, 3);
  EXPECT_EQ(scan.header, header_);
  EXPECT_EQ(scan.units, units);
  EXPECT_EQ(nqueens::check_journal(bytes, "old.journal").sound, 2u);
  // A count edited fails its checksum under format 3's binding too.
  std::string edited = bytes;
  edited.replace(edited.find("\nU 0 ") + 5, 2, "33");
  EXPECT_EQ(nqueens::scan_journal(edited, "old.journal", &header_).damaged.size(), 1u);

  const fs::path path = dir_ / "old.journal";
  write_bytes(path, bytes);
  {
    Journal journal(path, header_);
    EXPECT_EQ(journal.recorded(), units);
    journal.append(timed(plan_, 7, 33));
  }
  EXPECT_TRUE(read_bytes(path).starts_with("nqueens-journal 4 ")) << read_bytes(path);
  Journal again(path, header_);
  EXPECT_EQ(again.recorded().size(), 3u);

  // An engine that takes no settings wrote symmetry=full split_depth=0: no settings.
  nqueens::CountOptions join;
  join.engine = "join";
  const RunHeader joined = nqueens::make_engine(12, join)->header();
  const std::vector<UnitCount> join_units = {{3, {4, {4, 0, 0, 0}, 9}, 17}};
  const nqueens::JournalScan read = nqueens::scan_journal(format3_journal(joined, join_units), "join.journal");
  EXPECT_TRUE(read.header.settings.empty());
  EXPECT_EQ(read.header, joined);
  EXPECT_EQ(read.units, join_units);
}

TEST_F(JournalTest, OlderFormatsAreRefusedInOneLineAndLeftAsTheyAre) {
  const fs::path path = dir_ / "old.journal";
  for (const int format : {1, 2}) {
    SCOPED_TRACE(testing::Message() << "format " << format);
    const std::string bytes = older_journal(format, header_, counted(plan_, 0));
    const std::string line =
        path.string() + ": a format " + std::to_string(format) +
        " journal, written by a development build of nqueens; this build reads formats 3 and 4 only: "
        "count the run again";
    write_bytes(path, bytes);
    for (const bool repair : {false, true}) {
      EXPECT_EQ(mismatch_of([&] { Journal journal(path, header_, repair); }), line) << "repair " << repair;
      EXPECT_EQ(read_bytes(path), bytes) << "the file was changed";
    }
    EXPECT_EQ(mismatch_of([&] { nqueens::read_journal(path); }), line);
    EXPECT_EQ(mismatch_of([&] { nqueens::scan_journal(bytes, path.string(), &header_); }), line);
    EXPECT_EQ(mismatch_of([&] { nqueens::check_journal(bytes, path.string()); }), line);
    // A header cut short (the build that wrote it died while writing it) is no header of this
    // build's to write afresh: the same line, the file as it was.
    const std::string torn = bytes.substr(0, 30);
    write_bytes(path, torn);
    EXPECT_EQ(mismatch_of([&] { Journal journal(path, header_); }), line);
    EXPECT_EQ(read_bytes(path), torn);
  }
  EXPECT_FALSE(fs::exists(dir_ / "old.journal.damaged"));
  // Another number is no format at all.
  std::string other = "nqueens-journal 5 " + nqueens::header_text(header_);
  other += " crc=" + nqueens::checksum_hex(nqueens::crc32(other)) + "\n";
  EXPECT_NE(mismatch_of([&] { nqueens::scan_journal(other, "j"); }).find("a format this build does not read"),
            std::string::npos);
}

// ---- the time of each unit ------------------------------------------------------

TEST_F(JournalTest, EachUnitsTimeComesBackAndIsCoveredByItsChecksum) {
  const fs::path path = dir_ / "timed.journal";
  {
    Journal journal(path, header_);
    journal.append(timed(plan_, 0, 0));
    journal.append(timed(plan_, 1, 123456789));
    journal.append(timed(plan_, 2, 7));
  }
  const std::string bytes = read_bytes(path);
  EXPECT_TRUE(bytes.starts_with("nqueens-journal 4 ")) << bytes;
  EXPECT_NE(bytes.find(" 123456789 "), std::string::npos) << bytes;
  {
    Journal reopened(path, header_);
    ASSERT_EQ(reopened.recorded().size(), 3u);
    EXPECT_EQ(reopened.recorded()[0].microseconds, 0u);
    EXPECT_EQ(reopened.recorded()[1].microseconds, 123456789u);
    EXPECT_EQ(reopened.recorded()[2].microseconds, 7u);
  }
  std::string edited = bytes;
  edited.replace(edited.find(" 123456789 "), 11, " 123456780 ");
  write_bytes(path, edited);
  expect_refused<JournalCorrupt>(path, header_, "line 3: the record fails its checksum");
}

// Two records of one unit with equal counts agree, whatever their times (a unit counted twice).
TEST_F(JournalTest, RecordsWithEqualCountsAndOtherTimesAreRepeats) {
  EXPECT_EQ(timed(plan_, 1, 5), timed(plan_, 1, 9));
  const fs::path path = make_journal(3);
  write_bytes(path, read_bytes(path) + record_line(timed(plan_, 1, 5)) + record_line(timed(plan_, 1, 9)));
  const nqueens::JournalScan scan = nqueens::scan_journal(read_bytes(path), "journal");
  EXPECT_TRUE(scan.sound());
  EXPECT_EQ(scan.repeated, 2u);
  EXPECT_TRUE(scan.conflicting.empty());
  Journal journal(path, header_);
  EXPECT_EQ(journal.recorded().size(), 3u);
}

// A session resumed from a journal sums the time of every unit, replayed or counted now.
TEST_F(JournalTest, ResumedSessionSumsTheTimeOfEveryUnit) {
  const fs::path path = dir_ / "timed.journal";
  {
    Journal journal(path, header_);
    for (std::size_t id = 0; id < 4; ++id) journal.append(timed(plan_, id, 1000 * id + 7));
  }
  nqueens::Run session(nqueens::make_dfs_engine(plan_), nqueens::Selection::whole_run(), nqueens::JournalRequest{path});
  session.execute(2);
  const nqueens::CountResult result = session.result(2, 0);
  std::uint64_t sum = 0;
  for (const UnitCount& unit : session.units()) sum += unit.microseconds;
  EXPECT_EQ(result.unit_microseconds, sum);
  const std::uint64_t replayed = 7 + 1007 + 2007 + 3007;
  EXPECT_EQ(session.unit_time_here(), (nqueens::UnitTime{sum - replayed}));
}

// ---- a disk that fills up (a write that fails part way) ---------------------------------------

// How many more bytes the disk takes before write(2) fails with ENOSPC; a write that does not
// fit is cut short first, as on a full file system.
std::size_t disk_room = 0;

ssize_t write_to_a_filling_disk(int fd, const void* data, std::size_t size) {
  if (disk_room == 0) {
    errno = ENOSPC;
    return -1;
  }
  const ssize_t wrote = ::write(fd, data, std::min(size, disk_room));
  if (wrote > 0) disk_room -= static_cast<std::size_t>(wrote);
  return wrote;
}

// Puts the filling disk in place of write(2) for one scope.
class FillingDisk {
 public:
  explicit FillingDisk(std::size_t room) : previous_(nqueens::detail::replace_write_call(write_to_a_filling_disk)) {
    disk_room = room;
  }
  ~FillingDisk() { nqueens::detail::replace_write_call(previous_); }
  FillingDisk(const FillingDisk&) = delete;
  FillingDisk& operator=(const FillingDisk&) = delete;

 private:
  nqueens::detail::WriteCall previous_;
};

// A short write on a full disk left its fragment mid-file, the next worker's whole line went
// after it, and the next run refused the journal (line 96 read "U 2 1250904 0 0 0
// 156U 65 513720 ...").
TEST_F(JournalTest, AFailedAppendLeavesOnlyWholeRecords) {
  const fs::path path = make_journal(3);
  const std::string sound = read_bytes(path);
  {
    Journal journal(path, header_);
    {
      const FillingDisk full(10);
      EXPECT_THROW(journal.append(counted(plan_, 3)), std::runtime_error);
    }
    EXPECT_EQ(read_bytes(path), sound) << "the fragment of the failed line is still there";
    journal.append(counted(plan_, 4));  // the disk has room again
  }
  Journal reopened(path, header_);
  EXPECT_EQ(reopened.dropped_bytes(), 0u);
  ASSERT_EQ(reopened.recorded().size(), 4u);
  EXPECT_EQ(reopened.recorded().back(), counted(plan_, 4));
}

TEST_F(JournalTest, AFailedAppendSaysWhy) {
  const fs::path path = make_journal(1);
  Journal journal(path, header_);
  const FillingDisk full(0);
  try {
    journal.append(counted(plan_, 1));
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("No space left on device"), std::string::npos) << error.what();
  }
}

// ---- batches (nqueens-mpi's rank 0 journals each batch of units it receives) --------------------

std::size_t write_calls = 0;

ssize_t counted_write(int fd, const void* data, std::size_t size) {
  ++write_calls;
  return ::write(fd, data, size);
}

// Counts write(2) calls for one scope.
class CountedWrites {
 public:
  CountedWrites() : previous_(nqueens::detail::replace_write_call(counted_write)) { write_calls = 0; }
  ~CountedWrites() { nqueens::detail::replace_write_call(previous_); }
  CountedWrites(const CountedWrites&) = delete;
  CountedWrites& operator=(const CountedWrites&) = delete;

 private:
  nqueens::detail::WriteCall previous_;
};

TEST_F(JournalTest, ABatchIsOneWriteOfTheSameLinesAsSingleAppends) {
  std::vector<UnitCount> batch;
  for (const std::size_t id : {4, 0, 7, 2}) batch.push_back(timed(plan_, id, 10 * id + 1));
  const fs::path one_by_one = dir_ / "single.journal";
  {
    Journal journal(one_by_one, header_);
    for (const UnitCount& unit : batch) journal.append(unit);
  }
  const fs::path path = make_journal(0);
  {
    Journal journal(path, header_);
    const CountedWrites writes;
    journal.append(std::span<const UnitCount>(batch));
    journal.append(std::span<const UnitCount>());  // nothing: no write
    EXPECT_EQ(write_calls, 1u);
    EXPECT_EQ(journal.units(), 4u);
  }
  EXPECT_EQ(read_bytes(path), read_bytes(one_by_one));
  Journal reopened(path, header_);
  EXPECT_EQ(reopened.recorded(), batch);
}

// A unit journaled twice (a batch sent again, or overlapping another) is one unit: the replay
// keeps its first record and counts the others as repeats.
TEST_F(JournalTest, AUnitInTwoBatchesOrTwiceInOneIsReplayedOnce) {
  const fs::path path = make_journal(0);
  const std::vector<UnitCount> first = {timed(plan_, 0, 5), timed(plan_, 1, 6), timed(plan_, 1, 6)};
  const std::vector<UnitCount> second = {timed(plan_, 1, 9), timed(plan_, 2, 7), timed(plan_, 0, 5)};
  {
    Journal journal(path, header_);
    journal.append(std::span<const UnitCount>(first));
    journal.append(std::span<const UnitCount>(second));
  }
  const nqueens::JournalScan scan = nqueens::scan_journal(read_bytes(path), "batches");
  EXPECT_TRUE(scan.sound());
  EXPECT_EQ(scan.repeated, 3u);
  Journal reopened(path, header_);
  const std::vector<UnitCount> expected = {first[0], first[1], second[1]};
  EXPECT_EQ(reopened.recorded(), expected);
}

// A batch that fails part way leaves only whole records, as a single append does: the part
// written is cut off, none of the batch is in the file, and the next batch lands after the last
// whole record.
TEST_F(JournalTest, AFailedBatchLeavesOnlyWholeRecords) {
  const fs::path path = make_journal(3);
  const std::string sound = read_bytes(path);
  const std::vector<UnitCount> batch = {counted(plan_, 3), counted(plan_, 4), counted(plan_, 5)};
  {
    Journal journal(path, header_);
    {
      const FillingDisk full(record_line(batch[0]).size() + 5);  // one record and a piece of the next
      EXPECT_THROW(journal.append(std::span<const UnitCount>(batch)), std::runtime_error);
    }
    EXPECT_EQ(read_bytes(path), sound) << "a part of the failed batch is still there";
    EXPECT_EQ(journal.units(), 3u);
    journal.append(std::span<const UnitCount>(batch).subspan(1));
  }
  Journal reopened(path, header_);
  EXPECT_EQ(reopened.dropped_bytes(), 0u);
  ASSERT_EQ(reopened.recorded().size(), 5u);
  EXPECT_EQ(reopened.recorded()[3], batch[1]);
}

// A process killed while writing a batch leaves whole records and a torn last one: the next
// open keeps the whole records and cuts the torn one off.
TEST_F(JournalTest, ABatchCutShortByAKillKeepsItsWholeRecords) {
  const fs::path path = make_journal(2);
  std::string bytes = read_bytes(path);
  for (const std::size_t id : {2, 3, 4}) bytes += record_line(counted(plan_, id));
  write_bytes(path, bytes.substr(0, bytes.size() - 7));
  Journal journal(path, header_);
  EXPECT_EQ(journal.recorded().size(), 4u);
  EXPECT_EQ(journal.dropped_bytes(), record_line(counted(plan_, 4)).size() - 7);
}

// "Run the same command again" resumes: `auto` takes the engine a journal was started with (here
// dfs at N = 14, where `auto` itself takes the join), read from its header, or from its records
// where the header is damaged; an engine named, or no journal to read, leaves the options alone.
TEST_F(JournalTest, AutoResumesWithTheEngineTheJournalWasStartedWith) {
  const WorkPlan plan = nqueens::split(14, Symmetry::full);
  const RunHeader header = nqueens::make_header(plan);
  ASSERT_EQ(header.engine, "dfs");
  const fs::path path = dir_ / "n14.journal";
  {
    Journal journal(path, header);
    for (std::size_t id = 0; id < 3; ++id) journal.append(counted(plan, id));
  }
  const nqueens::CountOptions automatic;
  EXPECT_EQ(nqueens::resume_options(14, automatic, path).engine, "dfs");
  nqueens::CountOptions join;
  join.engine = "join";
  EXPECT_EQ(nqueens::resume_options(14, join, path).engine, "join");

  std::string bytes = read_bytes(path);
  const std::size_t digit = bytes.find(" fingerprint=") + 15;
  bytes[digit] = static_cast<char>(bytes[digit] ^ 0x01);  // one bit: the records tell the run
  write_bytes(path, bytes);
  EXPECT_EQ(nqueens::resume_options(14, automatic, path).engine, "dfs");

  write_bytes(dir_ / "notes.txt", "my notes\n");
  for (const fs::path& none : {dir_ / "missing.journal", dir_ / "notes.txt", dir_})
    EXPECT_EQ(nqueens::resume_options(14, automatic, none).engine, "auto") << none;
}

}  // namespace
