#include "reference/reference.hpp"

#include <cstdlib>

namespace nqueens {

namespace {

bool attacks(const std::vector<int>& columns, int row, int col) {
  for (int r = 0; r < row; ++r) {
    const int c = columns[static_cast<std::size_t>(r)];
    if (c == col || std::abs(c - col) == row - r) return true;
  }
  return false;
}

// Returns the queens placed below `row`.
std::uint64_t backtrack(std::vector<int>& columns, int row, const std::function<void(const std::vector<int>&)>& visit) {
  const int n = static_cast<int>(columns.size());
  if (row == n) {
    visit(columns);
    return 0;
  }
  std::uint64_t placed = 0;
  for (int col = 0; col < n; ++col) {
    if (attacks(columns, row, col)) continue;
    columns[static_cast<std::size_t>(row)] = col;
    placed += 1 + backtrack(columns, row + 1, visit);
  }
  return placed;
}

}  // namespace

std::uint64_t reference_solutions(int n, std::span<const std::uint8_t> prefix,
                                  const std::function<void(const std::vector<int>&)>& visit) {
  std::vector<int> columns(static_cast<std::size_t>(n), -1);
  int row = 0;
  if (prefix.size() > static_cast<std::size_t>(n)) return 0;
  for (std::uint8_t col : prefix) {
    if (col >= n || attacks(columns, row, col)) return 0;
    columns[static_cast<std::size_t>(row++)] = col;
  }
  return backtrack(columns, row, visit);
}

std::uint64_t reference_count(int n, std::span<const std::uint8_t> prefix) {
  std::uint64_t count = 0;
  reference_solutions(n, prefix, [&count](const std::vector<int>&) { ++count; });
  return count;
}

void reference_solutions(int n, const std::function<void(const std::vector<int>&)>& visit) {
  std::vector<int> columns(static_cast<std::size_t>(n), -1);
  backtrack(columns, 0, visit);
}

}  // namespace nqueens
