#pragma once
// Listing solutions, not just counting them: every board in lexicographic order (by the column
// of the queen on row 0, then row 1, ...), or one canonical board per symmetry class.
//
//   nqueens::for_each_solution(8, {}, [](std::span<const std::uint8_t> columns, int) {
//     print(columns);  // columns[r] = column of the queen on row r
//     return true;     // false stops the search
//   });
//
// The search runs on several threads but the sink sees one ordered stream, and memory stays
// bounded however many solutions there are (N = 16 has 14.7 million).
#include <cstdint>
#include <functional>
#include <span>

#include "nqueens/export.hpp"

namespace nqueens {

//! How solve() lists the solutions.
struct SolveOptions {
  bool unique = false;  //!< only the canonical board of each class (the least of its 8 images)
  int threads = 0;      //!< 0: every hardware thread
};

//! Receives one solution and, under `unique`, the size of its class (2, 4 or 8; 1 for N = 1);
//! otherwise 0. Returns false to stop the search.
using SolutionSink = std::function<bool(std::span<const std::uint8_t> columns, int orbit_size)>;

//! Calls `sink` with every solution of the n x n board in lexicographic order, from one thread
//! at a time. Returns when the solutions run out or the sink returns false; an exception thrown
//! by the sink stops the search and is rethrown here. Throws std::invalid_argument for n
//! outside 1..32 or a thread count outside 0..kMaxThreads.
NQUEENS_EXPORT void for_each_solution(int n, const SolveOptions& options, const SolutionSink& sink);

}  // namespace nqueens
