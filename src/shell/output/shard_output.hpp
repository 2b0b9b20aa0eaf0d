#pragma once
// `count --shard i/k`: the shard file a finished shard leaves for `nqueens merge`.
#include <memory>
#include <string>

#include "files/file_io.hpp"
#include "nqueens/files/shard.hpp"
#include "shell/supervision/supervisor.hpp"

namespace nqueens::shell {

//! Where a shard file goes, claimed before the count so that a path that cannot be written, or
//! a second run writing the same file, ends the run before it counts anything rather than
//! after. The file is written through the library's one write policy (detail::AtomicFile): a
//! path that names a directory, a device, a FIFO, a socket or a file the command reads is
//! refused (exit 2); a symbolic link is followed to the file it names. It is written as
//! FILE.partial beside that file and renamed into place when whole, so a crash never leaves half
//! a shard file where a merge would find it. FILE.partial is created and locked (flock) here and
//! held to the end: a run that is killed loses the lock with its life, and the next run takes the
//! leftover file over; a live run keeps it, and the next is refused.
class ShardOutput {
 public:
  //! `path` empty: standard output, nothing to claim. `policy` names the files the command
  //! reads. Throws std::invalid_argument for a path the policy refuses, std::runtime_error when
  //! FILE.partial cannot be created or another process holds it.
  ShardOutput(const std::string& path, const detail::WritePolicy& policy);
  ~ShardOutput();
  ShardOutput(const ShardOutput&) = delete;
  ShardOutput& operator=(const ShardOutput&) = delete;

  //! Writes the shard file and renames it into place (or prints it on stdout). Throws
  //! std::runtime_error on I/O errors; ReaderGone (standard_output.hpp) when stdout's reader
  //! has gone.
  void write(const RunOutcome& session, ShardSpec shard);

 private:
  std::string path_;                          //!< empty: standard output
  std::unique_ptr<detail::AtomicFile> file_;  //!< the locked FILE.partial, until written and renamed
};

}  // namespace nqueens::shell
