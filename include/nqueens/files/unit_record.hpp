#pragma once
// A finished work unit as journals and shard files store it: its id, its counts, the time it
// took, and a checksum that tells a damaged or edited record from a good one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "nqueens/counts.hpp"
#include "nqueens/export.hpp"
#include "nqueens/files/run_header.hpp"

namespace nqueens {

//! One finished unit: its id, its counts and the time they took.
struct UnitCount {
  std::size_t id = 0;  //!< index in the plan's unit list
  Tally tally;         //!< what count_from() returned for it
  //! Wall time of the kernel call on its worker thread, rounded to the nearest microsecond.
  std::uint64_t microseconds = 0;

  //! Two records of one unit agree when their counts do: the time differs from run to run, so
  //! it is left out (a unit counted twice, or a record repeated with another time, is a repeat).
  friend bool operator==(const UnitCount& a, const UnitCount& b) { return a.id == b.id && a.tally == b.tally; }
};

//! A line of a journal or shard file that holds nothing usable, and why.
struct LineDamage {
  std::size_t line = 0;  //!< 1-based
  std::string problem;   //!< why the line is of no use, in words
  //! The same line with the same problem.
  friend bool operator==(const LineDamage&, const LineDamage&) = default;
};

//! The summed time of a set of units: what reports call `unit_seconds`.
struct UnitTime {
  std::uint64_t microseconds = 0;  //!< the sum, in microseconds

  //! Adds one unit's time.
  void add(std::uint64_t unit) { microseconds += unit; }
  //! The same sum.
  friend bool operator==(const UnitTime&, const UnitTime&) = default;
};

//! CRC-32 (IEEE 802.3, the zlib one) of a byte string; given the CRC of the bytes before them,
//! the CRC of both: crc32(b, crc32(a)) == crc32(a + b).
NQUEENS_EXPORT std::uint32_t crc32(std::string_view bytes, std::uint32_t before = 0);

//! The canonical text of one finished unit: "U <id> <total> <o1> <o2> <o4> <o8> <nodes> \<us\>",
//! \<us\> its microseconds. Journal lines and shard-file checksums are both computed over it, so a
//! unit's checksum is the same wherever it is stored, and covers its time.
NQUEENS_EXPORT std::string unit_record_text(const UnitCount& unit);

//! The checksum of a unit of the run `run`: the CRC-32 of run_identity(run), a newline and
//! unit_record_text(unit). Binding it to the run means a record copied from a file of another
//! run (another N, engine, mode or unit list) fails its check, however sound its own text.
NQUEENS_EXPORT std::uint32_t unit_checksum(const RunHeader& run, const UnitCount& unit);

//! A checksum as files store it: 8 lower-case hex digits.
NQUEENS_EXPORT std::string checksum_hex(std::uint32_t checksum);

}  // namespace nqueens
