#pragma once
// The rule that makes "run the same command again" resume a journal: with `auto`, the engine the
// journal was started with. Both drivers (`nqueens count` and `nqueens-mpi`) open their runs
// with it, so that a command resumes under either or under neither.
#include <filesystem>

#include "nqueens/count.hpp"

namespace nqueens {

//! The options that resume the journal at `journal` for n: with `auto`, the engine the journal
//! was started with (its run header, or for a damaged header the run its records check out
//! under: files/journal_header.hpp), where that engine can count n with these options; otherwise
//! the options as given, also when there is no run to tell (no file yet, a file that is no
//! journal: opening the journal creates or refuses it). Throws nothing.
CountOptions resume_options(int n, CountOptions options, const std::filesystem::path& journal);

}  // namespace nqueens
