#pragma once
// The run header of a journal on disk, read from its first line alone: what a driver needs to
// know of a journal before it opens one (the engine a run was started with, a journal of another
// run in a directory of several), without reading, locking or changing the rest of the file.
#include <filesystem>
#include <optional>

#include "nqueens/files/run_header.hpp"

namespace nqueens::detail {

//! The run header on the first line of the journal at `path`, or nullopt when there is none to
//! read yet: no file, one that cannot be read, a first line not yet whole, or a damaged header
//! (opening the Journal repairs it or says why it cannot). Throws std::invalid_argument when
//! `path` is not a regular file (a directory, a FIFO, a device), and JournalMismatch (derived
//! from it) when the first line is no journal header this build reads.
std::optional<RunHeader> read_journal_header(const std::filesystem::path& path);

//! The run the journal at `path` was started with: its header, or where the header is damaged,
//! the run its records check out under (scan_journal; only then is the whole file read). Nullopt
//! when neither can be told: no file, no journal, nothing that checks out. Throws nothing.
std::optional<RunHeader> journal_run(const std::filesystem::path& path);

}  // namespace nqueens::detail
