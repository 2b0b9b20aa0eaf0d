#pragma once
// The checkpoint journal: an append-only text file that makes a long count resumable.
//
//   nqueens-journal 4 version=0.1.0 engine=dfs n=16 split_depth=3 symmetry=full units=1234 fingerprint=... crc=...
//   U 17 5208 0 0 0 651 2810374 48211 9f3c01aa  <- unit 17: total, orbits 1/2/4/8, nodes, microseconds, CRC-32
//
// The first line is the run header (run_header.hpp: the engine's settings are the words between
// n and units); then one line per finished unit, in the
// order units finished. The header carries a CRC-32 of its text, each record the CRC-32 of its
// text bound to the run (unit_checksum), so a record spliced in from another run's journal is
// refused like a damaged one. A record's time is the wall time its kernel call took on its
// worker thread, in whole microseconds; two records of one unit with equal counts are repeats
// whatever their times. This build writes format 4 and reads formats 3 and 4: format 3 gave every
// header the fields symmetry and split_depth, read into the settings (none where split_depth
// is 0), and a run that opens such a journal rewrites it in format 4 with the same records.
// Journals of formats 1 and 2, written by development builds before the first release, are
// refused unchanged. A line is
// written with one write(2) as soon as its unit finishes, so a killed process loses nothing but
// units in flight; the file is fsync'ed at least once a second while a run appends to it.
//
// Opening an existing journal never changes it unless it belongs to this run and is sound. The
// one repair made unasked is a torn last line (the process, or the machine, died while writing
// it, and left any number of zeros after it): it is cut off and its unit counted again. Damage
// anywhere else is refused with the file left as it was, unless --repair asks to keep the sound
// records and count the rest again. A journal whose header is damaged belongs to the run its
// records check out under: a repair under a run none of them fits is refused.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/export.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/files/unit_record.hpp"

namespace nqueens {

//! The journal format this build reads and writes (the number after "nqueens-journal").
inline constexpr int kJournalFormat = 4;

//! The file is not a journal of this run (other N, mode, depth or unit list; or no journal at
//! all, or one of an older format). Derives from std::invalid_argument: it is bad input, not a
//! failure.
struct NQUEENS_EXPORT JournalMismatch : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

//! The file is damaged somewhere other than its last line. It has not been modified.
//! The message names the first problem and how to keep the sound records (--repair).
struct NQUEENS_EXPORT JournalCorrupt : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! A line of a journal that holds no usable record, and why.
using JournalDamage = LineDamage;

//! What a journal file holds, checked line by line.
struct NQUEENS_EXPORT JournalScan {
  RunHeader header;                      //!< the run the journal belongs to
  std::vector<UnitCount> units;          //!< every sound record's unit once, in file order
  std::vector<JournalDamage> damaged;    //!< lines that fail their checksum or are no record of the run
  std::vector<std::size_t> conflicting;  //!< ids recorded with different counts, ascending (not in units)
  std::size_t repeated = 0;              //!< records repeating an earlier one exactly (harmless)
  std::size_t lines = 0;                 //!< complete lines after the header
  std::size_t checked = 0;               //!< of them, records that check out under `header`
  //! The header line is damaged (line 1 of `damaged`): `header` is the run asked for, or the one
  //! the records check out under.
  bool header_damaged = false;
  std::size_t valid_bytes = 0;  //!< up to the end of the last complete line
  std::size_t torn_bytes = 0;   //!< after that: a torn last line, or damage (then in damaged)
  bool tail_damaged = false;    //!< those bytes are no torn record: damage
  int format = kJournalFormat;  //!< the format the file is in: 3 or kJournalFormat

