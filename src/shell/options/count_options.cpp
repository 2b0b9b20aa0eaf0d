#include "shell/options/count_options.hpp"

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>

#include "engine/memory_budget.hpp"
#include "engine/thread_allowance.hpp"
#include "files/file_io.hpp"
#include "nqueens/files/shard.hpp"
#include "nqueens/symmetry.hpp"
#include "run/journal_place.hpp"
#include "run/prepare.hpp"
#include "run/registry.hpp"
#include "shell/options/engine_settings.hpp"
#include "shell/options/memory_advice.hpp"
#include "shell/output/report.hpp"
#include "system/memory_limit.hpp"
#include "text/echo.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::shell {

namespace {

// CLI11 wants a checker that returns the reason as text; parse_shard_spec throws it.
std::string check_shard_spec(const std::string& text) {
  try {
    parse_shard_spec(text);
    return std::string();
  } catch (const std::invalid_argument& bad) {
    return std::string(bad.what());
  }
}

// An empty file name would otherwise mean "none": --checkpoint "" a run without a journal,
// --output "" the shard file on stdout, both without a word.
std::string check_file_name(const std::string& text) { return text.empty() ? "the file name is empty" : ""; }

// A whole-number setting given on the command line lies in its declared range: its default may
// lie outside it ("0": chosen from N), and given, it would silently be taken for the default.
std::string check_whole_setting(const SettingDescription& setting, const std::string& text) {
  const auto value = detail::parse_whole<long long>(text);
  if (value && *value >= setting.least && *value <= setting.most) return "";
  std::string words(setting.name);
  std::replace(words.begin(), words.end(), '-', ' ');
  if (value && std::to_string(*value) == setting.default_value)
    return text + " is no " + words + " (leave --" + std::string(setting.name) + " out to have its default)";
  return "the " + words + " must be a whole number from " + std::to_string(setting.least) + " to " +
         std::to_string(setting.most) + ", not " + detail::echo(text);
}

// The most bytes `--units @FILE` reads: the ids of every unit of the largest run, one by one,
// take a few MiB.
constexpr std::size_t kMaxUnitListBytes = std::size_t{32} << 20;

bool separates_ids(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// An id or a range of ids ("7", "7-9"), in digits that fit a unit id.
bool id_or_range(std::string_view token) {
  const std::size_t dash = token.find('-');
  const auto id = [](std::string_view text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos &&
           detail::parse_whole<std::size_t>(text).has_value();
  };
  return id(token.substr(0, dash)) && (dash == std::string_view::npos || id(token.substr(dash + 1)));
}

// `--units @FILE`: a list too long for a command line, as `merge --missing FILE` writes it. The
// whole file is read: commas, spaces, tabs and line ends (CRLF too) all separate ids. Only a
// regular file is read (a FIFO or a device is refused before it is read), and only up to
// kMaxUnitListBytes. Returns the ids as one list in the syntax of unit_ranges.hpp.
std::string read_unit_list(const std::string& path) {
  const std::string subject = "--units @" + detail::shown_path(path);
  const auto too_large = [&subject](std::size_t bytes) {
    return std::invalid_argument(subject + ": the file is " + std::to_string(bytes) + " bytes, more than the " +
                                 std::to_string(kMaxUnitListBytes >> 20) + " MiB a unit list can need");
  };
  std::string bytes;
  try {
    const detail::ReadFile file(path);
    if (file.size() > kMaxUnitListBytes) throw too_large(file.size());
    bytes = detail::read_from(file.fd(), path, 0, kMaxUnitListBytes + 1);
  } catch (const std::invalid_argument& refused) {
    if (std::string_view(refused.what()).starts_with(subject)) throw;
    throw std::invalid_argument(subject + ": " + refused.what());
  } catch (const std::runtime_error& unreadable) {
    throw std::invalid_argument(subject + ": " + unreadable.what());
  }
  if (bytes.size() > kMaxUnitListBytes) throw too_large(bytes.size());  // it grew while read
  std::string list;
  std::size_t line = 1, line_start = 0;
  for (std::size_t at = 0; at < bytes.size();) {
    if (separates_ids(bytes[at])) {
      if (bytes[at++] == '\n') {
        ++line;
        line_start = at;
      }
      continue;
    }
    const std::size_t begin = at;
    while (at < bytes.size() && !separates_ids(bytes[at])) ++at;
    const std::string_view token = std::string_view(bytes).substr(begin, at - begin);
    if (!id_or_range(token))
      throw std::invalid_argument(subject + " line " + std::to_string(line) + ", column " +
                                  std::to_string(begin - line_start + 1) + ": " + detail::echo(token) +
                                  " is not a unit id (give ids and ranges such as 3,7-9)");
    if (!list.empty()) list += ',';
    list += token;
  }
  if (list.empty()) throw std::invalid_argument(subject + ": the file holds no unit ids");
  return list;
}

// --memory's validator: "" for a size parse_memory_size takes, else its reason.
std::string check_memory_size(const std::string& text) {
  try {
    parse_memory_size(text);
    return "";
  } catch (const std::invalid_argument& bad) {
    return bad.what();
  }
}

}  // namespace

detail::WritePolicy output_policy(const CountArgs& args, const std::vector<int>& sizes) {
  detail::WritePolicy policy{"--output", "the shard file", {}};
  if (!args.checkpoint.empty()) {
    const std::filesystem::path journal = journal_path(args.checkpoint, sizes.front(), sizes.size());
    policy.inputs.push_back({journal, "--checkpoint " + detail::shown_path(journal)});
  }
  if (args.units.starts_with('@'))
    policy.inputs.push_back({args.units.substr(1), "--units @" + detail::shown_path(args.units.substr(1))});
  return policy;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> names{std::string(kAutomaticEngine)};
  for (const EngineDescription* engine : registered_engines()) names.emplace_back(engine->name);
  return names;
}

std::string engine_option_help() {
  std::string help = "Counting engine: auto (the fastest for each N)";
  for (const EngineDescription* engine : registered_engines())
    help += ", " + std::string(engine->name) + " (" + std::string(engine->summary) + ")";
  return help;
}

void add_search_options(CLI::App& command, SearchArgs& args) {
  command.add_option("--engine", args.engine, engine_option_help())
      ->check(CLI::IsMember(engine_names()))
      ->capture_default_str();
  // Only a setting given is passed on: an engine that does not take it refuses it, and `auto`
  // passes over that engine.
  for (const auto& [setting, engines] : declared_settings()) {
    const std::string name(setting->name);
    CLI::Option* option = command.add_option_function<std::string>(
        "--" + name, [&args, name](const std::string& value) { args.settings[name] = value; },
        std::string(setting->help) + " (" + engines + ")");
    if (setting->whole_number()) {
      option->type_name("INT");
      option->check(CLI::Validator(
          [setting = setting](std::string& text) { return check_whole_setting(*setting, text); }, "", name));
    } else {
      option->check(CLI::IsMember(std::vector<std::string>(setting->choices.begin(), setting->choices.end())));
      option->default_str(std::string(setting->default_value));
    }
  }
}

CountOptions search_options(const SearchArgs& args) {
  CountOptions options;
  options.engine = args.engine;
  options.settings = args.settings;
  return options;
}

// Two options writing one string, rather than one option with both names, which CLI11's help
// lists twice as REQUIRED; the requirement is then checked once parsing is complete.
void add_board_sizes(CLI::App& command, std::string& spec, const std::string& what, bool required) {
  CLI::Option* positional = command.add_option("N", spec, what + (required ? " (this or -n is required)" : ""));
  CLI::Option* named = command.add_option("-n,--n", spec, what);
  command.parse_complete_callback([positional, named, &command, required] {
    if (positional->count() > 0 && named->count() > 0) {
      const std::string& word = positional->results().front();
      // A word that starts like no board size is a stray argument, not a second N.
      if (word.empty() || std::isdigit(static_cast<unsigned char>(word.front())) == 0)
        throw CLI::ArgumentMismatch("unexpected argument " + detail::echo(word) + ": the board size is " +
                                        detail::echo(named->results().front()) + ", given with -n",
                                    CLI::ExitCodes::ArgumentMismatch);
      throw CLI::ArgumentMismatch("board sizes given twice: " + detail::echo(word) + " as N and " +
                                      detail::echo(named->results().front()) + " with -n (give one)",
                                  CLI::ExitCodes::ArgumentMismatch);
    }
    // The program's own name (nqueens, nqueens-mpi) and the command's, for the example.
    const std::string words =
        (command.get_parent() ? command.get_parent()->get_name() + " " : std::string()) + command.get_name();
    if (required && positional->count() + named->count() == 0)
      throw CLI::RequiredError("no board size: give N, as in `" + words + " 16` or `" + words + " -n 16`",
                               CLI::ExitCodes::RequiredError);
  });
}

void add_memory_option(CLI::App& command, std::string& memory, const std::string& help) {
  command.add_option("--memory", memory, help)->type_name("SIZE")->check(check_memory_size);
}

void add_count_options(CLI::App& command, CountArgs& args) {
  add_board_sizes(command, args.spec, "Board sizes: N, a range A-B, or a list such as 8,10,12-14 (1..32)");
  command.add_option("-t,--threads", args.threads, "Worker threads (default: all hardware threads)")
      ->check(CLI::Range(1, kMaxThreads));
  add_memory_option(command, args.memory,
                    "Most memory a count may hold, e.g. 512M, 4G, 1.5GiB (default: half the memory the system "
                    "allows, shared by the ranks of a node under MPI)");
  add_search_options(command, args.search);
  command.add_flag("--verify", args.verify, "Compare with OEIS A000170/A002562; exit 1 on any mismatch");
  command.add_flag("--force", args.force,
                   "Count even an N whose estimated cost passes a year of wall time on the threads given");
  add_format_option(command, args.format);
  add_json_counts_option(command, args.json_counts);
  add_wide_option(command, args.wide);
  CLI::Option* shard =
      command
          .add_option("--shard", args.shard,
                      "Count only shard I of K (1-based) and write a shard file for `nqueens merge`; one N only")
          ->type_name("I/K")
          ->check(check_shard_spec);
  shard->excludes(command.get_option("--verify"))->excludes(command.get_option("--format"));
  command
      .add_option("--units", args.units,
                  "Count only these unit ids (as `check` and `merge` list them: 3,7-9, or @FILE for a file of "
                  "them) and write a shard file for `nqueens merge`; one N only")
      ->type_name("LIST")
      ->excludes(shard)
      ->excludes(command.get_option("--verify"))
      ->excludes(command.get_option("--format"));
  command
      .add_option("--output", args.output, "With --shard or --units: write the shard file here instead of to stdout")
      ->type_name("FILE")
      ->check(check_file_name);
  CLI::Option* checkpoint =
      command
          .add_option("--checkpoint", args.checkpoint,
                      "Record finished work units in this journal and resume from it when run again; with several "
                      "N, a directory of journals, one per N")
          ->type_name("PATH")
          ->check(check_file_name);
  command
      .add_flag("--no-checkpoint", args.no_checkpoint,
                "Count a whole run planned past a day without a journal (it keeps one by default: "
                "nqueens-n<N>.journal)")
      ->excludes(checkpoint);
  command
      .add_flag("--repair", args.repair,
                "With --checkpoint: keep the sound records of a damaged journal (and a copy of the file) and count "
                "the damaged or missing units again")
      ->needs(checkpoint);
  command
      .add_option("--progress-interval", args.progress_interval,
                  "Seconds between progress lines on stderr when it is not a terminal")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  command.add_flag("--no-progress", args.no_progress, "No progress on stderr (-q implies it)");
  add_logging_options(command, args.log);
}

namespace {

// TBB's own words when it could not start a worker (it throws them as a std::runtime_error).
bool thread_library_refused(const std::exception& error) {
  return std::string_view(error.what()).starts_with("pthread_create has failed");
}

// The CPUs this process may run on: the threads a count takes by default. Allocates nothing.
int cpus_allowed() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? std::max(CPU_COUNT(&allowed), 1) : 1;
}

}  // namespace

