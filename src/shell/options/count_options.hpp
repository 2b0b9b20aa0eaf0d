#pragma once
// The options of `count`, declared once for both programs that count: `nqueens count` and
// `nqueens-mpi count` take the same options with the same ranges, defaults and help text.
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "files/file_io.hpp"
#include "nqueens/count.hpp"
#include "shell/options/logging.hpp"
#include "shell/supervision/supervisor.hpp"

namespace nqueens::shell {

//! The options that choose how N is counted, shared by count and bench.
struct SearchArgs {
  std::string engine = "auto";
  EngineSettings settings;  //!< the engine settings given, by name (every engine's options)
};

struct CountArgs {
  std::string spec;
  int threads = 0;
  std::string memory;  //!< --memory SIZE; empty: the default budget
  SearchArgs search;
  bool verify = false;
  bool force = false;  //!< count even a run estimated past a year (cost_notice.hpp)
  std::string format = "text";
  std::string json_counts = "number";
  bool wide = false;
  std::string checkpoint;
  bool no_checkpoint = false;  //!< count a run planned past a day without its default journal
  bool repair = false;
  std::string shard;
  std::string units;
  std::string output;
  double progress_interval = 60;
  bool no_progress = false;
  LogArgs log;
};

//! What --engine accepts: "auto" and every registered engine.
std::vector<std::string> engine_names();
//! --engine's help: every engine with its one-line summary.
std::string engine_option_help();

//! Registers --engine and an option for each setting an engine declares (--symmetry,
//! --split-depth, ...), made from the declarations: the options that shape the search (count,
//! plan and bench). A setting two engines declare is one option.
void add_search_options(CLI::App& command, SearchArgs& args);

//! The board sizes of a command that needs them: positional N or -n, either one (`nqueens count
//! 16` is `nqueens count -n 16`). Help lists both plainly; a command given neither is refused, in
//! our words, as the command line is parsed (`required`: false where the command has a default).
void add_board_sizes(CLI::App& command, std::string& spec, const std::string& what, bool required = true);

//! The engine options those name (threads left at 0).
CountOptions search_options(const SearchArgs& args);

//! Registers --memory SIZE (checked by parse_memory_size) on `command`, bound to `memory`.
void add_memory_option(CLI::App& command, std::string& memory, const std::string& help);

//! Registers every `count` option on `command`, bound to `args`.
void add_count_options(CLI::App& command, CountArgs& args);

//! The engine's options: engine and its settings, threads per process (0: every hardware
//! thread) and --memory (0 when not given: see settle_memory_budget).
CountOptions engine_options(const CountArgs& args);

//! Without --memory, the default budget of one of `processes_on_machine` processes, settled once
//! by run/'s rule (run/prepare.hpp, settle_memory_budget), which count() follows too. Where one of
//! `sizes` has an engine whose memory is planned, the log says where it comes from.
void settle_memory_budget(CountOptions& options, const std::vector<int>& sizes, int processes_on_machine = 1);

//! The message for a failure of a command, in one line: `error.what()`, except where memory ran
//! out (std::bad_alloc: out_of_memory_advice, with what was being allocated and the --memory to
//! try) or a thread could not be started (a std::system_error with EAGAIN, which says only
//! "Resource temporarily unavailable"): then what the limit is and the way on.
std::string failure_text(const std::exception& error);

//! Makes glibc load its unwinder (libgcc_s) now, while memory is plentiful. It loads it on the
//! first thread that ends through pthread_exit, and one that cannot (an address space used up
//! under `ulimit -v`) aborts the process with "libgcc_s.so.1 must be installed for unwinding to
//! work" instead of reporting std::bad_alloc. Each program's main() calls it first.
void load_unwinder();

//! Memory that ran out before a command's own handler was reached (under a `ulimit -v` that holds
//! little more than the program itself), named with that limit in one line on stderr, written
//! without allocating: the heap has just failed.
void report_out_of_memory_at_start();

//! Until this is called, a failure that ends the process through std::terminate (memory running
//! out in the option parser's static objects, before main() starts) is report_out_of_memory_at_start
//! and exit 3, not an abort. Each program's main() calls it first: from then on it handles its own.
void handle_failures_in_main();

//! Under an address-space limit (`ulimit -v`), keeps the C library to two heap arenas. Each
//! further thread's arena reserves 64 MiB of address space: with a worker per core those
//! reservations took the room that the threads' stacks had been proven to fit in, and a worker
//! oneTBB then started failed (std::terminate). The count does not allocate on its hot path,
//! so two arenas cost it nothing. Each program's main() calls it first.
void share_heap_under_address_limit();

//! Throws std::invalid_argument with the reason when an engine cannot count one of `sizes` with
//! `options`: checked for every N before the first is counted, so that a list never fails halfway.
void check_every_size(const std::vector<int>& sizes, const CountOptions& options);

//! The options that make a session more than a plain count. A shard names one run, so it needs
//! a single N; a checkpoint for several N must not be a file (run/journal_place.hpp). Throws
//! std::invalid_argument otherwise.
RunSettings run_settings(const CountArgs& args, const std::vector<int>& sizes);

//! The units `--shard I/K` or `--units LIST` (ids, or @FILE of them) select; the whole run where
//! both are empty. Throws std::invalid_argument for a bad spec or an unreadable file.
Selection part_selection(const std::string& shard, const std::string& units);
//! Why `text` is not a shard spec I/K, or "" where it is: a CLI11 check.
std::string shard_spec_problem(const std::string& text);

//! The write policy of --output: never the --checkpoint journal nor the --units @FILE list, which
//! the command reads (file_io.hpp). run_settings checks --output with it, before anything is touched.
detail::WritePolicy output_policy(const CountArgs& args, const std::vector<int>& sizes);

}  // namespace nqueens::shell
