#include "files/journal_header.hpp"

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

#include "files/file_io.hpp"
#include "nqueens/files/journal.hpp"

namespace nqueens::detail {

namespace {

// Far more than any run header line takes.
constexpr std::size_t kMaxHeaderLineBytes = 64 << 10;

}  // namespace

std::optional<RunHeader> read_journal_header(const std::filesystem::path& path) {
  std::string head;
  try {
    const ReadFile file(path);
    head = read_from(file.fd(), path, 0, kMaxHeaderLineBytes);
  } catch (const std::runtime_error&) {  // a directory, a device, a FIFO: std::invalid_argument, not this
    return std::nullopt;                 // missing, or unreadable: the Journal says why
  }
  const std::size_t end = head.find('\n');
  if (end == std::string::npos) return std::nullopt;
  try {
    return scan_journal(std::string_view(head).substr(0, end + 1), path.string()).header;
  } catch (const JournalCorrupt&) {
    return std::nullopt;
  }
}

std::optional<RunHeader> journal_run(const std::filesystem::path& path) {
  try {
    if (std::optional<RunHeader> header = read_journal_header(path)) return header;
    return scan_journal(read_journal(path), path.string()).header;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace nqueens::detail