std::string failure_text(const std::exception& error) {
  if (dynamic_cast<const std::bad_alloc*>(&error) != nullptr) return out_of_memory_advice();
  const auto* system = dynamic_cast<const std::system_error*>(&error);
  const bool no_thread = (system != nullptr && system->code() == std::errc::resource_unavailable_try_again) ||
                         thread_library_refused(error);
  if (!no_thread) return error.what();
  // Under an address-space limit a thread's stack is what does not fit: the process count is
  // seldom the limit then, and blaming it sent users to the wrong setting.
  if (const std::string limit = address_space_limit_text(); !limit.empty())
    return std::string("could not start a thread (") + error.what() + "): its stack does not fit under " + limit +
           "; raise the limit to ulimit -v " + std::to_string(detail::limit_kib_before_measuring(cpus_allowed())) +
           " (fewer --threads do not help: --threads 1 still starts a thread)";
  return std::string("could not start a thread (") + error.what() +
         "): this user's processes and threads are at the system's limit (ulimit -u, or the container's pids "
         "limit); end other processes, raise the limit, or give fewer --threads";
}

void report_out_of_memory_at_start() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    // A limit that holds a count on every CPU holds one on fewer threads too.
    const int threads = cpus_allowed();
    std::fprintf(stderr,
                 "%s: error: out of memory before counting, under the address-space limit (ulimit -v %llu, in KiB); "
                 "raise the limit to ulimit -v %llu (for --threads %d or fewer)\n",
                 program_invocation_short_name, static_cast<unsigned long long>(limit.rlim_cur >> 10),
                 static_cast<unsigned long long>(detail::limit_kib_before_measuring(threads)), threads);
  } else
    std::fprintf(stderr, "%s: error: out of memory before counting\n", program_invocation_short_name);
}

