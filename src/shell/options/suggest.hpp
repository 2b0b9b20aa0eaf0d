#pragma once
// What the command line gets wrong most often, answered: a mistyped word and the known word it
// most looks like, and `-n=8` (a short option with '=') taken as `-n 8`.
#include <string>
#include <string_view>
#include <vector>

namespace nqueens::shell {

//! The known word closest to `word` by edit distance, when it is close enough to be the one
//! meant (at most a third of its letters wrong, and at most 3); "" otherwise.
std::string closest(std::string_view word, const std::vector<std::string>& known);

//! argv as words, with every "-x=VALUE" (one dash, one letter) split into "-x" and "VALUE", as
//! getopt-style programs read it; CLI11 would keep the '='.
std::vector<std::string> split_short_equals(int argc, char** argv);

}  // namespace nqueens::shell
