#pragma once
// What kind of file a command was given, from its first bytes: `check` takes journals and shard
// files, `merge` shard files only, and a file of another kind is bad input (exit 2) that names
// what it is and which command takes it.
#include <string>

namespace nqueens::cli {

enum class FileKind { journal, shard_file, other, unreadable };

//! The first bytes of `path`, read only from a regular file: a FIFO is refused before it could
//! block, a device before a byte of it is read (std::invalid_argument). A file that cannot be
//! opened gives "" (reading it then says why).
std::string first_bytes(const std::string& path);

//! The kind of `path` by first_bytes(): unreadable where they are "".
FileKind file_kind(const std::string& path);

}  // namespace nqueens::cli
