// A signal that ends a command leaves no FILE.partial behind: merge --missing left m.txt.partial
// after SIGTERM in 5 of 20 tries, as the process died between creating it and renaming it. The
// handler is tried here in a child process (a death test), at the one moment that matters:
// while the temporary file is held.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "files/file_io.hpp"
#include "shell/supervision/signals.hpp"
#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;

// Writes `target` through an AtomicFile and is ended by `signal` before it commits.
[[noreturn]] void die_while_writing(const fs::path& target, int signal) {
  nqueens::shell::remove_temporaries_on_signal();
  nqueens::detail::AtomicFile file(target);
  file.write("3,7-9\n");
  std::raise(signal);
  std::_Exit(0);  // not reached: the signal ends the process
}

TEST(SignalLeftovers, NoTemporaryFileOutlivesASignalThatEndsTheCommand) {
  testing::FLAGS_gtest_death_test_style = "threadsafe";
  const fs::path dir = harness::fresh_test_directory("nqueens-signal");
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    const fs::path target = dir / ("missing-" + std::to_string(signal) + ".txt");
    EXPECT_EXIT(die_while_writing(target, signal), testing::KilledBySignal(signal), "");
    EXPECT_FALSE(fs::exists(nqueens::detail::temporary_path(target))) << "signal " << signal;
    EXPECT_FALSE(fs::exists(target)) << "signal " << signal;
  }
  fs::remove_all(dir);
}

// The files listed for the handler are those held now: a committed or dropped file is not
// removed again (its name may be another file's by then).
TEST(SignalLeftovers, OnlyFilesStillBeingWrittenAreRemoved) {
  const fs::path dir = harness::fresh_test_directory("nqueens-signal");
  nqueens::detail::write_file_atomically(dir / "done.txt", "1\n");
  { nqueens::detail::AtomicFile dropped(dir / "dropped.txt"); }
  std::ofstream(nqueens::detail::temporary_path(dir / "done.txt")) << "another's\n";
  nqueens::detail::remove_held_temporaries();
  EXPECT_TRUE(fs::exists(dir / "done.txt"));
  EXPECT_TRUE(fs::exists(nqueens::detail::temporary_path(dir / "done.txt")));
  fs::remove_all(dir);
}

}  // namespace
