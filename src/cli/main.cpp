// The `nqueens` program: only wiring. CLI11 parses, the engine counts, report.cpp prints.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "nqueens/version.hpp"

namespace {

int fail(int code, const std::string& message) {
  std::fflush(stdout);
  fmt::print(stderr, "nqueens: error: {}\n", message);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace nqueens::cli;
  spdlog::set_default_logger(spdlog::stderr_color_mt("nqueens"));
  spdlog::set_pattern("%^[%l]%$ %v");

  CLI::App app{"nqueens: count the solutions of the N-Queens problem, exactly and fast"};
  app.set_version_flag("--version", std::string("nqueens ") + nqueens::kVersion);
  app.require_subcommand(1);
  const std::vector<std::pair<CLI::App*, Command>> commands = {
      add_count_command(app),
      add_oeis_command(app),
      add_solve_command(app),
      add_bench_command(app),
  };

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
  } catch (const std::invalid_argument& error) {
    return fail(kUsage, error.what());
  } catch (const std::exception& error) {
    return fail(kRuntime, error.what());
  }
}
