#pragma once
// A journal file as read from disk (journal_scan.cpp), shared with the writer that opens,
// repairs and appends to it (journal_writer.cpp).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "nqueens/files/journal.hpp"

namespace nqueens::journal_reading {

// "what path: reason" for the errno of the call that just failed.
std::string io_error(const char* what, const std::filesystem::path& path);

// What to do about a damaged journal: never to throw its finished units away.
std::string repair_advice(std::string_view name);

// Throws JournalMismatch: `path` is a device, a pipe or a socket, never a journal.
[[noreturn]] void refuse_non_regular(const std::filesystem::path& path);

// Where the bytes of a file of `size` bytes end once the zeros at its end are left out, found
// from the end a block at a time, the holes of a sparse file skipped without reading them:
// zeros after the records are a torn tail however many a crash left, and cost no memory.
std::size_t end_of_content(int fd, const std::filesystem::path& path, std::size_t size);

// The bytes of a journal file up to its last byte that is not zero, and the zeros after them.
struct JournalBytes {
  std::string bytes;
  std::size_t zero_tail = 0;
};

// The bytes of a journal file, its header read first: a file that does not start like a journal,
// belongs to another run than `expected`, or is larger than a journal of its run can be, is
// refused before it is read whole (a 2 GB sparse file, /dev/zero behind a symlink ended in
// std::bad_alloc). Zeros at the end are not read into memory.
JournalBytes read_journal_file(int fd, const std::filesystem::path& path, const RunHeader* expected);

}  // namespace nqueens::journal_reading