namespace {

std::terminate_handler terminate_as_usual = nullptr;

// Only under an address-space limit is it memory: anything else ends as it would have.
[[noreturn]] void out_of_memory_before_main() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
    if (terminate_as_usual != nullptr) terminate_as_usual();
    std::abort();
  }
  report_out_of_memory_at_start();
  std::_Exit(3);  // the programs' runtime failure (exit_codes.hpp)
}

// Before the C++ static objects of every file (priority 101 runs ahead of the default): the option
// parser's are made before main(), and under a low `ulimit -v` their first allocation fails there.
__attribute__((constructor(101))) void catch_failures_before_main() {
  terminate_as_usual = std::set_terminate(out_of_memory_before_main);
}

}  // namespace

void handle_failures_in_main() { std::set_terminate(terminate_as_usual); }

// The thread's stack stays mapped once it has ended (the C library keeps it for the next thread):
// where the limit refused it, the program maps that much less at its start than under a limit
// that holds it, which a limit to raise to must count (program_at_start).
void load_unwinder() {
  pthread_t thread{};
  if (pthread_create(
          &thread, nullptr, [](void*) -> void* { pthread_exit(nullptr); }, nullptr) == 0) {
    pthread_join(thread, nullptr);
    return;
  }
  pthread_attr_t defaults;
  std::size_t stack = 0;
  if (pthread_getattr_default_np(&defaults) != 0) return;
  if (pthread_attr_getstacksize(&defaults, &stack) == 0) remember_unmapped_at_start(stack + 4096);  // and its guard
  pthread_attr_destroy(&defaults);
}

