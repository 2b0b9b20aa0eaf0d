#pragma once
// --help in 80 columns, in our words. CLI11's own formatter runs an option's description to the
// end of one line (121 columns for `count --engine`) and shows its internals beside the option
// ("INT:INT in [1 - 4096]", "Excludes: --shard --units"). This one wraps every description
// under its column, shows an option's value as a name (`-t,--threads INT`, an enumeration as its
// choices) and says what an option cannot go with in words, at the end of its description.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

namespace nqueens::shell {

class HelpFormatter : public CLI::Formatter {
 public:
  static constexpr std::size_t kWidth = 80;
  static constexpr std::size_t kColumn = 30;  // where descriptions start

  HelpFormatter();

  std::string make_option(const CLI::Option* option, bool is_positional) const override;
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* option) const override;
  std::string make_option_desc(const CLI::Option* option) const override;
  std::string make_subcommand(const CLI::App* command) const override;
  std::string make_description(const CLI::App* app) const override;
};

//! `text` cut into lines of at most `width` columns at spaces (a word longer than a line stays
//! whole), each after `indent` spaces; the first line after `first_indent` columns already used.
std::string wrap_text(const std::string& text, std::size_t indent, std::size_t width, std::size_t first_indent);

//! Gives `app`, and every command added to it afterwards, the HelpFormatter.
void use_help_formatter(CLI::App& app);

}  // namespace nqueens::shell
