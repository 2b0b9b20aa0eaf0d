#pragma once
// Where `--checkpoint` keeps the journal of each N. With one N it names the journal itself, as it
// always has. With several N (`-n 18-22`), or when it names a directory, it is a directory of
// journals, one per N (`n18.journal`, `n19.journal`, ...), so that a range run overnight resumes
// N by N: finished sizes answer from their journals, the interrupted one carries on.
#include <cstddef>
#include <filesystem>

#include "supervisor.hpp"

namespace nqueens::shell {

//! True when `checkpoint` is a directory of per-N journals for a run of `sizes` board sizes:
//! several sizes, an existing directory, or a path ending in a separator.
bool is_journal_directory(const std::filesystem::path& checkpoint, std::size_t sizes);

//! Throws std::invalid_argument when a run of several sizes names an existing file: a single
//! journal can hold only one N.
void check_checkpoint(const std::filesystem::path& checkpoint, std::size_t sizes);

//! Creates the journal directory (and its parents) when the run keeps one. Throws
//! std::filesystem::filesystem_error when it cannot.
void create_journal_directory(const std::filesystem::path& checkpoint, std::size_t sizes);

//! The journal of board size `n`: the path itself, or `n<N>.journal` inside the directory.
std::filesystem::path journal_path(const std::filesystem::path& checkpoint, int n, std::size_t sizes);

//! `session` for board size `n` of a run of `sizes` sizes: its checkpoint, if any, is N's journal.
RunSettings settings_for_size(const RunSettings& session, int n, std::size_t sizes);

}  // namespace nqueens::shell
