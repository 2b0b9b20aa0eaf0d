#pragma once
// A finished work unit as journals and shard files store it: its id, its counts, and a
// checksum that tells a damaged or edited record from a good one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "nqueens/export.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/run_header.hpp"

namespace nqueens {

struct UnitCount {
  std::size_t id = 0;  //!< index in the plan's unit list
  Tally tally;         //!< what count_from() returned for it
  friend bool operator==(const UnitCount&, const UnitCount&) = default;
};

//! CRC-32 (IEEE 802.3, the zlib one) of a byte string; given the CRC of the bytes before them,
//! the CRC of both: crc32(b, crc32(a)) == crc32(a + b).
NQUEENS_EXPORT std::uint32_t crc32(std::string_view bytes, std::uint32_t before = 0);

//! The canonical text of one finished unit: "U <id> <total> <o1> <o2> <o4> <o8> <nodes>".
//! Journal lines and shard-file checksums are both computed over it, so a unit's checksum is
//! the same wherever it is stored.
NQUEENS_EXPORT std::string unit_record_text(const UnitCount& unit);

//! The checksum of a unit of the run `run`: the CRC-32 of run_identity(run), a newline and
//! unit_record_text(unit). Binding it to the run means a record copied from a file of another
//! run (another N, engine, mode or unit list) fails its check, however sound its own text.
NQUEENS_EXPORT std::uint32_t unit_checksum(const RunHeader& run, const UnitCount& unit);

//! A checksum as files store it: 8 lower-case hex digits.
NQUEENS_EXPORT std::string checksum_hex(std::uint32_t checksum);

}  // namespace nqueens
