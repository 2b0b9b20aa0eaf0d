#pragma once
// Shards: a run cut into k fixed subsets of unit ids, counted anywhere (a batch scheduler's job
// array, several machines), each written as a shard file, and merged back into one result.
//
// A shard file is JSON (format_version 4): the run header (its engine's settings an object of
// their own), the shard, threads and seconds with a
// CRC-32 over them, and one entry per unit with its counts, its time in microseconds and the
// CRC-32 of its record text bound to the run (unit_record.hpp), so an edited count or time is
// caught by id and an entry copied from another run's file is caught too. This build writes
// format_version 4 and reads 3 and 4: format_version 3 gave every run the fields symmetry and
// split_depth, read into the settings (none where split_depth is 0). Files of format_version 1
// and 2, written by development builds before the first release, are refused in one line that
// says so.
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/counts.hpp"
#include "nqueens/export.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/files/unit_record.hpp"

namespace nqueens {

//! Shard `index` of `count`: one of the fixed subsets of unit ids a run is cut into.
struct ShardSpec {
  int index = 1;  //!< 1-based
  int count = 1;  //!< the shards of the run
  //! The same shard of the same cut.
  friend bool operator==(const ShardSpec&, const ShardSpec&) = default;
};

//! The most shards a run is cut into: beyond this a request is a typo.
inline constexpr int kMaxShards = 1'000'000;

//! The shard file format_version this build writes (it reads 3 as well).
inline constexpr int kShardFormat = 4;

//! "i/k" with 1 <= i <= k <= kMaxShards. Throws std::invalid_argument with a one-line reason.
NQUEENS_EXPORT ShardSpec parse_shard_spec(std::string_view text);

//! The contents of a shard file.
struct ShardFile {
  std::string source;                //!< where it was read from, for messages
  RunHeader header;                  //!< the run the file belongs to
  ShardSpec shard;                   //!< {0, 0} for a `count --units` file
  std::string unit_list;             //!< `count --units`: the ids asked for (unit_ranges.hpp); empty for shard i/k
  int threads = 0;                   //!< the threads that counted the file's units
  double seconds = 0;                //!< the wall time that took
  std::vector<UnitCount> units;      //!< units whose stored checksum matches their counts
  std::vector<std::size_t> altered;  //!< ids whose stored checksum does not (read side only)
  //! Read side only: lines that hold no usable entry (not an entry, an id outside the run), the
  //! header line when it is damaged or missing (line 1), and the end when the file was cut short.
  std::vector<LineDamage> damaged;
  //! The header line failed its checksum or is missing: `header` is the run the entries check
  //! out under (its version as the damaged line reads, when it does).
  bool header_damaged = false;
  //! The shard, unit list, threads and seconds are the file's own: its header is sound, or one
  //! bit flipped back made its checksum hold. False: as far as the damaged line reads them,
  //! unchecked ({0, 0}, "", 0 and 0 where it does not).
  bool head_trusted = true;
  //! The format_version the file is in (3 or kShardFormat): its entries are bound to its run as
  //! that format writes the run.
  int format_version = kShardFormat;
};

//! The file is not a readable shard file (not JSON, not laid out as written and missing fields
//! or holding a bad entry, impossible values such as negative seconds under a sound checksum, a
//! run no build can have, an older format).
struct NQUEENS_EXPORT ShardFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! A shard file laid out as written whose header line is damaged or missing, and under whose
//! run, as far as the line names one, none of its entries checks out (nor under the runs given).
//! Read with the other shard files of its run, it may still be read.
struct NQUEENS_EXPORT ShardRunUnknown : ShardFileError {
  using ShardFileError::ShardFileError;
};

//! The JSON text of a shard file, one unit per line, ending in a newline.
NQUEENS_EXPORT std::string shard_json(const ShardFile& shard);

//! Reads a shard file's text. `source` names it in messages. A file laid out as shard_json()
//! writes it is read line by line, each entry a JSON object of its own, so that damage costs
//! what it hits only: a line that reads as no entry is damage of that line (ShardFile::damaged),
//! an entry whose checksum fails is altered, a file cut short keeps its complete entries, and a
//! damaged or missing header line leaves the run to be recovered from the entries, which are
//! bound to it: under the line with one bit flipped where its checksum then holds, the line as
//! it reads, or `runs` (those of the other files of a merge), whichever most entries check out
//! under. A file reformatted by hand is read as one JSON document, its entries taken out as they
//! are parsed, and refused whole when anything in it is wrong. Throws ShardFileError,
//! ShardRunUnknown when no run fits the entries.
NQUEENS_EXPORT ShardFile parse_shard_json(std::string_view text, std::string source,
                                          std::span<const RunHeader> runs = {});

//! Reads the shard file at `path`, its header line first: a file that is not a regular file, or
//! is larger than a shard file of its run can be, is refused before it is read whole. Throws
//! ShardFileError, with the reason when the file cannot be read. `runs` as parse_shard_json.
NQUEENS_EXPORT ShardFile read_shard_file(const std::filesystem::path& path, std::span<const RunHeader> runs = {});

//! Whether a file starting with `head` (its first 4 KiB) is taken for a shard file, damaged or
//! not: it names the format, or holds the header's list of units or a unit entry as written.
NQUEENS_EXPORT bool looks_like_shard_file(std::string_view head);

//! The run the header line of the shard file at `path` names, when that line is sound; nullopt
//! otherwise, and for a file that cannot be read (never throws). Cheap: the first line only.
NQUEENS_EXPORT std::optional<RunHeader> read_shard_run(const std::filesystem::path& path);

//! A unit id that is wrong across the merged files, and the files (indices) concerned.
struct UnitProblem {
  std::size_t id = 0;              //!< the unit
  std::vector<std::size_t> files;  //!< indices of the files concerned
  //! The same unit in the same files.
  friend bool operator==(const UnitProblem&, const UnitProblem&) = default;
};

//! What merge_shards() finds: the totals, and every unit missing, repeated, conflicting, altered.
struct NQUEENS_EXPORT MergeReport {
  RunHeader header;                      //!< the run of the files merged
  Totals totals;                         //!< each unit once; meaningful only when complete()
  std::vector<std::size_t> missing;      //!< in no file
  std::vector<UnitProblem> duplicated;   //!< in more than one place with equal counts
  std::vector<UnitProblem> conflicting;  //!< in more than one place with different counts
  std::vector<UnitProblem> altered;      //!< stored checksum does not match the counts
  std::vector<std::string> versions;     //!< tool versions that wrote the files, if more than one
  UnitTime unit_time;                    //!< the time of the units summed in `totals`
  //! The units each engine counted (the first file holding a unit counts it): one entry unless
  //! the files mix engines that share units (join and gpu).
  std::map<std::string, std::size_t> units_by_engine;

  //! Every unit exactly once in an intact entry: the totals are the run's. Altered entries
  //! count for nothing; when other files (a `count --units` recount) cover their units, the
  //! run is complete and they are only reported.
  bool complete() const;
};

//! Checks that the shards cover every unit of their run exactly once and sums them. Throws
//! std::invalid_argument if no files are given or they belong to different runs; files of engines
//! that share units (the join's, counted by the join or the gpu engine) are of one run.
NQUEENS_EXPORT MergeReport merge_shards(std::span<const ShardFile> shards);

}  // namespace nqueens
