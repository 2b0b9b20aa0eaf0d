#pragma once
// Helpers shared by the test files: readable descriptions of counts (GoogleTest cannot print
// 128-bit integers) and a brute-force orbit classifier that shares nothing with
// src/canonical.cpp. The classifier moves queens as (row, col) squares under the 8 symmetries of
// the square and reads each image back row by row, instead of the library's inverse-permutation
// formulas, so the two can only agree by both being right.
#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "board/canonical.hpp"
#include "dfs/kernel.hpp"
#include "dfs/split.hpp"
#include "dfs/work_unit.hpp"
#include "engine/engine.hpp"
#include "nqueens/nqueens.hpp"
#include "reference/reference.hpp"

// GoogleTest prints parameters through PrintTo found by argument-dependent lookup.
namespace nqueens {
inline void PrintTo(Symmetry mode, std::ostream* os) { *os << to_string(mode); }
}  // namespace nqueens

namespace test_support {

inline constexpr std::array<nqueens::Symmetry, 3> kModes = {nqueens::Symmetry::none, nqueens::Symmetry::mirror,
                                                            nqueens::Symmetry::full};

inline std::string describe(const nqueens::Totals& t) {
  using nqueens::to_string;
  return "total=" + to_string(t.total) + " orbits=" + to_string(t.orbits[0]) + "/" + to_string(t.orbits[1]) + "/" +
         to_string(t.orbits[2]) + "/" + to_string(t.orbits[3]) + " nodes=" + to_string(t.nodes);
}

inline std::string describe(const nqueens::Tally& t) {
  nqueens::Totals as_totals;
  as_totals += t;
  return describe(as_totals);
}

//! `o` with the symmetry setting of `mode`, as the command line gives it: none for full, what
//! every engine does by default.
inline nqueens::CountOptions with_symmetry(nqueens::CountOptions o, nqueens::Symmetry mode) {
  o.settings.erase("symmetry");
  if (mode != nqueens::Symmetry::full) o.settings["symmetry"] = std::string(nqueens::to_string(mode));
  return o;
}

//! The symmetry `o` asks for: its setting, or full.
inline nqueens::Symmetry symmetry_of(const nqueens::CountOptions& o) {
  const auto given = o.settings.find("symmetry");
  return given == o.settings.end() ? nqueens::Symmetry::full : nqueens::parse_symmetry(given->second).value();
}

//! Options for a count() by the dfs engine (the one with symmetry modes), set field by field:
//! designated initializers that leave out the observer trip -Wmissing-field-initializers.
inline nqueens::CountOptions options(nqueens::Symmetry mode, int threads = 0) {
  nqueens::CountOptions o;
  o.engine = "dfs";
  o.threads = threads;
  return with_symmetry(o, mode);
}

//! The queens a unit has placed, as the span reference_count() takes.
inline std::span<const std::uint8_t> prefix_of(const nqueens::WorkUnit& unit) {
  return {unit.queens.data(), unit.rows};
}

// ---- brute-force orbits ----------------------------------------------------------------------

using Board = std::vector<int>;      // board[r] = column of the queen on row r
using Square = std::pair<int, int>;  // (row, col)

inline constexpr int kSymmetries = 8;

//! Symmetry g of the n x n square applied to one square; g = 0 is the identity.
inline Square map_square(int g, Square s, int n) {
  const auto [r, c] = s;
  const int last = n - 1;
  switch (g) {
    case 0: return {r, c};
    case 1: return {r, last - c};         // left-right mirror
    case 2: return {last - r, c};         // top-bottom flip
    case 3: return {last - r, last - c};  // half turn
    case 4: return {c, r};                // reflection in the main diagonal
    case 5: return {last - c, last - r};  // reflection in the anti-diagonal
    case 6: return {c, last - r};         // quarter turn clockwise
    default: return {last - c, r};        // quarter turn anticlockwise
  }
}

//! The board moved by symmetry g: its queens as a set of squares, read back row by row.
inline Board image(const Board& board, int g) {
  const int n = static_cast<int>(board.size());
  std::set<Square> queens;
  for (int r = 0; r < n; ++r) queens.insert(map_square(g, {r, board[static_cast<std::size_t>(r)]}, n));
  Board out;
  for (const auto& [row, col] : queens) {                // the set is sorted by row, one queen per row
    if (row != static_cast<int>(out.size())) return {};  // not a permutation: cannot happen
    out.push_back(col);
  }
  return out;
}

struct BruteOrbit {
  bool canonical = false;  // the board is the least of its images
  int size = 0;            // distinct images
};

inline BruteOrbit brute_orbit(const Board& board) {
  std::set<Board> images;
  for (int g = 0; g < kSymmetries; ++g) images.insert(image(board, g));
  return {*images.begin() == board, static_cast<int>(images.size())};
}

inline std::size_t slot_of(int orbit_size) {
  return orbit_size == 1 ? 0 : orbit_size == 2 ? 1 : orbit_size == 4 ? 2 : 3;
}

inline std::vector<Board> all_solutions(int n) {
  std::vector<Board> boards;
  nqueens::reference_solutions(n, [&boards](const Board& b) { boards.push_back(b); });
  return boards;
}

//! Orbits among all solutions, found by grouping each board with its least image; the group
//! sizes are counted, not taken from brute_orbit(), so the two are checked against each other.
struct Census {
  std::array<std::uint64_t, 4> orbits{};  // orbits of 1, 2, 4, 8 boards
  std::uint64_t orbit_count = 0;
  bool sizes_agree = true;  // every group's size equals brute_orbit().size of its members
};

inline Census census(int n) {
  std::map<Board, std::vector<Board>> groups;
  for (const Board& b : all_solutions(n)) {
    std::set<Board> images;
    for (int g = 0; g < kSymmetries; ++g) images.insert(image(b, g));
    groups[*images.begin()].push_back(b);
  }
  Census c;
  for (const auto& [least, members] : groups) {
    const int size = static_cast<int>(members.size());
    if (size != 1 && size != 2 && size != 4 && size != 8) c.sizes_agree = false;
    for (const Board& b : members) c.sizes_agree = c.sizes_agree && brute_orbit(b).size == size;
    ++c.orbits[slot_of(size)];
    ++c.orbit_count;
  }
  return c;
}

}  // namespace test_support
