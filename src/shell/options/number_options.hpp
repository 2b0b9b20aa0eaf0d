#pragma once
// Numbers on the command line, read one way everywhere: decimal. CLI11 2.1 converts integers
// with strtoll in base 0, so "010" would be 8, "0x10" 16 and "08" an error, and it takes "nan",
// "inf" and hex floats for a float option. Rather than guard each option, both programs pass
// their whole command tree through require_decimal_numbers() once, after adding every option.
#include <CLI/CLI.hpp>

namespace nqueens::shell {

//! Makes every number option of `app` and of its subcommands (at any depth) decimal only. An
//! integer is an optional '-' and decimal digits, leading zeros allowed ("010" is 10); a float
//! is a finite decimal number ("0.5", "1e3"). Anything else is refused with one message that
//! names the option. Options are told apart by CLI11's type names (INT, UINT, FLOAT), which it
//! derives from the bound variable's type; call this before parsing.
void require_decimal_numbers(CLI::App& app);

}  // namespace nqueens::shell
