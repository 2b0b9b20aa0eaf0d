#pragma once
// A merged run's per-unit subtotals, as a file others can check their own run against unit by
// unit (`merge --subtotals FILE`, `merge --compare FILE`):
//
//   nqueens-subtotals 2 n=17 split_depth=3 symmetry=full units=1031 fingerprint=5d2c...
//   0 1234 0 0 2 152
//   1 ...                                 <- id, total, orbit 1/2/4/8 counts: one line per unit, by id
//   end units=68417 crc=9f3c01aa          <- the CRC-32 of every byte before this line
//
// The first line names the units (N, the engine's settings, their number and fingerprint: a join
// run has no settings), not the engine or the build that counted them: two runs of the same units (another shard
// layout, thread count, machine, or an engine that shares the units) write the same file byte for byte, so its CRC
// alone says whether they agree, and the lines say where they do not. Nodes are left out: they measure the search, not
// the count, and differ between engines. Format 1 (symmetry and split_depth on every header, whatever the engine) is
// still read; its CRC differs from format 2's for the same units, but --compare holds them unit by unit.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "nqueens/counts.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/files/shard.hpp"

namespace nqueens::cli {

//! One unit's subtotal: its id and counts (nodes aside).
struct UnitSubtotal {
  std::size_t id = 0;
  Tally tally;  //!< nodes always 0
};

struct Subtotals {
  RunHeader run;  //!< n, symmetry, split depth, unit count and fingerprint; no engine, no version
  std::vector<UnitSubtotal> units;
  std::string crc;  //!< as the end line gives it
};

//! The subtotals of a complete merge: each unit of `shards` once, by id.
Subtotals subtotals_of(const RunHeader& run, std::span<const ShardFile> shards);

//! The file's text.
std::string subtotals_text(const Subtotals& subtotals);

//! Reads a subtotals file. Throws std::invalid_argument (not such a file, a line that does not
//! read, ids out of order, a CRC that does not match) with the file's name and line.
Subtotals read_subtotals(const std::filesystem::path& path);

//! Every difference between two runs' subtotals, one line each: "unit 17: total 5208 here, 5216
//! in FILE"; a different set of units ("N is 20 there, 21 here") is one line. Empty: they agree.
std::vector<std::string> subtotal_differences(const Subtotals& here, const Subtotals& there, const std::string& name);

}  // namespace nqueens::cli
