#pragma once
// `nqueens check`: what a journal or a shard file holds, read without changing it. The sound
// records, the damaged lines, units recorded twice with different counts, the units the file
// should hold but does not, and the totals and summed unit time over what is sound, so that a
// damaged file can be judged and repaired instead of thrown away. Records of one unit with equal
// counts are repeats, whatever their times.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/counts.hpp"
#include "nqueens/export.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/files/shard.hpp"

namespace nqueens {

//! What `check` finds in a journal or shard file: the run, the records sound, damaged, missing.
struct NQUEENS_EXPORT FileCheck {
  std::string source;                    //!< the file's name
  bool journal = true;                   //!< a journal, or else a shard file
  int format = 0;                        //!< the file's format (its journal format or shard format_version)
  RunHeader header;                      //!< the run the file belongs to
  ShardSpec shard{0, 0};                 //!< a shard file's shard ({0, 0}: a journal, or --units)
  std::string unit_list;                 //!< a --units shard file's list
  std::size_t sound = 0;                 //!< sound records, each unit once
  std::size_t repeated = 0;              //!< records repeating another exactly (harmless)
  bool shard_unknown = false;            //!< a shard file whose damaged header leaves its shard unknown
  std::vector<JournalDamage> damaged;    //!< lines that hold no usable record or entry
  std::vector<std::size_t> conflicting;  //!< ids recorded with different counts, ascending
  std::vector<std::size_t> altered;      //!< shard entries whose checksum fails, ascending
  std::vector<std::size_t> missing;      //!< ids the file should hold but has no sound record of
  std::vector<std::size_t> foreign;      //!< sound ids the file should not hold (not its shard's)
  std::size_t torn_bytes = 0;            //!< a torn last line (a journal cut short: not damage)
  Totals totals;                         //!< over the sound records
  UnitTime unit_time;                    //!< over the sound records

  bool damaged_or_conflicting() const;  //!< damage of any kind: the file needs repair
  bool whole() const;                   //!< sound and complete: exit 0 of `check`
};

//! Checks a journal's bytes against every unit of its run. Throws JournalMismatch when they are
//! no journal of a run this build reads, JournalCorrupt when the run header itself is damaged
//! and no run it may name fits the records (scan_journal).
NQUEENS_EXPORT FileCheck check_journal(std::string_view bytes, std::string source);

//! The same, from the journal's scan: its run's units are listed (the missing ones), so the
//! caller holds the run to what this build makes first.
NQUEENS_EXPORT FileCheck check_journal(const JournalScan& scan, std::string source);

//! Checks a shard file against the ids it should hold (its shard's, or its unit list's). Sized by
//! the entries the file holds and by `expected`.
NQUEENS_EXPORT FileCheck check_shard(const ShardFile& file, std::span<const std::size_t> expected);

}  // namespace nqueens
