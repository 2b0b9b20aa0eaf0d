#include "file_kind.hpp"

#include <stdexcept>

#include "files/file_io.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/shard.hpp"

namespace nqueens::cli {

std::string first_bytes(const std::string& path) {
  try {
    const detail::ReadFile file(path);
    return detail::read_from(file.fd(), path, 0, 4096);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::runtime_error&) {
    return {};
  }
}

FileKind file_kind(const std::string& path) {
  const std::string head = first_bytes(path);
  if (head.empty()) return FileKind::unreadable;
  if (looks_like_journal(head)) return FileKind::journal;
  if (looks_like_shard_file(head)) return FileKind::shard_file;
  return FileKind::other;
}

}  // namespace nqueens::cli
