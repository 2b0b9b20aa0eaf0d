// Streams boards as the search finds them, in lexicographic order, and stops after a few: the
// sink returns false. Memory stays small however many solutions the board has.
//   stream_solutions [N] [how many]      (default 8 and 3)
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <span>
#include <stdexcept>
#include <string>

#include <nqueens/nqueens.hpp>

namespace {

// One row per line, the queen as Q.
void print_board(std::span<const std::uint8_t> columns) {
  for (const std::uint8_t column : columns) {
    std::string row(columns.size(), '.');
    row[column] = 'Q';
    std::cout << row << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const int wanted = argc > 2 ? std::atoi(argv[2]) : 3;
  int printed = 0;
  try {
    nqueens::for_each_solution(n, {}, [&](std::span<const std::uint8_t> columns, int /*orbit_size*/) {
      std::cout << "solution " << ++printed << ":\n";
      print_board(columns);
      return printed < wanted;  // false stops the search
    });
  } catch (const std::invalid_argument& bad) {
    std::cerr << "stream_solutions: " << bad.what() << "\n";
    return 2;
  }
  std::cout << printed << " solutions printed\n";
  return 0;
}
