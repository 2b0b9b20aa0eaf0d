#include "shell/options/help_formatter.hpp"

#include <memory>
#include <sstream>
#include <vector>

namespace nqueens::shell {

namespace {

// "-n" and "--n": the names of the options an option excludes or needs, for its description.
std::string names_of(const std::set<CLI::Option*>& options) {
  std::string names;
  for (const CLI::Option* option : options) {
    if (!names.empty()) names += ", ";
    names += option->get_name();
  }
  return names;
}

// A row of the help: `left` from column 2, the description from kColumn (or on the next line,
// where `left` reaches it), wrapped to the width.
std::string row(const std::string& left, const std::string& description) {
  std::string text = "  " + left;
  if (description.empty()) return text + "\n";
  std::size_t used = text.size();
  if (used + 1 >= HelpFormatter::kColumn) {
    text += "\n";
    used = 0;
  }
  text += std::string(HelpFormatter::kColumn - used, ' ');
  return text + wrap_text(description, HelpFormatter::kColumn, HelpFormatter::kWidth, HelpFormatter::kColumn) + "\n";
}

}  // namespace

std::string wrap_text(const std::string& text, std::size_t indent, std::size_t width, std::size_t first_indent) {
  std::istringstream words(text);
  std::string word, wrapped;
  std::size_t column = first_indent;
  bool line_empty = true;
  while (words >> word) {
    if (!line_empty && column + 1 + word.size() > width) {
      wrapped += "\n" + std::string(indent, ' ');
      column = indent;
      line_empty = true;
    }
    if (!line_empty) {
      wrapped += ' ';
      ++column;
    }
    wrapped += word;
    column += word.size();
    line_empty = false;
  }
  return wrapped;
}

HelpFormatter::HelpFormatter() { column_width(kColumn); }

std::string HelpFormatter::make_option(const CLI::Option* option, bool is_positional) const {
  return row(make_option_name(option, is_positional) + make_option_opts(option), make_option_desc(option));
}

// The names as typed: CLI11 writes a negated flag's value beside its name ("--no-baseline{false}").
std::string HelpFormatter::make_option_name(const CLI::Option* option, bool is_positional) const {
  std::string names = CLI::Formatter::make_option_name(option, is_positional);
  for (std::size_t open = names.find('{'); open != std::string::npos; open = names.find('{', open)) {
    const std::size_t close = names.find('}', open);
    if (close == std::string::npos) break;
    names.erase(open, close - open + 1);
  }
  return names;
}

// The value as a name: "INT", "SIZE", an enumeration as its choices ("{text,json,csv}"), then
// "=default" where there is one, "..." where it takes several and REQUIRED where it must be
// given; nothing for a flag.
std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  if (option->get_type_size() == 0) return "";
  std::string name = option->get_type_name();
  if (const std::size_t choices = name.find(":{"); choices != std::string::npos)
    name = name.substr(choices + 1);
  else if (const std::size_t check = name.find(':'); check != std::string::npos)
    name = name.substr(0, check);
  std::string text = " " + name;
  if (!option->get_default_str().empty()) text += "=" + option->get_default_str();
  if (option->get_items_expected_max() > 1) text += " ...";
  if (option->get_required()) text += " REQUIRED";
  return text;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
  std::string text = option->get_description();
  if (!option->get_needs().empty()) text += " (needs " + names_of(option->get_needs()) + ")";
  if (!option->get_excludes().empty()) text += " (not with " + names_of(option->get_excludes()) + ")";
  return text;
}

std::string HelpFormatter::make_subcommand(const CLI::App* command) const {
  return row(command->get_display_name(), command->get_description());
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string description = app->get_description();
  if (description.empty()) return "";
  return wrap_text(description, 0, kWidth, 0) + "\n";
}

void use_help_formatter(CLI::App& app) { app.formatter(std::make_shared<HelpFormatter>()); }

}  // namespace nqueens::shell
