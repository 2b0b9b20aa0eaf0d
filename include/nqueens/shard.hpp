#pragma once
// Shards: a run cut into k fixed subsets of unit ids, counted anywhere (a batch scheduler's job
// array, several machines), each written as a shard file, and merged back into one result.
//
// A shard file is JSON (format_version 3): the run header, the shard, threads and seconds with a
// CRC-32 over them, and one entry per unit with its counts, its time in microseconds and the
// CRC-32 of its record text bound to the run (unit_record.hpp), so an edited count or time is
// caught by id and an entry copied from another run's file is caught too. This build reads and
// writes format_version 3 only: files of format_version 1 and 2, written by development builds
// before the first release, are refused in one line that says so.
#include <cstddef>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/export.hpp"
#include "nqueens/counts.hpp"
#include "nqueens/run_header.hpp"
#include "nqueens/unit_record.hpp"

namespace nqueens {

struct ShardSpec {
  int index = 1;  //!< 1-based
  int count = 1;
  friend bool operator==(const ShardSpec&, const ShardSpec&) = default;
};

inline constexpr int kMaxShards = 1'000'000;

//! The shard file format_version this build reads and writes.
inline constexpr int kShardFormat = 3;

//! "i/k" with 1 <= i <= k <= kMaxShards. Throws std::invalid_argument with a one-line reason.
NQUEENS_EXPORT ShardSpec parse_shard_spec(std::string_view text);

//! The contents of a shard file.
struct ShardFile {
  std::string source;  //!< where it was read from, for messages
  RunHeader header;
  ShardSpec shard;        //!< {0, 0} for a `count --units` file
  std::string unit_list;  //!< `count --units`: the ids asked for (unit_ranges.hpp); empty for shard i/k
  int threads = 0;
  double seconds = 0;
  std::vector<UnitCount> units;      //!< units whose stored checksum matches their counts
  std::vector<std::size_t> altered;  //!< ids whose stored checksum does not (read side only)
};

//! The file is not a readable shard file (bad JSON, missing fields, ids out of range, a header
//! that fails its checksum, impossible values such as negative seconds).
struct NQUEENS_EXPORT ShardFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

//! The JSON text of a shard file, one unit per line, ending in a newline.
NQUEENS_EXPORT std::string shard_json(const ShardFile& shard);

//! Reads a shard file's text. `source` names it in messages. Throws ShardFileError.
NQUEENS_EXPORT ShardFile parse_shard_json(std::string_view text, std::string source);

//! Reads the shard file at `path`, its header line first: a file that is not a regular file, or
//! is larger than a shard file of its run can be, is refused before it is read whole. Throws
//! ShardFileError, with the reason when the file cannot be read.
NQUEENS_EXPORT ShardFile read_shard_file(const std::filesystem::path& path);

//! A unit id that is wrong across the merged files, and the files (indices) concerned.
struct UnitProblem {
  std::size_t id = 0;
  std::vector<std::size_t> files;
  friend bool operator==(const UnitProblem&, const UnitProblem&) = default;
};

struct MergeReport {
  RunHeader header;
  Totals totals;                         //!< each unit once; meaningful only when complete()
  std::vector<std::size_t> missing;      //!< in no file
  std::vector<UnitProblem> duplicated;   //!< in more than one place with equal counts
  std::vector<UnitProblem> conflicting;  //!< in more than one place with different counts
  std::vector<UnitProblem> altered;      //!< stored checksum does not match the counts
  std::vector<std::string> versions;     //!< tool versions that wrote the files, if more than one
  UnitTime unit_time;                    //!< the time of the units summed in `totals`

  //! Every unit exactly once in an intact entry: the totals are the run's. Altered entries
  //! count for nothing; when other files (a `count --units` recount) cover their units, the
  //! run is complete and they are only reported.
  bool complete() const;
};

//! Checks that the shards cover every unit of their run exactly once and sums them. Throws
//! std::invalid_argument if no files are given or they belong to different runs.
NQUEENS_EXPORT MergeReport merge_shards(std::span<const ShardFile> shards);

}  // namespace nqueens
