#pragma once
// The slow, obviously-correct counter that the tests hold the engine to. It shares no code
// with the kernel: plain permutation backtracking, attacks checked queen against queen.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace nqueens {

//! Completions of the given first rows (`prefix[r]` = column of the queen on row r), counting
//! each board once. An illegal prefix has none. Meant for n <= 12 or so.
std::uint64_t reference_count(int n, std::span<const std::uint8_t> prefix = {});

//! Calls `visit` with every solution whose first rows are `prefix` (`columns[r]` = column on row
//! r), in lexicographic order, and returns the queens the search placed. An illegal prefix has none.
std::uint64_t reference_solutions(int n, std::span<const std::uint8_t> prefix,
                                  const std::function<void(const std::vector<int>&)>& visit);

//! Calls `visit` with every solution (`columns[r]` = column on row r), in lexicographic order.
void reference_solutions(int n, const std::function<void(const std::vector<int>&)>& visit);

}  // namespace nqueens
