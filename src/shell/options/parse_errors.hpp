#pragma once
// CLI11's parse errors in the program's words. Its own texts read as its internals ("--n: At Most
// 1 required but received 2", "--threads: 1 required INT:INT in [1 - 4096] missing", "files is
// required"); both drivers pass every parse error through here before it is printed.
#include <CLI/CLI.hpp>

#include <string>

namespace nqueens::shell {

//! The message of `error`, reworded where CLI11's is one of its internal forms; otherwise as is.
std::string in_our_words(const CLI::ParseError& error);

}  // namespace nqueens::shell
