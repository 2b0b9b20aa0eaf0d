#pragma once
// The run header: what names a run, so that a journal or a shard file can be checked against
// the run it is used with. Two runs with equal headers have the same units in the same order,
// so their per-unit counts may be mixed freely.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nqueens/export.hpp"
#include "nqueens/options.hpp"

namespace nqueens {

//! The run a journal or shard file belongs to: what makes its unit ids mean the same units.
struct RunHeader {
  std::string version;  //!< the tool version that wrote it (informational, see below)
  std::string engine;   //!< the engine's name: files of one engine are refused by another
  int n = 0;            //!< the board size
  //! The engine's settings for this run, every one it takes, resolved (a split depth chosen from
  //! N is written as chosen), by name and value as the command line spells them; empty for an
  //! engine that takes none.
  EngineSettings settings{};
  std::size_t unit_count = 0;     //!< the run's units
  std::uint64_t fingerprint = 0;  //!< fingerprint() of the unit list

  //! Field by field: the same run written by the same version.
  friend bool operator==(const RunHeader&, const RunHeader&) = default;
};

//! Why a file with header `found` can not be used for the run `expected`: the first field that
//! differs, both values named ("N is 15 there, 16 here"); empty when they match. The tool
//! version is not compared: the fingerprint already says whether the unit lists agree, and a
//! newer build must be able to finish an older build's run.
NQUEENS_EXPORT std::string header_mismatch(const RunHeader& expected, const RunHeader& found);

//! Why no run of this build can have `header`: an engine it does not have, N outside the board
//! limits, or what the engine's own check refuses (a split depth its splitter never makes, more
//! units than it could have); empty when it could. Files are checked with it before anything is sized by their unit
//! count.
NQUEENS_EXPORT std::string header_problem(const RunHeader& header);

//! One line of `key=value` words: "version=0.1.0 engine=dfs n=16 split_depth=3 symmetry=full
//! units=1234 fingerprint=00ab...", each setting between n and units, by name with '_' for '-'
//! (setting_key()). parse_header_text() reads it back, or returns nullopt.
NQUEENS_EXPORT std::string header_text(const RunHeader& header);
//! The header a line of header_text() describes, or nullopt for a line that is not one.
NQUEENS_EXPORT std::optional<RunHeader> parse_header_text(std::string_view text);

//! header_text() without the tool version: what every record of a run is bound to (its
//! checksum covers it), so that a record moved into a file of another run fails its check.
NQUEENS_EXPORT std::string run_identity(const RunHeader& header);

//! How files and records spell a setting's name: "split-depth" -> "split_depth".
NQUEENS_EXPORT std::string setting_key(std::string_view name);
//! The setting name a file's key spells: "split_depth" -> "split-depth".
NQUEENS_EXPORT std::string setting_name(std::string_view key);

//! The fingerprint as 16 lower-case hex digits, as files store it.
NQUEENS_EXPORT std::string fingerprint_hex(std::uint64_t fingerprint);

}  // namespace nqueens
