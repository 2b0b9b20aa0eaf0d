// The library's one write policy and atomic writer (files/file_io.hpp), and the echo of user text
// in messages (files/echo.hpp), tested directly: what the program's tests cannot reach (a write
// that fails half-way, a loop of links, a cut in the middle of a UTF-8 character).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "files/file_io.hpp"
#include "text/echo.hpp"

namespace {

namespace fs = std::filesystem;
using nqueens::detail::AtomicFile;
using nqueens::detail::FileInUse;
using nqueens::detail::WritePolicy;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class FileIo : public testing::Test {
 public:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nqueens-file-io-" + std::to_string(getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

 protected:
  fs::path dir_;
};

ssize_t failing_write(int, const void*, std::size_t) {
  errno = ENOSPC;
  return -1;
}

// A full disk half-way: the old file stays as it was and FILE.partial is gone.
TEST_F(FileIo, AFailedWriteLeavesTheOldFileAndRemovesTheTemporary) {
  const fs::path target = dir_ / "out.txt";
  std::ofstream(target) << "old\n";
  const auto previous = nqueens::detail::replace_write_call(failing_write);
  EXPECT_THROW(nqueens::detail::write_file_atomically(target, "new\n"), std::runtime_error);
  nqueens::detail::replace_write_call(previous);
  EXPECT_EQ(read_all(target), "old\n");
  EXPECT_FALSE(fs::exists(dir_ / "out.txt.partial"));
}

TEST_F(FileIo, AnUncommittedFileRemovesItsTemporary) {
  {
    AtomicFile file(dir_ / "out.txt");
    file.write("half");
    EXPECT_TRUE(fs::exists(dir_ / "out.txt.partial"));
  }
  EXPECT_FALSE(fs::exists(dir_ / "out.txt.partial"));
  EXPECT_FALSE(fs::exists(dir_ / "out.txt"));
}

// A chain of links is followed to its end; the temporary file lives beside that file.
TEST_F(FileIo, LinksAreFollowedToTheFileWritten) {
  fs::create_directories(dir_ / "a" / "b");
  fs::create_symlink("b/final.txt", dir_ / "a" / "second");
  fs::create_symlink("a/second", dir_ / "first");
  EXPECT_EQ(WritePolicy{}.target(dir_ / "first"), dir_ / "a" / "b" / "final.txt");
  nqueens::detail::write_file_atomically(dir_ / "first", "text\n");
  EXPECT_EQ(read_all(dir_ / "a" / "b" / "final.txt"), "text\n");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "first")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir_ / "a" / "second")));
}

TEST_F(FileIo, ALoopOfLinksIsRefused) {
  fs::create_symlink("two", dir_ / "one");
  fs::create_symlink("one", dir_ / "two");
  EXPECT_THROW(WritePolicy{}.target(dir_ / "one"), std::invalid_argument);
}

// An input not yet created is compared by its path, however spelt; FILE.partial too.
TEST_F(FileIo, InputsAreComparedByPathWhenTheyDoNotExistYet) {
  const WritePolicy policy{"--output", "the shard file", {{dir_ / "j", "--checkpoint j"}}};
  EXPECT_THROW(policy.target(dir_ / "." / "j"), std::invalid_argument);
  const WritePolicy partial{"--output", "the shard file", {{dir_ / "x.partial", "--checkpoint x.partial"}}};
  EXPECT_THROW(partial.target(dir_ / "x"), std::invalid_argument);
  EXPECT_EQ(policy.target(dir_ / "k"), dir_ / "k");
}

// A file held as another process's journal (its lock taken through another open file, as a
// second process would hold it) is no target: refused, left byte for byte, no FILE.partial left.
TEST_F(FileIo, AFileAnotherProcessHoldsIsNotWrittenOver) {
  const fs::path target = dir_ / "j.journal";
  std::ofstream(target) << "nqueens-journal 3 n=19\n";
  const int holder = ::open(target.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  const WritePolicy policy{"--output", "the shard file", {}};
  try {
    nqueens::detail::write_file_atomically(target, "{}\n", policy);
    ADD_FAILURE() << "wrote over a held file";
  } catch (const FileInUse& busy) {
    EXPECT_EQ(std::string(busy.what()), "--output " + target.string() +
                                            " is the journal of a count running in another nqueens process: nothing "
                                            "was written; give the shard file another name");
  }
  ::close(holder);
  EXPECT_EQ(read_all(target), "nqueens-journal 3 n=19\n");
  EXPECT_FALSE(fs::exists(dir_ / "j.journal.partial"));
  nqueens::detail::write_file_atomically(target, "{}\n", policy);  // let go: written
  EXPECT_EQ(read_all(target), "{}\n");
}

// Another write's live FILE.partial cannot be a target: renamed over, it became the first
// write's file, and the first write's own content was lost.
TEST_F(FileIo, ALiveTemporaryFileIsNoTarget) {
  AtomicFile first(dir_ / "s.json");
  first.write("first\n");
  try {
    nqueens::detail::write_file_atomically(dir_ / "s.json.partial", "second\n");
    ADD_FAILURE() << "wrote over another write's temporary file";
  } catch (const FileInUse& busy) {
    EXPECT_NE(std::string(busy.what())
                  .find("is the temporary file of another nqueens process writing " + (dir_ / "s.json").string()),
              std::string::npos)
        << busy.what();
  }
  EXPECT_FALSE(fs::exists(dir_ / "s.json.partial.partial"));
  first.commit();
  EXPECT_EQ(read_all(dir_ / "s.json"), "first\n");
}

// A file that took the name while the write went on, and is held (a journal started there), is
// not renamed over: the write fails and leaves it, and no FILE.partial.
TEST_F(FileIo, AHeldFileThatTookTheNameMeanwhileIsNotRenamedOver) {
  const fs::path target = dir_ / "out";
  AtomicFile file(target);
  file.write("late\n");
  std::ofstream(target) << "nqueens-journal 3\n";
  const int holder = ::open(target.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_EQ(flock(holder, LOCK_EX | LOCK_NB), 0);
  EXPECT_THROW(file.commit(), FileInUse);
  ::close(holder);
  EXPECT_EQ(read_all(target), "nqueens-journal 3\n");
  EXPECT_FALSE(fs::exists(dir_ / "out.partial"));
}

TEST(Echo, CutsLongTextAndEscapesControlCharacters) {
  EXPECT_EQ(nqueens::detail::echo("abc"), "'abc'");
  EXPECT_EQ(nqueens::detail::echo(std::string(100000, '1')), "'" + std::string(40, '1') + "...'");
  EXPECT_EQ(nqueens::detail::echo("a\nb\tc\x1b"), "'a\\nb\\tc\\x1b'");
  // A cut never splits a UTF-8 character: "é" is two bytes, the 40th byte its first.
  const std::string text = std::string(39, 'x') + "\xc3\xa9" + "yz";
  EXPECT_EQ(nqueens::detail::echo(text), "'" + std::string(39, 'x') + "...'");
  EXPECT_EQ(nqueens::detail::shown_path("dir/n16.json"), "dir/n16.json");
  EXPECT_EQ(nqueens::detail::shown_path("my file"), "'my file'");
  EXPECT_EQ(nqueens::detail::shown_path("a\nb"), "'a\\nb'");
  EXPECT_EQ(nqueens::detail::one_line("x\ny"), "x\\ny");
  EXPECT_EQ(nqueens::detail::one_line(std::string(5000, 'm')).size(), nqueens::detail::kMaxMessageBytes + 3);
}

}  // namespace
