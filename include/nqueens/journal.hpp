#pragma once
// The checkpoint journal: an append-only text file that makes a long count resumable.
//
//   nqueens-journal 2 version=0.1.0 engine=dfs n=16 symmetry=full split_depth=3 units=1234 fingerprint=... crc=...
//   U 17 5208 0 0 0 651 2810374 9f3c01aa      <- unit 17: total, orbits 1/2/4/8, nodes, CRC-32
//
// The first line is the run header (run_header.hpp); then one line per finished unit, in the
// order units finished. The header carries a CRC-32 of its text, each record the CRC-32 of its
// text bound to the run (unit_checksum), so a record spliced in from another run's journal is
// refused like a damaged one. Format 1 journals (records checked on their own text) are refused
// as a format this build does not read. A line is written with one
// write(2) as soon as its unit finishes, so a killed process loses nothing but units in
// flight; the file is fsync'ed at least once a second while a run appends to it.
//
// Opening an existing journal never changes it unless it belongs to this run and is sound. The
// one repair is a torn last line (the process, or the machine, died while writing it): it is cut
// off and its unit counted again. Damage anywhere else is refused with the file left as it was.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "nqueens/export.hpp"
#include "nqueens/run_header.hpp"
#include "nqueens/unit_record.hpp"

namespace nqueens {

//! The file is not a journal of this run (other N, mode, depth or unit list; or no journal at
//! all). Derives from std::invalid_argument: it is bad input, not a failure.
struct NQUEENS_EXPORT JournalMismatch : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

//! The file is damaged somewhere other than its last line. It has not been modified.
struct NQUEENS_EXPORT JournalCorrupt : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! What a journal file holds, checked line by line.
struct JournalScan {
  RunHeader header;
  std::vector<UnitCount> units;  //!< every recorded unit once, in file order
  std::size_t valid_bytes = 0;   //!< the header and the complete records
  std::size_t torn_bytes = 0;    //!< a torn last line after them (0 when there is none)
};

//! The first line of a journal for `header`, with its newline.
NQUEENS_EXPORT std::string journal_header_line(const RunHeader& header);

//! A record line for `unit` of the run `header`, with its newline, as Journal::append writes it.
NQUEENS_EXPORT std::string journal_record_line(const RunHeader& header, const UnitCount& unit);

//! Reads a journal's bytes. Throws JournalMismatch if they do not start like a journal and
//! JournalCorrupt for a damaged header or record. `name` is used in messages only.
NQUEENS_EXPORT JournalScan scan_journal(std::string_view bytes, std::string_view name);

class NQUEENS_EXPORT Journal {
 public:
  //! Opens the journal at `path` for the run `header`, creating it if it does not exist or is
  //! empty. Throws JournalMismatch (also for a file that is not a regular file), JournalCorrupt
  //! (also for a file larger than a journal of its run can be), or std::runtime_error for I/O
  //! errors and for a journal that another process holds open. A file that cannot be opened
  //! for writing is opened read-only (see unwritable()).
  Journal(const std::filesystem::path& path, const RunHeader& header);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  //! The units the file already held when it was opened.
  const std::vector<UnitCount>& recorded() const { return recorded_; }

  //! Bytes of a torn last line cut off at open (0 if none): the caller should say so.
  std::size_t dropped_bytes() const { return dropped_bytes_; }

  const std::filesystem::path& path() const { return path_; }

  //! Empty when units can be appended; otherwise why not ("cannot write to journal F:
  //! Read-only file system"). Such a journal is opened read-only: it can answer a run it holds
  //! whole, and append() throws this reason.
  const std::string& unwritable() const { return unwritable_; }

  //! Units in the file: those recorded at open and those appended since.
  std::size_t units() const;

  //! Records a finished unit. Thread-safe; called once per unit, never per search node.
  //! Throws std::runtime_error if the line could not be written; the file then still ends in
  //! whole records (a part written before the failure is cut off again).
  void append(const UnitCount& unit);

  //! Forces everything appended so far to disk.
  void sync();

  //! sync(), then ignores later appends. For a process about to exit with units still running:
  //! after seal() no write can be cut in half by the exit.
  void seal();

 private:
  void open_existing(const RunHeader& header, const std::string& bytes);
  void write_all(std::string_view bytes);
  void flush_loop(std::stop_token stop);

  std::filesystem::path path_;
  RunHeader header_;
  int fd_ = -1;
  std::vector<UnitCount> recorded_;
  std::size_t dropped_bytes_ = 0;
  std::string unwritable_;

  mutable std::mutex write_lock_;     //!< one writer at a time; taken once per finished unit
  bool sealed_ = false;               //!< guarded by write_lock_
  std::size_t appended_ = 0;          //!< guarded by write_lock_
  std::size_t end_ = 0;               //!< the end of the last whole line; guarded by write_lock_
  std::atomic<bool> dirty_ = false;   //!< written since the last fsync
  std::atomic<int> flush_error_ = 0;  //!< errno of a failed background fsync
  std::condition_variable_any wake_;  //!< ends the flusher's sleep early on destruction
  std::mutex wake_lock_;
  //! fsyncs once a second while there is something new
  std::jthread flusher_;
};

}  // namespace nqueens
