#pragma once
// Where a command's runs keep their records (RunPlace), and where `--checkpoint` keeps the journal
// of each N. With one N it names the journal itself, as it
// always has. With several N (`-n 18-22`), or when it names a directory, it is a directory of
// journals, one per N (`n18.journal`, `n19.journal`, ...), so that a range run overnight resumes
// N by N: finished sizes answer from their journals, the interrupted one carries on.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/files/run_header.hpp"
#include "run/selection.hpp"

namespace nqueens {

//! Where a command's runs keep their records: the journal to resume from and record into (with
//! several N, or when it names a directory, a directory of them), whether to keep a damaged
//! journal's sound records, and the units to count (all, one shard's, or a list: a part is
//! written as a shard file).
struct RunPlace {
  std::optional<std::filesystem::path> checkpoint;
  bool repair = false;
  Selection selection = Selection::whole_run();
};

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

//! `place` for board size `n` of a run of `sizes` sizes: its checkpoint, if any, is N's journal.
RunPlace place_for_size(const RunPlace& place, int n, std::size_t sizes);

//! What a refusal of `journal`, the journal of another run than one of `engine`, ends with:
//! " (to resume it, give --engine dfs; to start a new run, give another --checkpoint file)".
std::string journal_mismatch_advice(const std::filesystem::path& journal, std::string_view engine);

//! The header of N's run: what the driver will open the run with (make_engine of its request).
using RunHeaderOf = std::function<RunHeader(int n)>;

//! With several sizes, every journal already in the directory is checked against its N's run
//! (`header_of`) before the first N is counted: a journal of another run (other options, another
//! build's units), one that is no journal, or a path that is not a regular file throws
//! JournalMismatch (std::invalid_argument: exit 2) before anything is counted, printed or
//! written. Each N whose journal exists has its engine built for its header (and built again
//! when its turn comes). A journal whose header is damaged or not yet whole is left to the
//! Journal, which repairs it or says why it cannot. Nothing is written.
void check_journal_headers(const RunPlace& place, const std::vector<int>& sizes, const RunHeaderOf& header_of);

//! Every N's journal can be written, tried on the real file system (detail::write_refusal: the
//! journal opened for writing, or created and removed; FILE.partial too under --repair) before the
//! first N is counted, so that a read-only file, folder or mount is found before N = 8 of
//! `-n 8,9` is printed. A journal that cannot be written may still answer a run it holds whole:
//! with several sizes it is read (`header_of`) and passes when it holds every unit; with one N its
//! own opening, before anything is counted, decides. Throws std::runtime_error (exit 3).
void check_journals_writable(const RunPlace& place, const std::vector<int>& sizes, const RunHeaderOf& header_of);

}  // namespace nqueens