void share_heap_under_address_limit() {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) mallopt(M_ARENA_MAX, 1);
}

void check_every_size(const std::vector<int>& sizes, const CountOptions& options) {
  for (const int n : sizes) choose_engine(n, options);
}

CountOptions engine_options(const CountArgs& args) {
  CountOptions options = search_options(args.search);
  options.threads = args.threads;
  if (!args.memory.empty()) options.memory_bytes = parse_memory_size(args.memory);
  return options;
}

void settle_memory_budget(CountOptions& options, const std::vector<int>& sizes, int processes_on_machine) {
  const std::string origin = nqueens::settle_memory_budget(options, processes_on_machine);
  if (origin.empty()) return;
  for (const int n : sizes)
    if (choose_engine(n, options).memory_plan) {
      spdlog::info("memory budget {}", origin);
      return;
    }
}

Selection part_selection(const std::string& shard, const std::string& units) {
  if (!shard.empty()) return Selection::shard(parse_shard_spec(shard));
  if (!units.empty()) return Selection::units(units.starts_with('@') ? read_unit_list(units.substr(1)) : units);
  return Selection::whole_run();
}

namespace {

// "shard 2/4", "units 1,5,9-12": how the status line names the part a process counts. A long
// list of units is named by its kind alone.
std::string part_name(const std::string& shard, const std::string& units) {
  constexpr std::size_t kLongest = 16;
  if (!shard.empty()) return "shard " + shard;
  if (units.empty()) return {};
  return units.size() <= kLongest ? "units " + units : "units (a part)";
}

}  // namespace

std::string shard_spec_problem(const std::string& text) { return check_shard_spec(text); }

RunSettings run_settings(const CountArgs& args, const std::vector<int>& sizes) {
  RunSettings session;
  if (!args.checkpoint.empty()) session.checkpoint = args.checkpoint;
  session.selection = part_selection(args.shard, args.units);
  session.repair = args.repair;
  const bool part = !session.selection.whole();
  if (!args.output.empty() && !part) throw std::invalid_argument("--output needs --shard or --units");
  if (part && sizes.size() != 1)
    throw std::invalid_argument(std::string(args.units.empty() ? "--shard" : "--units") +
                                " needs a single board size, not " + detail::echo(args.spec));
  if (session.checkpoint) check_checkpoint(*session.checkpoint, sizes.size());
  if (!args.output.empty()) output_policy(args, sizes).target(args.output);  // refused now, before anything is touched
  session.progress.enabled = !args.no_progress && !args.log.quiet;
  session.progress.interval_seconds = args.progress_interval;
  session.progress.part = part_name(args.shard, args.units);
  return session;
}

}  // namespace nqueens::shell
