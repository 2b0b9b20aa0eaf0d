#pragma once
// Files as the library writes and reads them: every write goes through one replaceable call
// (so tests can fill the disk), whole files are replaced atomically and durably, and a file
// read whole is first checked to be a regular file of a plausible size.
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nqueens::detail {

//! The write(2) behind every file the library writes. Tests put a failing one in its place (a
//! full disk, a short write) to see what a failure leaves on disk; nothing else replaces it.
using WriteCall = ssize_t (*)(int fd, const void* data, std::size_t size);
WriteCall replace_write_call(WriteCall call);  //!< returns the call it replaced

//! Called by AtomicFile::commit() with FILE.partial's name just before its rename: the moment a
//! whole temporary file exists, which a signal may hit. The program's test setting
//! NQUEENS_STOP_BEFORE_RENAME puts one here that stops the process, so that a test can signal it
//! at that moment; nothing else replaces it, and by default it does nothing.
using BeforeRenameCall = void (*)(const std::filesystem::path& temporary);
BeforeRenameCall replace_before_rename(BeforeRenameCall call);  //!< returns the call it replaced

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

//! A file a command reads, which it must therefore never write: "--checkpoint n16.json",
//! "the shard file a.json", as a refusal names it.
struct CommandInput {
  std::filesystem::path path;
  std::string label;
};

//! The one write policy of every file the program writes: the shard file of --output, the list
//! of `merge --missing`, a journal rewritten by --repair and its backup. target() checks a path
//! before anything is written to it:
//! - a symbolic link is followed (each link in turn) to the file it names, which is written:
//!   the link stays a link;
//! - that file must be a regular file or not exist yet: a directory, a block or character device
//!   (/dev/null, /dev/full), a FIFO or a socket is refused;
//! - it must not be one of `inputs`, the files the command reads, compared by device and inode
//!   (a hard link, a symlink, another spelling) and by path (a file not yet created);
//! - FILE.partial, the temporary name beside it, must not be one of them either, nor taken by
//!   anything but a regular file (a leftover of a killed run is taken over).
//! Refusals throw std::invalid_argument: bad input, exit 2, with nothing touched. What another
//! process holds (its journal, its FILE.partial) is refused by AtomicFile when it takes the locks.
struct WritePolicy {
  std::string option;               //!< how the user named the file ("--output"), for messages; may be empty
  std::string noun = "the output";  //!< what is written ("the shard file"): "give <noun> another name"
  std::vector<CommandInput> inputs;
  //! The caller holds the file's lock itself (a journal rewritten by its own --repair): a lock
  //! on it is no other process's, and AtomicFile does not take it again.
  bool target_locked_by_caller = false;

  //! The file to write for `path` (the link's target for a symbolic link), or a refusal.
  std::filesystem::path target(const std::filesystem::path& path) const;
};

//! The temporary name of a file being written: FILE.partial, beside it.
std::filesystem::path temporary_path(const std::filesystem::path& target);

//! Another process holds the file: it is writing it (FILE.partial's lock), counts into it (a
//! journal's lock), or it is another process's FILE.partial. A runtime failure (exit 3).
struct FileInUse : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! What the other process holding the lock of `path` (open here as `fd`) uses it for, for a
//! refusal: "the journal of a count running in another nqueens process", "the temporary file of
//! another nqueens process writing FILE", or "in use by another nqueens process".
std::string use_of_locked_file(int fd, const std::filesystem::path& path);

//! Whether another open file holds the lock (flock) of the file at `path` now, probed without
//! waiting and let go at once: its use (use_of_locked_file), or "" when it is free or missing.
std::string locked_by_another(const std::filesystem::path& path);

//! A FILE.partial beside `target` that no process holds was left by a write killed before its
//! rename (SIGKILL: every FILE.partial is locked while it is written, and removed on any other
//! signal): removed. Returns what to tell the user ("removed FILE.partial, left by ..." or why it
//! could not be), "" when there was none or another process holds it.
std::string remove_stale_temporary(const std::filesystem::path& target);

//! A file that appears whole or not at all: checked by the write policy, written under
//! FILE.partial beside the file it names (a link's target) and renamed over it by commit(), with
//! the file and its directory synced, so neither a crash nor a full disk leaves a half-written
//! file under the real name. FILE.partial is created and locked (flock) at once, before any long
//! work is done for it, and held to the end: a second process writing the same file is refused
//! (FileInUse) while the first lives, and takes a dead one's leftover over. The file it replaces
//! is locked too, from the start and again just before the rename, so that a write never lands
//! on a file another process holds (a journal being counted, another write's FILE.partial): it
//! is refused (FileInUse) with nothing touched. On any failure, and when dropped uncommitted,
//! FILE.partial is removed.
class AtomicFile {
 public:
  //! Checks `path` (WritePolicy::target: std::invalid_argument), then creates and locks the
  //! temporary file. Throws FileInUse, or std::runtime_error naming the file and the reason.
  explicit AtomicFile(const std::filesystem::path& path, const WritePolicy& policy = {});
  ~AtomicFile();  //!< removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::filesystem::path& target() const { return target_; }  //!< the file written (links followed)

  void write(std::string_view bytes);  //!< throws std::runtime_error
  void commit();                       //!< fsync, rename into place, fsync the directory

 private:
  [[noreturn]] void fail(const std::string& what, int error);  //!< "what: errno's reason"
  [[noreturn]] void fail(const std::string& message);
  void hold_target();              //!< locks the file now at the target's name, unless held already: FileInUse
  void release();                  //!< removes the temporary file (ours while locked) and closes both files
  void hold_temporary(bool held);  //!< lists (or unlists) it for remove_held_temporaries()

  std::filesystem::path target_, temporary_;
  std::string subject_;  //!< the target as the user named it, for a refusal
  std::string noun_;     //!< what is written, for a refusal
  bool lock_target_ = true;
  int fd_ = -1;
  int target_fd_ = -1;  //!< the file the rename replaces, locked while this one is written; -1: none yet
};

//! Removes the FILE.partial of every AtomicFile this process holds now, for a handler of a signal
//! that ends the process (a destructor does not run then): async-signal-safe, and only names this
//! process has locked. Up to 16 files at once are listed; a command writes one or two.
void remove_held_temporaries() noexcept;

//! AtomicFile in one call.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes, const WritePolicy& policy = {});

//! A file open for reading, closed when dropped.
class ReadFile {
 public:
  //! Opens `path` without blocking on it (O_NONBLOCK: a FIFO with no writer, a device), then
  //! checks what it opened: anything but a regular file is refused with std::invalid_argument
  //! ("is a directory", "is not a regular file (a FIFO)"), before a byte is read. A file that
  //! cannot be opened throws std::runtime_error with the reason.
  explicit ReadFile(const std::filesystem::path& path);
  ~ReadFile();
  ReadFile(const ReadFile&) = delete;
  ReadFile& operator=(const ReadFile&) = delete;

  int fd() const { return fd_; }
  std::size_t size() const { return size_; }  //!< at open

 private:
  int fd_ = -1;
  std::size_t size_ = 0;
};

//! Why `path` cannot be read as a data file ("is a directory", "is not a regular file (a
//! device, a pipe)"), or "" for a regular file. A missing file gives the reason too.
std::string not_regular_file(const std::filesystem::path& path);

//! The bytes of regular file `fd` (of `path`), read from `offset` up to `max_bytes` of them.
//! Throws std::runtime_error with the reason when it cannot be read.
std::string read_from(int fd, const std::filesystem::path& path, std::size_t offset, std::size_t max_bytes);

}  // namespace nqueens::detail
