// Counts the 8 x 8 board through the installed package; exits 0 only on the known 92.
#include <iostream>

#include <nqueens/nqueens.hpp>

int main() {
  const nqueens::CountResult result = nqueens::count(8);
  std::cout << "N=8 total=" << nqueens::to_string(result.totals.total) << " (nqueens " << nqueens::kVersion << ")\n";
  return result.totals.total == 92 ? 0 : 1;
}
