#pragma once
// Run headers as journal format 3 and shard format 3 wrote them, so that files of those formats
// still resume and merge. Those formats gave every header two fixed fields, `symmetry` and
// `split_depth`, which only the dfs engine set (every other engine wrote symmetry=full and
// split_depth=0, a depth the dfs engine never has); later formats carry the engine's settings
// as a map. Reading, the fields become the map; the records of such a file stay bound to the
// header's text as those formats wrote it (format3_identity).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nqueens/files/run_header.hpp"

namespace nqueens::detail {

//! The settings map of format-3 fields: none where split_depth is 0, the dfs engine's
//! "symmetry" and "split-depth" otherwise; nullopt for a symmetry mode no build wrote.
std::optional<EngineSettings> format3_settings(std::string_view symmetry, int split_depth);

//! The two fields a format-3 file gives for `header`'s settings, the inverse of
//! format3_settings(): {"full", 0} for none. Nullopt for settings format 3 could not hold.
struct Format3Fields {
  std::string symmetry;
  int split_depth = 0;
};
std::optional<Format3Fields> format3_fields(const RunHeader& header);

//! A format-3 header line's words ("version=... engine=dfs n=16 symmetry=full split_depth=3
//! units=... fingerprint=..."), read; nullopt when they are not those seven.
std::optional<RunHeader> parse_format3_header_text(std::string_view text);

//! The text a format-3 file's records are bound to (run_identity() of those formats); "" for a
//! header format 3 could not hold, which then no record checks out under.
std::string format3_identity(const RunHeader& header);

//! What a file's records are bound to: the CRC-32 of its run's identity and a newline, the
//! identity of this build's formats or, with `format3`, format3_identity(). A record's checksum
//! continues it: crc32(unit_record_text(unit), record_binding(...)).
std::uint32_t record_binding(const RunHeader& header, bool format3);

}  // namespace nqueens::detail