  //! Nothing damaged or conflicting: every line but a torn last one is a record to use.
  bool sound() const { return damaged.empty() && conflicting.empty(); }
  //! The first problem of an unsound scan, for messages ("F line 7: ... (and 2 more problems)").
  std::string problem(std::string_view name) const;
};

//! What `--repair` did to a damaged journal.
struct JournalRepair {
  std::size_t kept = 0;          //!< sound records written back
  std::size_t damaged = 0;       //!< lines dropped as damaged
  std::size_t conflicting = 0;   //!< units dropped because their records disagree
  std::filesystem::path backup;  //!< the damaged file, byte for byte
};

//! The first line of a journal for `header`, with its newline.
NQUEENS_EXPORT std::string journal_header_line(const RunHeader& header);

//! A record line for `unit` of the run `header`, with its newline, as Journal::append writes it.
NQUEENS_EXPORT std::string journal_record_line(const RunHeader& header, const UnitCount& unit);

//! Whether a file starting with `head` is taken for a journal: its first bytes are those of one,
//! or differ from "nqueens-journal 4 " in at most two places (a journal whose header is damaged).
NQUEENS_EXPORT bool looks_like_journal(std::string_view head);

//! Reads a journal's bytes and sorts its lines: sound records, repeats, conflicts, damage. Lines
//! may end in CRLF. Throws JournalMismatch if they do not start like a journal (or one of a
//! format or run this build cannot have written: an older format is refused in one line that
//! says so), or, given `expected`, are the journal of another run. Nothing is sized by the
//! header's unit count, only by the lines the bytes hold.
//! A damaged header is line 1 of the damage, and the run is recovered from the records, which
//! are bound to it: with `expected`, the records are checked under that run, and when none of
//! them checks out the journal is refused as another run's (JournalMismatch); without, under
//! each run the damaged line may name (the line with one bit flipped where its checksum then
//! holds, or as it reads), and the one most records check out under is taken. Throws
//! JournalCorrupt, with the repair command as far as the line still names it, when none fits.
//! `name` is used in messages only.
NQUEENS_EXPORT JournalScan scan_journal(std::string_view bytes, std::string_view name,
                                        const RunHeader* expected = nullptr);

//! The bytes of the journal at `path`, read without locking or changing it: a regular file,
//! its header read first and its size bounded by its run's unit count (as Journal reads it).
//! The zeros at its end (a crash's torn tail, however long) are not read: they are left out of
//! the bytes and counted in `zero_tail` when given.
//! Throws JournalMismatch, JournalCorrupt, or std::runtime_error when it cannot be read.
NQUEENS_EXPORT std::string read_journal(const std::filesystem::path& path, std::size_t* zero_tail = nullptr);

//! An open checkpoint journal: the units it held, and the one writer that appends finished units.
class NQUEENS_EXPORT Journal {
 public:
  //! Opens the journal at `path` for the run `header`, creating it if it does not exist or is
  //! empty. Throws JournalMismatch (also for a file that is not a regular file), JournalCorrupt
  //! (also for a file larger than a journal of its run can be), or std::runtime_error for I/O
  //! errors, for a journal that another process holds open, and for a file that another process
  //! is writing to replace (it holds FILE.partial). A file that cannot be opened
  //! for writing is opened read-only (see unwritable()).
  //! With `repair`, a damaged journal of this run is not refused: a byte-for-byte copy is kept
  //! next to it (FILE.damaged), and it is rewritten from its sound records (see repaired()).
  //! The journal's directory is created when missing.
  Journal(const std::filesystem::path& path, const RunHeader& header, bool repair = false);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  //! The units the file already held when it was opened.
  const std::vector<UnitCount>& recorded() const;

  //! What --repair did at open; nullopt when the journal needed no repair.
  const std::optional<JournalRepair>& repaired() const;

  //! Bytes of a torn last line cut off at open (0 if none): the caller should say so.
  std::size_t dropped_bytes() const;

  //! Where the journal is.
  const std::filesystem::path& path() const;

  //! Empty when units can be appended; otherwise why not ("cannot write to journal F:
  //! Read-only file system"). Such a journal is opened read-only: it can answer a run it holds
  //! whole, and append() throws this reason.
  const std::string& unwritable() const;

  //! Units in the file: those recorded at open and those appended since.
  std::size_t units() const;

  //! Records a finished unit. Thread-safe; called once per unit, never per search node.
  //! Throws std::runtime_error if the line could not be written; the file then still ends in
  //! whole records (a part written before the failure is cut off again).
  void append(const UnitCount& unit);

  //! Records finished units with one write(2): a batch that arrived together (an MPI rank's).
  //! As append(), a failed write is cut off again, so the file still ends in whole records; a
  //! process killed during the write leaves whole records and at most one torn last line. The
  //! ids are not checked: a unit written twice is a repeat, which reading the journal drops.
  void append(std::span<const UnitCount> units);

  //! Forces everything appended so far to disk.
  void sync();

  //! sync(), then ignores later appends. For a process about to exit with units still running:
  //! after seal() no write can be cut in half by the exit.
  void seal();

 private:
  //! The open file, its lock, its writer and the thread that syncs it (files/journal_file.hpp):
  //! behind a pointer, so that this header shows no lock or thread and the layout can change
  //! without changing the library's ABI.
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nqueens
