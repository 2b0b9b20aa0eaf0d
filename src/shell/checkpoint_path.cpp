#include "checkpoint_path.hpp"

#include <stdexcept>
#include <string>

namespace nqueens::shell {

namespace fs = std::filesystem;

bool is_journal_directory(const fs::path& checkpoint, std::size_t sizes) {
  // A trailing separator leaves an empty file name: the user means a directory.
  return sizes > 1 || checkpoint.filename().empty() || fs::is_directory(checkpoint);
}

void check_checkpoint(const fs::path& checkpoint, std::size_t sizes) {
  if (sizes > 1 && fs::exists(checkpoint) && !fs::is_directory(checkpoint))
    throw std::invalid_argument("--checkpoint " + checkpoint.string() +
                                " is a file; with several board sizes it names a directory that holds one journal "
                                "per N (n18.journal, n19.journal, ...)");
}

void create_journal_directory(const fs::path& checkpoint, std::size_t sizes) {
  if (is_journal_directory(checkpoint, sizes)) fs::create_directories(checkpoint);
}

fs::path journal_path(const fs::path& checkpoint, int n, std::size_t sizes) {
  if (!is_journal_directory(checkpoint, sizes)) return checkpoint;
  std::string name = "n";  // built in steps: GCC 12 warns falsely about "n" + std::to_string(n)
  name += std::to_string(n);
  name += ".journal";
  return checkpoint / name;
}

RunSettings settings_for_size(const RunSettings& session, int n, std::size_t sizes) {
  RunSettings one = session;
  if (session.checkpoint) one.checkpoint = journal_path(*session.checkpoint, n, sizes);
  return one;
}

}  // namespace nqueens::shell
