// Inputs that once broke a reader of outside input, found while fuzzing them (fuzz/). Each is kept
// here, as a plain test, and as a file under fuzz/regressions/<target>/ that every fuzz run replays.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dfs/split.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/files/unit_record.hpp"

namespace {

using nqueens::RunHeader;

// A sound header of N = 8 (full symmetry, depth 2: 16 units), with `units` as its unit count.
RunHeader header_with_units(std::size_t units) {
  RunHeader header = nqueens::make_header(nqueens::split(8, nqueens::Symmetry::full));
  header.unit_count = units;
  return header;
}

// The readers sized a table by the file's unit count before checking it: a header claiming 10^12
// units made `merge` and `count --checkpoint` fail with "std::bad_alloc", and 2 * 10^8 units made
// them allocate and clear gigabytes. No run has more units than N^depth prefixes.
TEST(FuzzRegressions, ShardFileWithAnImpossibleUnitCountIsRefused) {
  nqueens::ShardFile file;
  file.header = header_with_units(16);
  file.threads = 1;
  const std::string good = nqueens::shard_json(file);
  EXPECT_NO_THROW(nqueens::parse_shard_json(good, "good.json"));
  for (const char* units : {"1000000000000", "200000000", "18446744073709551615", "65"}) {
    std::string bad = good;
    bad.replace(bad.find("\"units\":16"), 10, std::string("\"units\":") + units);
    try {
      nqueens::parse_shard_json(bad, "bad.json");
      ADD_FAILURE() << units << " units accepted";
    } catch (const nqueens::ShardFileError& error) {
      EXPECT_NE(std::string(error.what()).find("units is more than N=8 has at depth 2"), std::string::npos)
          << error.what();
    }
  }
}

TEST(FuzzRegressions, MergeRefusesAnImpossibleUnitCount) {
  std::vector<nqueens::ShardFile> files(1);
  files[0].header = header_with_units(1'000'000'000'000);
  EXPECT_THROW(nqueens::merge_shards(files), std::invalid_argument);
}

TEST(FuzzRegressions, ShardFileOfNoBoardSizeOrDepthIsRefused) {
  nqueens::ShardFile file;
  file.header = header_with_units(16);
  file.threads = 1;
  const std::string good = nqueens::shard_json(file);
  for (const auto& [from, to] : {std::pair{"\"n\":8", "\"n\":33"}, std::pair{"\"n\":8", "\"n\":0"},
                                 std::pair{"\"split_depth\":\"2\"", "\"split_depth\":\"5\""},
                                 std::pair{"\"split_depth\":\"2\"", "\"split_depth\":\"1\""}}) {
    std::string bad = good;
    bad.replace(bad.find(from), std::string(from).size(), to);
    EXPECT_THROW(nqueens::parse_shard_json(bad, "bad.json"), nqueens::ShardFileError) << to;
  }
}

TEST(FuzzRegressions, JournalWithAnImpossibleUnitCountIsRefused) {
  for (const std::size_t units : {std::size_t{1'000'000'000'000}, std::size_t{200'000'000}}) {
    const std::string bytes = nqueens::journal_header_line(header_with_units(units));
    try {
      nqueens::scan_journal(bytes, "big.journal");
      ADD_FAILURE() << units << " units accepted";
    } catch (const nqueens::JournalMismatch& error) {
      EXPECT_NE(std::string(error.what()).find("is not the journal of any run"), std::string::npos) << error.what();
    }
  }
  EXPECT_EQ(nqueens::scan_journal(nqueens::journal_header_line(header_with_units(16)), "j").header.unit_count, 16u);
}

// A header line whose checksum closes it right after the format version, with a correct CRC of
// that short text: the reader cut the text short of its own preamble and substr() threw
// std::out_of_range, which no handler caught (found by fuzz_journal, 10-minute run).
TEST(FuzzRegressions, JournalHeaderEndingAtItsVersionIsCorrupt) {
  const std::string text = "nqueens-journal 3";
  for (const std::string tail : {"\n", "\n\xd3\t", "\nU 0 1 0 0 0 1 5 abcdef01\n"}) {
    const std::string bytes = text + " crc=" + nqueens::checksum_hex(nqueens::crc32(text)) + tail;
    try {
      nqueens::scan_journal(bytes, "short.journal");
      ADD_FAILURE() << "accepted";
    } catch (const nqueens::JournalCorrupt& error) {
      EXPECT_NE(std::string(error.what()).find("the run header is not readable"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
