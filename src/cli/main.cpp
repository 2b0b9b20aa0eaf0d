// The `nqueens` program: only wiring. CLI11 parses, the engine counts, report.cpp prints.
#include <csignal>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "shell/build_info.hpp"
#include "shell/console.hpp"
#include "shell/logging.hpp"
#include "shell/number_options.hpp"
#include "shell/standard_output.hpp"

namespace {

int fail(int code, const std::string& message) {
  std::fflush(stdout);
  nqueens::shell::Console::err().line("nqueens: error: " + message);
  return code;
}

// CLI11 2.1 answers a mistyped command with "A subcommand is required"; name the word instead.
std::string unknown_command(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return {};
  std::string known;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == argv[1]) return {};
    known += (known.empty() ? "" : ", ") + sub->get_name();
  }
  return "unknown command '" + std::string(argv[1]) + "' (commands: " + known + ")";
}

int run_program(int argc, char** argv) {
  using namespace nqueens::cli;
  spdlog::set_default_logger(nqueens::shell::make_console_logger("nqueens"));

  CLI::App app{"nqueens: count the solutions of the N-Queens problem, exactly and fast"};
  app.set_version_flag("--version", [] {
    std::string text = nqueens::shell::version_text(nqueens::shell::build_info());
    text.pop_back();  // CLI11 ends the text with its own newline
    return text;
  });
  app.require_subcommand(1);
  // clang-format off
  const std::vector<std::pair<CLI::App*, Command>> commands = {
      add_count_command(app),
      add_oeis_command(app),
      add_solve_command(app),
      add_bench_command(app),
      add_merge_command(app),
      add_version_command(app),
      add_check_command(app),
  };
  // clang-format on
  require_decimal_numbers(app);
  add_help_examples(app);

  // A closed stdout must not kill the process: writes then fail with EPIPE, and the command
  // stops at that write and ends quietly (standard_output.hpp).
  std::signal(SIGPIPE, SIG_IGN);

  if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) return fail(kUsage, unknown);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& done) {  // --help, --version
    return app.exit(done);
  } catch (const CLI::ParseError& error) {
    return fail(kUsage, error.what());
  }

  try {
    for (const auto& [subcommand, run] : commands)
      if (subcommand->parsed()) return run();
    return kUsage;  // unreachable: CLI11 requires one subcommand
  } catch (const ReaderGone& gone) {
    // `| head`: the reader has seen what it wanted, so this is not an error.
    spdlog::debug("{}: stopped", gone.what());
    return kOk;
  } catch (const std::invalid_argument& error) {
    return fail(kUsage, error.what());
  } catch (const std::exception& error) {
    return fail(kRuntime, error.what());
  }
}

}  // namespace

// What run_program() does not handle itself (a logger that cannot be set up, memory running out
// while options are parsed) still ends in one line on stderr and exit code 3, not std::terminate.
int main(int argc, char** argv) {
  try {
    return run_program(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "nqueens: error: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "nqueens: error: unknown exception\n");
  }
  return nqueens::cli::kRuntime;
}
