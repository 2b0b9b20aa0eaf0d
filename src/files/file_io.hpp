#pragma once
// Files as the library writes and reads them: every write goes through one replaceable call
// (so tests can fill the disk), whole files are replaced atomically and durably, and a file
// read whole is first checked to be a regular file of a plausible size.
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace nqueens::detail {

//! The write(2) behind every file the library writes. Tests put a failing one in its place (a
//! full disk, a short write) to see what a failure leaves on disk; nothing else replaces it.
using WriteCall = ssize_t (*)(int fd, const void* data, std::size_t size);
WriteCall replace_write_call(WriteCall call);  //!< returns the call it replaced

//! Writes all of `bytes`, going on after EINTR and short writes. Returns 0, or the errno of the
//! write that failed (some of the bytes may be on the file then).
int write_fully(int fd, std::string_view bytes);

//! "what path: reason" for an errno value.
std::string io_error(std::string_view what, const std::filesystem::path& path, int error);

//! fsync of the directory that holds `path`, so that a created or renamed entry survives a
//! power cut. Best effort: some file systems refuse to sync a directory.
void sync_directory(const std::filesystem::path& path);

//! Creates the directory that will hold `path` if it is missing. Throws std::runtime_error.
void create_parent_directory(const std::filesystem::path& path);

//! A file that appears whole or not at all: written under `path` + ".partial" and renamed over
//! `path` by commit(), with the file and its directory synced, so neither a crash nor a full
//! disk leaves a half-written file under the real name. Creating it checks the destination at
//! once (before any long work is done for it).
class AtomicFile {
 public:
  //! Creates the temporary file. Throws std::runtime_error naming `path` and the reason.
  explicit AtomicFile(std::filesystem::path path);
  ~AtomicFile();  //!< removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view bytes);  //!< throws std::runtime_error
  void commit();                       //!< fsync, rename into place, fsync the directory

 private:
  [[noreturn]] void fail(const char* what, int error);

  std::filesystem::path path_, temporary_;
  int fd_ = -1;
};

//! AtomicFile in one call.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

//! Why `path` cannot be read as a data file ("is a directory", "is not a regular file (a
//! device, a pipe)"), or "" for a regular file. A missing file gives the reason too.
std::string not_regular_file(const std::filesystem::path& path);

//! The bytes of regular file `fd` (of `path`), read from `offset` up to `max_bytes` of them.
//! Throws std::runtime_error with the reason when it cannot be read.
std::string read_from(int fd, const std::filesystem::path& path, std::size_t offset, std::size_t max_bytes);

}  // namespace nqueens::detail
