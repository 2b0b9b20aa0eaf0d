#pragma once
// The logging options every subcommand shares: spdlog on stderr, -q or --log-level.
#include <string>

#include <CLI/CLI.hpp>

namespace nqueens::shell {

struct LogArgs {
  bool quiet = false;
  std::string level = "warn";
};

void add_logging_options(CLI::App& command, LogArgs& args);

//! Sets spdlog's level from parsed options.
void apply_logging(const LogArgs& args);

}  // namespace nqueens::shell
