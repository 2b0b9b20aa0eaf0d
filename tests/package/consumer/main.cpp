// The example at the top of nqueens.hpp, built against the installed package; exits 0 only on
// the known 92.
#include <iostream>

#include <nqueens/nqueens.hpp>

int main() {
  const nqueens::CountResult result = nqueens::count(8);  // fastest engine, every core
  std::cout << nqueens::to_string(result.totals.total);   // "92"
  std::cout << " (N=8, nqueens " << nqueens::kVersion << ")\n";
  return result.totals.total == 92 ? 0 : 1;
}
