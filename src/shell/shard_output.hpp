#pragma once
// `count --shard i/k`: the shard file a finished shard leaves for `nqueens merge`.
#include <string>

#include "nqueens/shard.hpp"
#include "supervisor.hpp"

namespace nqueens::shell {

//! Where a shard file goes, claimed before the count so that a path that cannot be written, or
//! a second run writing the same file, ends the run before it counts anything (exit 3) rather
//! than after. A file is written as FILE.partial and renamed into place when whole, so a crash
//! never leaves half a shard file where a merge would find it. FILE.partial is created and
//! locked (flock) here and held to the end: a run that is killed loses the lock with its life,
//! and the next run takes the leftover file over; a live run keeps it, and the next is refused.
class ShardOutput {
 public:
  //! `path` empty: standard output, nothing to claim. Throws std::runtime_error when FILE is a
  //! directory, FILE.partial cannot be created, or another process holds it.
  explicit ShardOutput(std::string path);
  //! Removes FILE.partial unless write() put the file in place.
  ~ShardOutput();
  ShardOutput(const ShardOutput&) = delete;
  ShardOutput& operator=(const ShardOutput&) = delete;

  //! Writes the shard file and renames it into place (or prints it on stdout). Throws
  //! std::runtime_error on I/O errors; ReaderGone (standard_output.hpp) when stdout's reader
  //! has gone.
  void write(const RunOutcome& session, ShardSpec shard);

 private:
  //! Throws std::runtime_error naming `what` failed on FILE.partial, and errno's reason.
  [[noreturn]] void fail(const char* what) const;
  //! Removes FILE.partial and lets go of its lock, if held.
  void release();

  std::string path_;       //!< empty: standard output
  std::string temporary_;  //!< path_ + ".partial"
  int fd_ = -1;            //!< the locked FILE.partial, until written and renamed
};

}  // namespace nqueens::shell
