#pragma once
// The options of `count`, declared once for both programs that count: `nqueens count` and
// `nqueens-mpi count` take the same options with the same ranges, defaults and help text.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "logging.hpp"
#include "nqueens/engine.hpp"
#include "session.hpp"

namespace nqueens::cli {

struct CountArgs {
  std::string spec;
  int threads = 0;
  std::string symmetry = "full";
  int split_depth = 0;
  bool verify = false;
  std::string format = "text";
  std::string checkpoint;
  std::string shard;
  std::string output;
  double progress_interval = 60;
  bool no_progress = false;
  LogArgs log;
};

//! Registers --symmetry and --split-depth, the options that shape the search (count and bench).
void add_search_options(CLI::App& command, std::string& symmetry, int& split_depth);

//! Registers every `count` option on `command`, bound to `args`.
void add_count_options(CLI::App& command, CountArgs& args);

//! The engine's options: symmetry, split depth and threads per process (0: every hardware thread).
CountOptions engine_options(const CountArgs& args);

//! The options that make a session more than a plain count. A journal or a shard names one
//! run, so both need a single N: throws std::invalid_argument otherwise.
SessionOptions session_options(const CountArgs& args, const std::vector<int>& sizes);

}  // namespace nqueens::cli
