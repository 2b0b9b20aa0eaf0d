// The files the program reads and writes, and the text it echoes, under hostile input: every
// file it writes goes through one write policy (a symlink followed, a directory, device, FIFO,
// socket or one of the command's own inputs refused with exit 2 and nothing touched), every
// file it reads is checked to be a regular file before it is opened for good (a FIFO never
// hangs it), a unit list in a file is read whole and bounded, and an error is one line of
// bounded length whatever was typed. Bad input is refused before anything is counted.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using harness::describe;
using harness::lines_of;
using harness::Outcome;
using harness::read_bytes;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

bool still_a_link(const fs::path& path) { return fs::is_symlink(fs::symlink_status(path)); }

// The file's type without following a link, and without opening it (a FIFO would block).
mode_t type_of(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 ? (info.st_mode & S_IFMT) : 0;
}

class InputsCli : public testing::Test {
 public:
  void SetUp() override { dir_ = harness::fresh_test_directory("nqueens-inputs"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  fs::path file(const std::string& name) const { return dir_ / name; }

  // Runs the program in the test's directory, killed after `limit` (nullopt: it hung).
  std::optional<Outcome> run_for(std::vector<std::string> args, std::chrono::seconds limit) {
    args.insert(args.begin(), NQUEENS_BINARY);
    harness::Options options;
    options.working_directory = dir_;
    harness::Process process(std::move(args), options);
    return process.wait_for(limit);
  }

  Outcome run(const std::vector<std::string>& args) {
    std::optional<Outcome> outcome = run_for(args, std::chrono::seconds(120));
    if (!outcome) {
      ADD_FAILURE() << "the program hung";
      return {};
    }
    return *outcome;
  }

  // A refusal of bad input: exit 2, one line on stderr that says `why`, nothing on stdout.
  void expect_refused(const Outcome& r, const std::string& why) {
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_EQ(r.out, "") << describe(r);
    EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    EXPECT_TRUE(contains(r.err, why)) << describe(r);
  }

  // A character device of the test's own with /dev/null's numbers (mknod needs root, as a test
  // run as root could otherwise replace /dev/null itself); /dev/null when not root, which a
  // process that is not root cannot replace.
  fs::path char_device() {
    const fs::path node = file("null-device");
    if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) return node;
    return "/dev/null";
  }

  fs::path fifo(const std::string& name) {
    const fs::path path = file(name);
    EXPECT_EQ(::mkfifo(path.c_str(), 0644), 0) << std::strerror(errno);
    return path;
  }

  // An incomplete shard file of N = 8 (shard 1 of 2), for merges that write --missing.
  fs::path half_shard() {
    const fs::path shard = file("half.json");
    const Outcome r = run({"count", "-n", "8", "--shard", "1/2", "--output", shard.string(), "-q"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return shard;
  }

 protected:
  fs::path dir_;
};

// ---- 1. one write policy for every file written -----------------------------------------------

TEST_F(InputsCli, OutputReplacesARegularFileWholeAndLeavesNoPartial) {
  write_bytes(file("out.json"), "old\n");
  const Outcome r = run({"count", "-n", "8", "--units", "1", "--output", file("out.json").string(), "-q"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(read_bytes(file("out.json")).starts_with("{\"format\":\"nqueens-shard\""))
      << read_bytes(file("out.json"));
  EXPECT_FALSE(fs::exists(file("out.json.partial")));
}

// --output and merge --missing renamed over whatever the path named: a link became a file.
TEST_F(InputsCli, OutputThroughASymlinkWritesItsTargetAndKeepsTheLink) {
  fs::create_directories(file("real"));
  write_bytes(file("real/out.json"), "old\n");
  fs::create_symlink("real/out.json", file("link.json"));
  const Outcome r = run({"count", "-n", "8", "--units", "1", "--output", "link.json", "-q"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(still_a_link(file("link.json"))) << "the link was replaced";
  EXPECT_TRUE(read_bytes(file("real/out.json")).starts_with("{\"format\":\"nqueens-shard\""));
  EXPECT_FALSE(fs::exists(file("real/out.json.partial")));
  EXPECT_FALSE(fs::exists(file("link.json.partial")));

  // A dangling link: its target is created.
  fs::create_symlink("real/new.json", file("dangling.json"));
  const Outcome created = run({"count", "-n", "8", "--units", "1", "--output", "dangling.json", "-q"});
  EXPECT_EQ(created.exit_code, 0) << describe(created);
  EXPECT_TRUE(still_a_link(file("dangling.json")));
  EXPECT_TRUE(read_bytes(file("real/new.json")).starts_with("{\"format\":\"nqueens-shard\""));
}

TEST_F(InputsCli, OutputToAFifoIsRefusedAndTheFifoKept) {
  const fs::path pipe = fifo("out.fifo");
  const std::optional<Outcome> r =
      run_for({"count", "-n", "8", "--units", "1", "--output", pipe.string(), "-q"}, std::chrono::seconds(30));
  ASSERT_TRUE(r) << "the program hung";
  expect_refused(*r, "is a FIFO");
  EXPECT_EQ(type_of(pipe), S_IFIFO);
  EXPECT_FALSE(fs::exists(file("out.fifo.partial")));
}

TEST_F(InputsCli, OutputToADirectoryIsBadInputNotARuntimeFailure) {
  fs::create_directories(file("out.d"));
  expect_refused(run({"count", "-n", "8", "--units", "1", "--output", file("out.d").string(), "-q"}), "is a directory");
  EXPECT_TRUE(fs::is_directory(file("out.d")));
  EXPECT_FALSE(fs::exists(file("out.d.partial")));
}

TEST_F(InputsCli, OutputToACharacterDeviceIsRefusedAndTheDeviceKept) {
  const fs::path device = char_device();
  expect_refused(run({"count", "-n", "8", "--units", "1", "--output", device.string(), "-q"}), "is a character device");
  EXPECT_EQ(type_of(device), S_IFCHR) << device << " was replaced";
  EXPECT_FALSE(fs::exists(device.string() + ".partial"));
}

TEST_F(InputsCli, OutputToASocketIsRefused) {
  const fs::path path = file("out.sock");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.string().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  expect_refused(run({"count", "-n", "8", "--units", "1", "--output", path.string(), "-q"}), "is a socket");
  EXPECT_EQ(type_of(path), S_IFSOCK);
  ::close(fd);
}

// `count --units @F --output F` read the list, then replaced it with the shard file.
TEST_F(InputsCli, OutputThatIsAnInputOfTheCommandIsRefused) {
  write_bytes(file("units.txt"), "3,5\n");
  expect_refused(run({"count", "-n", "8", "--units", "@units.txt", "--output", "units.txt", "-q"}),
                 "name the same file");
  EXPECT_EQ(read_bytes(file("units.txt")), "3,5\n");

  // Compared by inode: a hard link and a symlink to the list are the list.
  fs::create_hard_link(file("units.txt"), file("hard.txt"));
  fs::create_symlink("units.txt", file("soft.txt"));
  for (const char* other : {"hard.txt", "soft.txt"})
    expect_refused(run({"count", "-n", "8", "--units", "@units.txt", "--output", other, "-q"}), "name the same file");
  EXPECT_EQ(read_bytes(file("units.txt")), "3,5\n");

  // The --checkpoint journal, through a link to it.
  const Outcome journal = run({"count", "-n", "8", "--units", "3", "--checkpoint", "n8.journal", "-q"});
  ASSERT_EQ(journal.exit_code, 0) << describe(journal);
  const std::string bytes = read_bytes(file("n8.journal"));
  fs::create_symlink("n8.journal", file("journal-link"));
  expect_refused(
      run({"count", "-n", "8", "--units", "3", "--checkpoint", "n8.journal", "--output", "journal-link", "-q"}),
      "name the same file");
  EXPECT_EQ(read_bytes(file("n8.journal")), bytes);
}

TEST_F(InputsCli, MergeMissingFileFollowsTheSamePolicy) {
  const fs::path shard = half_shard();
  const std::string bytes = read_bytes(shard);
  // One of the files merged.
  expect_refused(run({"merge", shard.string(), "--missing", shard.string()}), "name the same file");
  EXPECT_EQ(read_bytes(shard), bytes);
  // A FIFO, a directory, a character device.
  const fs::path pipe = fifo("missing.fifo");
  const std::optional<Outcome> piped =
      run_for({"merge", shard.string(), "--missing", pipe.string()}, std::chrono::seconds(30));
  ASSERT_TRUE(piped) << "the program hung";
  expect_refused(*piped, "is a FIFO");
  EXPECT_EQ(type_of(pipe), S_IFIFO);
  fs::create_directories(file("missing.d"));
  expect_refused(run({"merge", shard.string(), "--missing", file("missing.d").string()}), "is a directory");
  const fs::path device = char_device();
  expect_refused(run({"merge", shard.string(), "--missing", device.string()}), "is a character device");
  EXPECT_EQ(type_of(device), S_IFCHR);
  // A symlink: its target gets the list, the link stays.
  fs::create_symlink("list.txt", file("list-link"));
  const Outcome linked = run({"merge", shard.string(), "--missing", "list-link"});
  EXPECT_EQ(linked.exit_code, 1) << describe(linked);
  EXPECT_TRUE(still_a_link(file("list-link")));
  EXPECT_EQ(read_bytes(file("list.txt")), "1-3,7-10,15\n");
  EXPECT_FALSE(fs::exists(file("list.txt.partial")));
}

// --repair replaced the journal, and named its backup, by renaming over the path given: a
// journal reached through a symlink lost the link.
TEST_F(InputsCli, RepairThroughASymlinkRewritesTheTargetAndKeepsTheLink) {
  fs::create_directories(file("store"));
  fs::create_symlink("store/n10.journal", file("n10.journal"));
  const Outcome first = run({"count", "-n", "10", "--checkpoint", "n10.journal", "-q"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  write_bytes(file("store/n10.journal"), read_bytes(file("store/n10.journal")) + "garbage\n");
  const Outcome repaired = run({"count", "-n", "10", "--checkpoint", "n10.journal", "--repair", "-q"});
  EXPECT_EQ(repaired.exit_code, 0) << describe(repaired);
  EXPECT_TRUE(contains(repaired.out, " 724 ")) << describe(repaired);
  EXPECT_TRUE(still_a_link(file("n10.journal"))) << "the link was replaced by the rewritten journal";
  EXPECT_FALSE(contains(read_bytes(file("store/n10.journal")), "garbage"));
  EXPECT_TRUE(contains(read_bytes(file("n10.journal.damaged")), "garbage"));
  EXPECT_FALSE(fs::exists(file("store/n10.journal.partial")));
}

// ---- 2, 8. --units @FILE: the whole file, any separator, bounded ------------------------------

// The unit list a shard file written to stdout names ("3,5,7,9").
std::string unit_list_of(const Outcome& r) {
  const std::string key = "\"shard\":{\"units\":\"";
  const std::size_t begin = r.out.find(key);
  if (begin == std::string::npos) return "(no unit list in the output)";
  const std::size_t from = begin + key.size();
  return r.out.substr(from, r.out.find('"', from) - from);
}

// "3,5\n7,9" counted units 3 and 5: only the first line was read.
TEST_F(InputsCli, UnitListFileIsReadWhole) {
  write_bytes(file("units.txt"), "3,5\n7,9\n");
  const Outcome r = run({"count", "-n", "8", "--units", "@units.txt", "-q"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(unit_list_of(r), "3,5,7,9") << describe(r);
}

// A file written on Windows: "'5' in unit list '3,5' is not a unit id".
TEST_F(InputsCli, UnitListFileWithCrlfLineEndsIsRead) {
  write_bytes(file("units.txt"), "3,5\r\n7\r\n");
  const Outcome r = run({"count", "-n", "8", "--units", "@units.txt", "-q"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(unit_list_of(r), "3,5,7") << describe(r);
}

TEST_F(InputsCli, UnitListFileTakesCommasSpacesTabsAndNewlinesAsSeparators) {
  write_bytes(file("units.txt"), "3 5\t7\n\n9-11,\n 13 , 14");
  const Outcome r = run({"count", "-n", "8", "--units", "@units.txt", "-q"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(unit_list_of(r), "3,5,7,9-11,13-14") << describe(r);
}

TEST_F(InputsCli, UnitListFileNamesTheLineAndColumnOfABadToken) {
  write_bytes(file("units.txt"), "3,5\n7,x9\n");
  expect_refused(run({"count", "-n", "8", "--units", "@units.txt", "-q"}), "line 2, column 3: 'x9' is not a unit id");
  write_bytes(file("empty.txt"), "\n \r\n");
  expect_refused(run({"count", "-n", "8", "--units", "@empty.txt", "-q"}), "holds no unit ids");
  expect_refused(run({"count", "-n", "8", "--units", "@absent.txt", "-q"}), "No such file or directory");
}

// --units @/dev/zero read until memory ran out; a FIFO blocked the program forever.
TEST_F(InputsCli, UnitListFromADeviceOrAFifoIsRefusedBeforeReading) {
  const std::optional<Outcome> zero =
      run_for({"count", "-n", "8", "--units", "@/dev/zero", "-q"}, std::chrono::seconds(30));
  ASSERT_TRUE(zero) << "the program hung";
  expect_refused(*zero, "/dev/zero is not a regular file");
  EXPECT_LT(zero->max_rss_kib, 200 * 1024) << describe(*zero);
  fifo("units.fifo");
  const std::optional<Outcome> piped =
      run_for({"count", "-n", "8", "--units", "@units.fifo", "-q"}, std::chrono::seconds(30));
  ASSERT_TRUE(piped) << "the program hung";
  expect_refused(*piped, "is not a regular file (a FIFO)");
}

TEST_F(InputsCli, UnitListFileLargerThanAnyRunNeedsIsRefusedUnread) {
  write_bytes(file("huge.txt"), "");
  fs::resize_file(file("huge.txt"), std::uintmax_t{33} << 20);  // sparse: nothing is written
  const Outcome r = run({"count", "-n", "8", "--units", "@huge.txt", "-q"});
  expect_refused(r, "more than the 32 MiB a unit list can need");
  EXPECT_LT(r.max_rss_kib, 200 * 1024) << describe(r);
}

// ---- 3. echoes cut short, errors on one line -------------------------------------------------

// A refusal that echoes what was typed: exit 2, one short line.
void expect_short_refusal(const Outcome& r) {
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
  EXPECT_LT(r.err.size(), 300u) << describe(r);
  EXPECT_TRUE(contains(r.err, "...")) << describe(r);
}

// -n with 100,000 digits echoed 100 KB; a bad unit list was echoed twice in full.
TEST_F(InputsCli, UserTextEchoedInAnErrorIsCutShort) {
  const std::string digits(100000, '1');
  const std::string token = "x" + digits;
  const std::vector<std::vector<std::string>> commands = {
      {"count", "-n", digits},
      {"count", "-n", "8," + digits},
      {"count", "-n", "8", "--units", token},
      {"count", "-n", "8", "--units", "1," + token},
      {"count", "-n", "8", "--units", digits + "-1"},
      {"count", "-n", "8", "--shard", digits},
      {"count", "-n", "8", "-t", digits},
      {"count", "-n", "8", "-t", token},
      {"count", "-n", "8", "--format", token},
      {"count", "-n", "8", token},
      {token, "-n", "8"},
      {"check", token},  // echoed twice in full: as the file, and in the reason it cannot be read
  };
  for (const std::vector<std::string>& command : commands) expect_short_refusal(run(command));
  // A 1 MB token in a unit list file.
  write_bytes(file("units.txt"), "3,5\n" + std::string(1 << 20, 'y') + "\n");
  expect_short_refusal(run({"count", "-n", "8", "--units", "@units.txt", "-q"}));
}

// A path holding a newline gave an error of two lines; it is quoted, its control characters escaped.
TEST_F(InputsCli, PathsWithControlCharactersStayOnOneLine) {
  const Outcome output = run({"count", "-n", "8", "--units", "1", "--output", "no\nsuch/x.json", "-q"});
  EXPECT_EQ(output.exit_code, 3) << describe(output);
  EXPECT_EQ(lines_of(output.err).size(), 1u) << describe(output);
  EXPECT_TRUE(contains(output.err, "'no\\nsuch/x.json.partial'")) << describe(output);

  const Outcome merge = run({"merge", "a\nb.json"});
  EXPECT_EQ(merge.exit_code, 2) << describe(merge);
  EXPECT_EQ(lines_of(merge.err).size(), 1u) << describe(merge);
  EXPECT_TRUE(contains(merge.err, "a\\nb.json")) << describe(merge);

  const Outcome check = run({"check", "a\nb.json"});
  EXPECT_EQ(check.exit_code, 2) << describe(check);
  EXPECT_EQ(lines_of(check.err).size(), 1u) << describe(check);
  EXPECT_TRUE(contains(check.err, "'a\\nb.json'")) << describe(check);

  const Outcome units = run({"count", "-n", "8", "--units", "@c\x1b[2Jd\ne", "-q"});
  EXPECT_EQ(units.exit_code, 2) << describe(units);
  EXPECT_EQ(lines_of(units.err).size(), 1u) << describe(units);
  EXPECT_FALSE(contains(units.err, "\x1b")) << describe(units);
}

// ---- 4. a file read is checked to be a regular file before it is opened for good ------------

// `nqueens check FIFO` opened the file before checking its type, and waited forever for a writer.
TEST_F(InputsCli, CheckRefusesAFifoOrADeviceWithoutWaitingOnIt) {
  fifo("shard.fifo");
  for (const std::string& path : {file("shard.fifo").string(), char_device().string()}) {
    const std::optional<Outcome> r = run_for({"check", path}, std::chrono::seconds(30));
    ASSERT_TRUE(r) << "check hung on " << path;
    EXPECT_EQ(r->exit_code, 2) << describe(*r);
    EXPECT_TRUE(contains(r->err, "is not a regular file")) << describe(*r);
  }
  EXPECT_EQ(type_of(file("shard.fifo")), S_IFIFO);
}

TEST_F(InputsCli, CheckpointThatIsAFifoIsRefusedWithoutWaitingOnIt) {
  fifo("n8.journal");
  const std::optional<Outcome> one =
      run_for({"count", "-n", "8", "--checkpoint", "n8.journal", "-q"}, std::chrono::seconds(30));
  ASSERT_TRUE(one) << "the program hung";
  expect_refused(*one, "is not a regular file");
  EXPECT_EQ(type_of(file("n8.journal")), S_IFIFO);
}

// A --checkpoint the file system cannot look at (a loop of symbolic links, a name too long) is
// refused with the reason in one line, and a journal directory below a file says that it cannot
// be created: all were the file system library's raw "filesystem error: status: ...".
TEST_F(InputsCli, CheckpointPathsTheFileSystemRefusesAreSaidPlainly) {
  fs::create_symlink("loop-b", file("loop-a"));
  fs::create_symlink("loop-a", file("loop-b"));
  std::ofstream(file("plain")) << "a file\n";
  const std::string too_long(300, 'x');
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"count", "-n", "8", "--checkpoint", "loop-a/j"},
        std::vector<std::string>{"count", "-n", "8,9", "--checkpoint", "loop-a/d"},
        std::vector<std::string>{"count", "-n", "8", "--checkpoint", too_long},
        std::vector<std::string>{"count", "-n", "8,9", "--checkpoint", too_long}})
    expect_refused(run(args), "--checkpoint ");
  const Outcome below = run({"count", "-n", "8,9", "--checkpoint", "plain/d", "-q"});
  EXPECT_EQ(below.exit_code, 3) << describe(below);
  EXPECT_EQ(below.err, "nqueens: error: cannot create the journal directory plain/d: Not a directory\n")
      << describe(below);
  EXPECT_EQ(below.out, "");
}

// ---- 7. merge: a directory, a device or a FIFO named as a shard file is bad input -------------

// `merge .` exited 2 while a device or a FIFO exited 3; docs/usage.md said 3 for all of them.
TEST_F(InputsCli, MergeOfADirectoryDeviceOrFifoIsBadInput) {
  fifo("shard.fifo");
  const fs::path shard = half_shard();
  for (const std::string& path : {std::string("."), file("shard.fifo").string(), char_device().string()}) {
    const std::optional<Outcome> r = run_for({"merge", shard.string(), path}, std::chrono::seconds(30));
    ASSERT_TRUE(r) << "merge hung on " << path;
    expect_refused(*r, path == "." ? ". is a directory" : "is not a regular file");
  }
}

// `merge` of a journal said "not a valid shard file: it is not JSON", exit 3, and a text file
// exited 3 where `check` says 2: a file of another kind is bad input that says what it is.
TEST_F(InputsCli, MergeOfAJournalOrATextFileIsBadInputThatNamesIt) {
  const fs::path shard = half_shard();
  const Outcome counted = run({"count", "-n", "8", "--checkpoint", file("n8.journal").string(), "-q"});
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  write_bytes(file("notes.txt"), "these are notes\n");
  const Outcome journal = run({"merge", shard.string(), file("n8.journal").string()});
  expect_refused(journal, "n8.journal is a checkpoint journal, not a shard file");
  EXPECT_NE(journal.err.find("nqueens check"), std::string::npos) << journal.err;
  expect_refused(run({"merge", file("notes.txt").string(), shard.string()}), "notes.txt is not a shard file");
  // A shard file cut inside its first line still starts like one: damage, exit 3, as before.
  write_bytes(file("cut.json"), read_bytes(shard).substr(0, 60));
  EXPECT_EQ(run({"merge", file("cut.json").string()}).exit_code, 3);
}

// ---- 5. bench checks every (N, engine, options) before it runs anything -----------------------

// `bench -n 24 --engines join` ran the textbook baseline first (days at N = 24), and only then
// found that the join cannot count N = 24.
TEST_F(InputsCli, BenchRefusesAnEngineThatCannotCountAnNBeforeRunningAnything) {
  const std::optional<Outcome> join =
      run_for({"bench", "-n", "3", "--engines", "join", "-r", "1", "-w", "0", "-t", "1"}, std::chrono::seconds(30));
  ASSERT_TRUE(join) << "bench ran before it refused the engine";
  expect_refused(*join, "the join engine cannot count N=3");
  // The refusal of a later N comes before the first N is timed and printed.
  const std::optional<Outcome> later =
      run_for({"bench", "-n", "8,15", "--engines", "reference", "-r", "1", "-w", "0", "-t", "1", "--no-baseline"},
              std::chrono::seconds(30));
  ASSERT_TRUE(later) << "the program hung";
  expect_refused(*later, "the reference engine cannot count N=15");
}

// ---- 6. several N: every journal checked against its run before the first N is counted --------

// A later N's journal of another run was found only after the earlier N were counted and printed.
TEST_F(InputsCli, SeveralSizesCheckEveryJournalBeforeCountingTheFirst) {
  fs::create_directories(file("journals"));
  const Outcome other = run({"count", "-n", "9", "--symmetry", "none", "--checkpoint", "journals/n9.journal", "-q"});
  ASSERT_EQ(other.exit_code, 0) << describe(other);
  const std::string bytes = read_bytes(file("journals/n9.journal"));
  expect_refused(
      run({"count", "-n", "8-9", "--checkpoint", "journals", "-q"}),
      "journals/n9.journal is the journal of a different run: the setting --symmetry is none there, full here");
  EXPECT_FALSE(fs::exists(file("journals/n8.journal"))) << "N = 8 was counted first";
  EXPECT_EQ(read_bytes(file("journals/n9.journal")), bytes);

  // A file that is no journal, and a FIFO, in a later N's place.
  write_bytes(file("journals/n9.journal"), "my notes\n");
  expect_refused(run({"count", "-n", "8-9", "--checkpoint", "journals", "-q"}), "is not an nqueens journal");
  fs::remove(file("journals/n9.journal"));
  fifo("journals/n9.journal");
  const std::optional<Outcome> piped =
      run_for({"count", "-n", "8-9", "--checkpoint", "journals", "-q"}, std::chrono::seconds(30));
  ASSERT_TRUE(piped) << "the program hung";
  expect_refused(*piped, "is not a regular file");
  EXPECT_FALSE(fs::exists(file("journals/n8.journal")));
  EXPECT_EQ(type_of(file("journals/n9.journal")), S_IFIFO);

  // Journals of this run resume as before; with --engine auto, a journal started with another
  // engine is this run too (auto resumes it with that engine).
  fs::remove(file("journals/n9.journal"));
  const Outcome reference =
      run({"count", "-n", "9", "--engine", "reference", "--checkpoint", "journals/n9.journal", "-q"});
  ASSERT_EQ(reference.exit_code, 0) << describe(reference);
  const Outcome first = run({"count", "-n", "8-9", "--checkpoint", "journals", "--format", "csv", "-q"});
  EXPECT_EQ(first.exit_code, 0) << describe(first);
  const Outcome again = run({"count", "-n", "8-9", "--checkpoint", "journals", "--format", "csv", "-q"});
  EXPECT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(lines_of(again.out).size(), 3u) << describe(again);
}

}  // namespace
