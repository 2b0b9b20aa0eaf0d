#pragma once
// The subcommands of the `nqueens` program. Each registers its options on a CLI11 subcommand
// and returns the function to run once parsing succeeded; that function returns the exit code.
#include <functional>
#include <utility>

#include <CLI/CLI.hpp>

#include "shell/supervision/exit_codes.hpp"

namespace nqueens::cli {

using namespace nqueens::shell;  // the shell is the program's own layer: its names read unqualified here

using Command = std::function<int()>;
using Registered = std::pair<CLI::App*, Command>;

Registered add_count_command(CLI::App& app);
Registered add_oeis_command(CLI::App& app);
Registered add_solve_command(CLI::App& app);
Registered add_bench_command(CLI::App& app);
Registered add_merge_command(CLI::App& app);
Registered add_version_command(CLI::App& app);
Registered add_check_command(CLI::App& app);
Registered add_plan_command(CLI::App& app);
Registered add_status_command(CLI::App& app);

//! Puts examples at the end of the program's and every known subcommand's --help.
void add_help_examples(CLI::App& app);

}  // namespace nqueens::cli
