// --help in 80 columns (shell/help_formatter.hpp): every command's help, descriptions wrapped
// under their column, and no CLI11 internals beside an option.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "shell/options/help_formatter.hpp"
#include "support/program_harness.hpp"

namespace {

TEST(HelpFormatter, WrapsAtSpacesUnderItsIndent) {
  using nqueens::shell::wrap_text;
  EXPECT_EQ(wrap_text("one two three four", 4, 14, 4), "one two\n    three four");
  EXPECT_EQ(wrap_text("a  b", 0, 80, 0), "a b") << "runs of spaces are one";
  EXPECT_EQ(wrap_text("short averyveryverylongword", 2, 10, 2), "short\n  averyveryverylongword")
      << "a word longer than the line stays whole, on a line of its own";
  EXPECT_EQ(wrap_text("", 2, 10, 2), "");
}

TEST(HelpFormatter, AnOptionRowShowsItsValueAsANameAndWhatItCannotGoWith) {
  CLI::App app{"test", "test"};
  nqueens::shell::use_help_formatter(app);
  int threads = 0;
  std::string format = "text";
  app.add_option("-t,--threads", threads, "Worker threads")->check(CLI::Range(1, 4096));
  bool sharded = false, no_baseline = false;
  CLI::Option* shard = app.add_flag("--shard", sharded, "A shard");
  app.add_option("--format", format, "Result format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str()
      ->excludes(shard);
  app.add_flag("--no-baseline{false}", no_baseline, "Skip the baseline");
  const std::string help = app.help();
  EXPECT_NE(help.find("  -t,--threads INT            Worker threads\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --format {text,json}=text   Result format (not with --shard)\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  --no-baseline               Skip the baseline\n"), std::string::npos) << help;
  EXPECT_EQ(help.find("Excludes"), std::string::npos) << help;
  EXPECT_EQ(help.find("INT in"), std::string::npos) << help;
}

TEST(HelpFormatter, EveryCommandsHelpFitsEightyColumns) {
  for (const char* command : {"", "count", "plan", "oeis", "solve", "bench", "merge", "version", "check", "help"}) {
    std::vector<std::string> argv = {NQUEENS_BINARY, command, "--help"};
    if (std::string(command).empty()) argv.erase(argv.begin() + 1);
    const harness::Outcome r = harness::run_program(argv);
    ASSERT_EQ(r.exit_code, 0) << command;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) EXPECT_LE(line.size(), 80u) << "nqueens " << command << " --help: " << line;
  }
}

}  // namespace
