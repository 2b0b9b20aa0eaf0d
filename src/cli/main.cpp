// The `nqueens` program: only wiring. CLI11 parses, the engine counts, report.cpp prints.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "shell/options/count_options.hpp"
#include "shell/options/help_formatter.hpp"
#include "shell/options/logging.hpp"
#include "shell/options/memory_advice.hpp"
#include "shell/options/number_options.hpp"
#include "shell/options/parse_errors.hpp"
#include "shell/options/suggest.hpp"
#include "shell/output/build_info.hpp"
#include "shell/output/console.hpp"
#include "shell/output/standard_output.hpp"
#include "shell/supervision/signals.hpp"
#include "shell/supervision/stop_before_rename.hpp"
#include "text/echo.hpp"

namespace {

int fail(int code, const std::string& message) {
  std::fflush(stdout);
  // One line whatever the message holds (a path with a newline, a huge argument CLI11 repeats).
  nqueens::shell::Console::err().line("nqueens: error: " + nqueens::detail::one_line(message));
  return code;
}

std::vector<const CLI::App*> subcommands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

// CLI11 2.1 answers a mistyped command with "A subcommand is required"; name the word instead,
// and the command it most looks like.
std::string unknown_command(const CLI::App& app, const std::string& word) {
  std::vector<std::string> known;
  for (const CLI::App* sub : subcommands_of(app)) {
    if (sub->get_name() == word) return {};
    known.push_back(sub->get_name());
  }
  std::string message = "unknown command " + nqueens::detail::echo(word);
  if (const std::string like = nqueens::shell::closest(word, known); !like.empty())
    return message + ": did you mean '" + like + "'?";
  std::string list;
  for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
  return message + " (commands: " + list + ")";
}

// The short usage a bare `nqueens` prints: what the commands are and where the rest is.
std::string short_usage(const CLI::App& app) {
  std::string text = "usage: nqueens COMMAND [OPTIONS]   (nqueens count 16, nqueens help count)\n\ncommands:\n";
  for (const CLI::App* sub : subcommands_of(app))
    text += fmt::format("  {:<8} {}\n", sub->get_name(), sub->get_description());
  return text;
}

// `nqueens help [COMMAND]`: the help of the program or of one command, on stdout.
int help(const CLI::App& app, int argc, char** argv) {
  if (argc < 3) {
    nqueens::shell::print_stdout(app.help());
    return nqueens::cli::kOk;
  }
  std::string word = argv[2];
  if (word == "-h" || word == "--help") word = "help";  // `nqueens help --help`: the help of `help`
  for (const CLI::App* sub : subcommands_of(app))
    if (sub->get_name() == word) {
      nqueens::shell::print_stdout(sub->help(app.get_name()));
      return nqueens::cli::kOk;
    }
  return fail(nqueens::cli::kUsage, unknown_command(app, word));
}

// "The following arguments were not expected: --threds": and the option of the command that the
// first unknown one most looks like.
// An unknown option is named whatever error CLI11 reports for the words around it (`--thread 2`
// leaves 2 for N, and CLI11 then complains of two board sizes): only option-like words count,
// not a negative number given as a value.
std::string with_suggestion(const CLI::App& app, const CLI::ParseError& error, int argc, char** argv) {
  std::string message = nqueens::shell::in_our_words(error);
  const CLI::App* command = &app;
  for (const CLI::App* sub : subcommands_of(app))
    if (argc > 1 && sub->get_name() == argv[1]) command = sub;
  std::vector<std::string> names;
  for (const CLI::Option* option : command->get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  for (int i = 2; i < argc; ++i) {
    const std::string word = std::string(argv[i]).substr(0, std::string_view(argv[i]).find('='));
    const bool option_like = word.size() >= 2 && word[0] == '-' && (word[1] == '-' || std::isalpha(word[1]) != 0);
    if (!option_like || std::find(names.begin(), names.end(), word) != names.end()) continue;
    if (const std::string like = nqueens::shell::closest(word, names); !like.empty())
      return "unknown option " + nqueens::detail::echo_bare(word) + ": did you mean " + like + "?";
    if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) break;
    return "unknown option " + nqueens::detail::echo_bare(word) + " (" + message + ")";
  }
  return message;
}

// --help and --version, which CLI11 prints to std::cout (stdio's stdout, buffered): a failed
// write is found at the flush, and ends the command as a failed write of a count does (exit 3;
// a reader that quit early: exit 0).
int print_help_or_version(const CLI::App& app, const CLI::Success& done) {
  const int code = app.exit(done);
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return code;
  if (errno == EPIPE) return nqueens::cli::kOk;
  return fail(nqueens::cli::kRuntime, std::string("could not write to standard output: ") + std::strerror(errno));
}

int run_program(int argc, char** argv) {
  using namespace nqueens::cli;
  spdlog::set_default_logger(nqueens::shell::make_console_logger("nqueens"));

  CLI::App app{"nqueens: count the solutions of the N-Queens problem, exactly and fast", "nqueens"};
  nqueens::shell::use_help_formatter(app);  // before the commands, which take it from the app
  app.set_version_flag("-V,--version", [] {
    std::string text = nqueens::shell::version_text(nqueens::shell::build_info());
    text.pop_back();  // CLI11 ends the text with its own newline
    return text;
  });
  app.require_subcommand(1);
  // Listed with the others (and so completed); run by help() below, before CLI11 parses.
  app.add_subcommand("help", "Print the help of nqueens, or of one command (nqueens help count)")
      ->add_option("COMMAND", "The command to explain");
  // clang-format off
  const std::vector<std::pair<CLI::App*, Command>> commands = {
      add_count_command(app),
      add_plan_command(app),
      add_oeis_command(app),
      add_solve_command(app),
      add_bench_command(app),
      add_merge_command(app),
      add_version_command(app),
      add_check_command(app),
      add_status_command(app),
  };
  // clang-format on
  require_decimal_numbers(app);
  add_help_examples(app);

  // A closed stdout must not kill the process: writes then fail with EPIPE, and the command
  // stops at that write and ends quietly (standard_output.hpp).
  std::signal(SIGPIPE, SIG_IGN);
  // No FILE.partial outlives SIGINT, SIGTERM or SIGHUP (a count installs its own handlers later).
  nqueens::shell::remove_temporaries_on_signal();
  if (const std::string refused = nqueens::shell::stop_before_rename_when_asked(); !refused.empty())
    return fail(kUsage, refused);

  if (argc < 2) {
    std::string usage = short_usage(app);
    usage.pop_back();  // line() ends it
    nqueens::shell::Console::err().line(usage);
    return kUsage;
  }
  if (std::string(argv[1]) == "help") return help(app, argc, argv);
  if (argv[1][0] != '-')
    if (const std::string unknown = unknown_command(app, argv[1]); !unknown.empty()) return fail(kUsage, unknown);
  std::vector<std::string> words = nqueens::shell::split_short_equals(argc, argv);
  try {
    std::reverse(words.begin(), words.end());  // CLI11 takes a vector last word first
    words.pop_back();                          // the program's name
    app.parse(words);
  } catch (const CLI::Success& done) {  // --help, --version
    return print_help_or_version(app, done);
  } catch (const CLI::ParseError& error) {
    return fail(kUsage,
                nqueens::detail::cut_arguments(with_suggestion(app, error, argc, argv),
                                               std::span<char* const>(argv + 1, static_cast<std::size_t>(argc - 1))));
  }

  try {
    for (const auto& [subcommand, run] : commands)
      if (subcommand->parsed()) return run();
    return kUsage;  // unreachable: CLI11 requires one subcommand
  } catch (const ReaderGone& gone) {
    // `| head`: the reader has seen what it wanted, so this is not an error.
    spdlog::debug("{}: stopped", gone.what());
    return nqueens::cli::kOk;
  } catch (const std::invalid_argument& error) {
    return fail(kUsage, error.what());
  } catch (const std::bad_alloc&) {
    return fail(kRuntime, nqueens::shell::out_of_memory_advice());
  } catch (const std::exception& error) {
    return fail(kRuntime, nqueens::shell::failure_text(error));
  }
}

}  // namespace

// What run_program() does not handle itself (a logger that cannot be set up, memory running out
// while options are parsed) still ends in one line on stderr and exit code 3, not std::terminate.
int main(int argc, char** argv) {
  nqueens::shell::handle_failures_in_main();
  nqueens::shell::share_heap_under_address_limit();
  nqueens::shell::load_unwinder();
  nqueens::shell::remember_room_at_start();
  try {
    return run_program(argc, argv);
  } catch (const std::bad_alloc&) {
    nqueens::shell::report_out_of_memory_at_start();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "nqueens: error: %s\n", error.what());
  } catch (...) {
    std::fprintf(stderr, "nqueens: error: unknown exception\n");
  }
  return nqueens::cli::kRuntime;
}
