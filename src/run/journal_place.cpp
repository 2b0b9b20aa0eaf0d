#include "run/journal_place.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "engine/catalogue.hpp"
#include "files/file_io.hpp"
#include "files/journal_header.hpp"
#include "files/write_probe.hpp"
#include "nqueens/files/journal.hpp"
#include "text/echo.hpp"

namespace nqueens {

namespace fs = std::filesystem;

namespace {

// What --checkpoint names: nothing yet (also below a file, "file/j", which creating the directory
// then says), or a file of some type. A path that cannot be looked at (a loop of symbolic links,
// a name too long) is refused with the reason, not the file system library's raw text.
fs::file_status checkpoint_status(const fs::path& checkpoint) {
  std::error_code error;
  const fs::file_status status = fs::status(checkpoint, error);
  if (error && status.type() != fs::file_type::not_found)
    throw std::invalid_argument("--checkpoint " + detail::shown_path(checkpoint) + ": " + error.message());
  return status;
}

}  // namespace

bool is_journal_directory(const fs::path& checkpoint, std::size_t sizes) {
  // A trailing separator leaves an empty file name: the user means a directory.
  return sizes > 1 || checkpoint.filename().empty() || fs::is_directory(checkpoint_status(checkpoint));
}

void check_checkpoint(const fs::path& checkpoint, std::size_t sizes) {
  const fs::file_status status = checkpoint_status(checkpoint);
  if (sizes > 1 && fs::exists(status) && !fs::is_directory(status))
    throw std::invalid_argument("--checkpoint " + detail::shown_path(checkpoint) +
                                " is a file; with several board sizes it names a directory that holds one journal "
                                "per N (n18.journal, n19.journal, ...)");
  // A directory named like a journal file (the default nqueens-n24.journal, made by hand or by
  // mistake) was taken for a directory of journals: the run went on in a journal inside it.
  if (sizes == 1 && fs::is_directory(status) && checkpoint.extension() == ".journal")
    throw std::invalid_argument("--checkpoint " + detail::shown_path(checkpoint) +
                                " is a directory named like a journal: give the journal's own file name, or end "
                                "the name with / to keep the journal of each N inside it");
}

void create_journal_directory(const fs::path& checkpoint, std::size_t sizes) {
  if (!is_journal_directory(checkpoint, sizes)) return;
  std::error_code error;
  fs::create_directories(checkpoint, error);
  if (error)
    throw std::runtime_error("cannot create the journal directory " + detail::shown_path(checkpoint) + ": " +
                             error.message());
}

fs::path journal_path(const fs::path& checkpoint, int n, std::size_t sizes) {
  if (!is_journal_directory(checkpoint, sizes)) return checkpoint;
  std::string name = "n";  // built in steps: GCC 12 warns falsely about "n" + std::to_string(n)
  name += std::to_string(n);
  name += ".journal";
  return checkpoint / name;
}

namespace {

constexpr const char* kNewRun = " (to start a new run, give another --checkpoint file)";

// The header of the journal at `path`, or nullopt when there is none to check yet: no file, a
// first line not yet whole, or a damaged header (the Journal's own open deals with those).
std::optional<RunHeader> journal_header(const fs::path& path) {
  try {
    return detail::read_journal_header(path);
  } catch (const JournalMismatch& stranger) {
    throw JournalMismatch(std::string(stranger.what()) + kNewRun);
  } catch (const std::invalid_argument& refused) {  // a directory, a device, a FIFO
    throw JournalMismatch(std::string(refused.what()) + "; a journal is a regular file" + kNewRun);
  }
}

}  // namespace

void check_journal_headers(const RunPlace& place, const std::vector<int>& sizes, const RunHeaderOf& header_of) {
  // One N: its journal is opened before anything is counted anyway.
  if (!place.checkpoint || sizes.size() < 2) return;
  for (const int n : sizes) {
    const RunPlace one = place_for_size(place, n, sizes.size());
    const std::optional<RunHeader> found = journal_header(*one.checkpoint);
    if (!found) continue;
    const RunHeader expected = header_of(n);
    if (const std::string why = header_mismatch(expected, *found); !why.empty())
      throw JournalMismatch(detail::shown_path(*one.checkpoint) + " is the journal of a different run: " + why +
                            journal_mismatch_advice(*one.checkpoint, expected.engine));
  }
}

namespace {

// Whether the journal at `path`, which this process cannot write, holds every unit of the run
// `header` describes: then it answers the run without a write.
bool holds_whole_run(const fs::path& path, const RunHeader& header) {
  std::error_code unknown;
  if (!fs::exists(path, unknown)) return false;
  try {
    const Journal journal(path, header, false);
    return journal.recorded().size() == header.unit_count;
  } catch (const std::exception&) {  // damaged or held: the refusal to write says enough
    return false;
  }
}

}  // namespace

void check_journals_writable(const RunPlace& place, const std::vector<int>& sizes, const RunHeaderOf& header_of) {
  if (!place.checkpoint) return;
  for (const int n : sizes) {
    const RunPlace one = place_for_size(place, n, sizes.size());
    const fs::path& journal = *one.checkpoint;
    const std::string refusal = detail::write_refusal(journal, "journal", one.repair);
    if (refusal.empty()) continue;
    std::error_code unknown;
    const bool exists = fs::exists(journal, unknown);
    if (exists && sizes.size() == 1) continue;  // its opening says how many units are left, before any is counted
    if (exists && one.selection.whole() && holds_whole_run(journal, header_of(n))) continue;
    throw std::runtime_error(refusal + ": nothing was counted");
  }
}

RunPlace place_for_size(const RunPlace& place, int n, std::size_t sizes) {
  RunPlace one = place;
  if (place.checkpoint) one.checkpoint = journal_path(*place.checkpoint, n, sizes);
  return one;
}

std::string journal_mismatch_advice(const fs::path& journal, std::string_view engine) {
  const std::optional<RunHeader> started = detail::journal_run(journal);
  const std::string recorded = started ? started->engine : "";
  const std::string resume = !recorded.empty() && recorded != engine && find_engine(recorded)
                                 ? "to resume it, give --engine " + recorded + "; "
                                 : "";
  return " (" + resume + "to start a new run, give another --checkpoint file)";
}

}  // namespace nqueens
