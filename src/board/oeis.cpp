#include "nqueens/oeis.hpp"

#include <array>

namespace nqueens {

namespace {

struct Row {
  int n;
  std::uint64_t total;   // A000170(n)
  std::uint64_t unique;  // A002562(n); n = 0 is outside that sequence
};

constexpr std::array<Row, kOeisMaxN + 1> kTable = {{
    {0, 1ull, 0ull},
    {1, 1ull, 1ull},
    {2, 0ull, 0ull},
    {3, 0ull, 0ull},
    {4, 2ull, 1ull},
    {5, 10ull, 2ull},
    {6, 4ull, 1ull},
    {7, 40ull, 6ull},
    {8, 92ull, 12ull},
    {9, 352ull, 46ull},
    {10, 724ull, 92ull},
    {11, 2680ull, 341ull},
    {12, 14200ull, 1787ull},
    {13, 73712ull, 9233ull},
    {14, 365596ull, 45752ull},
    {15, 2279184ull, 285053ull},
    {16, 14772512ull, 1846955ull},
    {17, 95815104ull, 11977939ull},
    {18, 666090624ull, 83263591ull},
    {19, 4968057848ull, 621012754ull},
    {20, 39029188884ull, 4878666808ull},
    {21, 314666222712ull, 39333324973ull},
    {22, 2691008701644ull, 336376244042ull},
    {23, 24233937684440ull, 3029242658210ull},
    {24, 227514171973736ull, 28439272956934ull},
    {25, 2207893435808352ull, 275986683743434ull},
    {26, 22317699616364044ull, 2789712466510289ull},
    {27, 234907967154122528ull, 29363495934315694ull},
}};

}  // namespace

std::optional<std::uint64_t> oeis_total(int n) {
  if (n < 0 || n > kOeisMaxN) return std::nullopt;
  return kTable[static_cast<std::size_t>(n)].total;
}

std::optional<std::uint64_t> oeis_unique(int n) {
  if (n < 1 || n > kOeisMaxN) return std::nullopt;
  return kTable[static_cast<std::size_t>(n)].unique;
}

}  // namespace nqueens
