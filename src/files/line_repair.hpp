#pragma once
// What the journal and the shard file share in reading their lines: the limits on a line, the
// line end, and the repair of a damaged header line by the bit its checksum says was flipped.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nqueens::detail {

// A file's first line is looked for in this many bytes: a journal's run header line is under
// 300 bytes, a shard file's header line under 600.
inline constexpr std::size_t kMaxHeaderBytes = 4096;

// A journal's record line is under 200 bytes (10 numbers of at most 20 digits and a checksum);
// a longer unterminated tail is not a record cut short.
inline constexpr std::size_t kMaxTornBytes = 256;

// A shard file's unit entry is under 300 bytes (its numbers at 20 digits each).
inline constexpr std::size_t kMaxEntryBytes = 320;

// A damaged header line up to this long is tried with each of its bits flipped: a single flipped
// bit is the commonest damage, and the line's CRC-32 says which bit it was. For a journal, the
// text before its checksum; for a shard file, the header's fields (shard.hpp).
inline constexpr std::size_t kMaxCorrectedJournalLine = 512;
inline constexpr std::size_t kMaxCorrectedShardLine = 1024;

// A line without its end: "\n", or "\r\n" where a tool rewrote the file with CRLF line ends.
std::string_view without_cr(std::string_view line);

// The texts that `text` becomes with one bit flipped among its first `flippable` bytes, where
// that makes its CRC-32 `checksum`: what a header line damaged in a single bit was written as.
// In the order of the bits, byte by byte from the start, each byte's lowest bit first.
std::vector<std::string> single_bit_repairs(std::string_view text, std::size_t flippable, std::uint32_t checksum);

}  // namespace nqueens::detail
