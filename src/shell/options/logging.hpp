#pragma once
// The logging options every subcommand shares: spdlog on stderr through the Console (so a
// broken stderr never stops a count), -q or --log-level, and --color.
#include <memory>
#include <string>

#include <spdlog/logger.h>
#include <CLI/CLI.hpp>

namespace nqueens::shell {

struct LogArgs {
  bool quiet = false;
  std::string level = "warn";
  std::string color = "auto";  //!< auto: on a terminal, unless NO_COLOR is set (https://no-color.org)
};

void add_logging_options(CLI::App& command, LogArgs& args);

//! Sets spdlog's level and colours from parsed options.
void apply_logging(const LogArgs& args);

//! A logger named `name` that writes through Console::err(): "[warn] message" on a terminal,
//! "2025-01-31T12:34:56.789Z [warn] message" in batch logs. `prefix` goes before the message
//! (nqueens-mpi's "rank 3: ").
std::shared_ptr<spdlog::logger> make_console_logger(const std::string& name, const std::string& prefix = "");

//! Whether `--color` (auto, always or never) asks for colour, given the environment's NO_COLOR
//! and whether stderr is a terminal.
bool wants_color(const std::string& mode, const char* no_color, bool terminal);

}  // namespace nqueens::shell
