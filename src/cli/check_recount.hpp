#pragma once
// `nqueens check --recount K`: K of a file's sound records drawn with a seed and counted again,
// and what the file's reader is told: "K of M units recounted (seed S): all equal", or each unit
// whose record differs from its recount, field by field.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "engine/engine.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/recount.hpp"

namespace nqueens::cli {

//! The options of --recount, as given.
struct RecountArgs {
  std::uint64_t units = 0;  //!< --recount K: records to recount; 0: none
  std::uint64_t seed = 0;   //!< --seed S, or one drawn once for every file
  bool seeded = false;      //!< --seed was given
  int threads = 0;          //!< -t: 0, every hardware thread
  std::string memory;       //!< --memory SIZE; empty: the engine's default budget
  std::string by = "same";  //!< --by: "same", the file's engine; "independent", its independent path
};

//! What a recount counts with, and how it holds records to it.
struct RecountPath {
  std::string by;       //!< "same" or "independent", as --by names it
  std::string text;     //!< what the path is, in a few words
  Compared compared{};  //!< the counts it holds records to
};

//! The engine --by names for the run of `header`: `own`, the file's engine as check built it
//! ("same"), or the independent path of the engine whose units the run has ("independent"),
//! built here, with what the report says of it. Throws std::invalid_argument where that engine
//! has no independent path or `header` is not of its runs.
std::pair<std::unique_ptr<Engine>, RecountPath> recount_engine(std::unique_ptr<Engine> own, const RunHeader& header,
                                                               const RecountArgs& args, RunArena& arena);

//! Registers --recount, --seed, -t and --memory on `command`. Returns --seed, whose count() says
//! after parsing whether it was given.
CLI::Option* add_recount_options(CLI::App& command, RecountArgs& args);

struct RecountReport {
  RecountPath path;
  std::uint64_t seed = 0;
  std::vector<std::size_t> drawn;  //!< the units counted again, ascending
  std::size_t records = 0;         //!< sound records the file holds, each unit once
  std::vector<Recounted> differ;   //!< the records that differ from their recount, ascending

  bool all_equal() const { return differ.empty(); }
};

//! A seed for a draw the user did not seed: from the system's random source, below 2^53 so that
//! every JSON reader reads it exactly.
std::uint64_t fresh_seed();

//! Draws `args.units` of `records` (distinct ids) with `args.seed` and recounts them with `engine`
//! in `arena`, the one it was built in (of `args.threads` threads), as `path` says.
RecountReport recount_records(std::unique_ptr<Engine> engine, const RecountPath& path, RunArena& arena,
                              const std::vector<UnitCount>& records, const RecountArgs& args);

//! One line without its newline: "5 of 120 units recounted (seed 42): all equal", or, where
//! records differ, each unit with the fields whose record and recount disagree.
std::string recount_text(const RecountReport& report);
//! "same: the run's own engine, join (join_matcher avx2+pext); every count compared": the path.
std::string recount_path_text(const RecountPath& path);

//! The same as a JSON object: seed, the units drawn and their number, records, and each differing
//! unit's two tallies.
nlohmann::ordered_json recount_json(const RecountReport& report);

}  // namespace nqueens::cli
