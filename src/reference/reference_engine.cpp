// The reference engine: the slow, obviously-correct counter (reference.hpp) as an engine, so a
// user can cross-check any other engine's totals up to N = 14 through the same pipeline. A unit
// is the column of the first row's queen. Unique counts come from listing every solution's
// eight images: a solution is counted once, in its orbit's size class, when it is the
// lexicographically smallest of its images.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/catalogue.hpp"
#include "engine/memory_budget.hpp"
#include "nqueens/version.hpp"
#include "reference/reference.hpp"

namespace nqueens {

namespace {

// Past this the search takes minutes: the engine is a cross-check, not a counter.
constexpr int kMaxReferenceN = 14;

using Board = std::vector<int>;  // board[row] = column

// The board turned a quarter: the queen on (row, column) goes to (column, n - 1 - row).
Board quarter_turn(const Board& board) {
  const int n = static_cast<int>(board.size());
  Board turned(board.size());
  for (int row = 0; row < n; ++row)
    turned[static_cast<std::size_t>(board[static_cast<std::size_t>(row)])] = n - 1 - row;
  return turned;
}

Board mirrored(const Board& board) {
  const int n = static_cast<int>(board.size());
  Board image(board.size());
  for (std::size_t row = 0; row < board.size(); ++row) image[row] = n - 1 - board[row];
  return image;
}

// The orbit size of a solution that is the smallest of its images; 0 when it is not.
int canonical_orbit(const Board& board) {
  std::vector<Board> images;
  for (Board image : {board, mirrored(board)})
    for (int turn = 0; turn < 4; ++turn, image = quarter_turn(image)) images.push_back(image);
  if (*std::min_element(images.begin(), images.end()) != board) return 0;
  std::sort(images.begin(), images.end());
  return static_cast<int>(std::unique(images.begin(), images.end()) - images.begin());
}

class ReferenceCounter final : public UnitCounter {
 public:
  explicit ReferenceCounter(int n) : n_(n) {}

  Tally count(std::size_t id) override {
    Tally tally;
    const std::uint8_t first_column[] = {static_cast<std::uint8_t>(id)};
    tally.nodes = 1 + reference_solutions(n_, first_column, [&tally](const Board& board) {
                    ++tally.total;
                    if (const int orbit = canonical_orbit(board)) ++tally.orbits[orbit_slot(orbit)];
                  });
    return tally;
  }

 private:
  int n_;
};

std::uint64_t fingerprint(int n) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a over the name and N
  for (const char c : "reference" + std::to_string(n)) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

class ReferenceEngine final : public Engine {
 public:
  explicit ReferenceEngine(int n) {
    const auto units = static_cast<std::size_t>(n);
    set_units({kVersion, "reference", n, {}, units, fingerprint(n)}, std::vector<std::uint64_t>(units, 1));
  }

  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<ReferenceCounter>(n()); }

  std::string describe() const override {
    return "reference engine: " + std::to_string(n()) + " units, one per column of the first row's queen";
  }

  // A counter holds one board and its eight images while it searches: nothing that grows.
  std::uint64_t planned_memory_bytes(int threads) const override {
    const std::uint64_t per_thread = 9 * (sizeof(Board) + static_cast<std::uint64_t>(n()) * sizeof(int));
    return unit_bookkeeping_bytes() + static_cast<std::uint64_t>(threads) * per_thread;
  }
};

std::string refusal(int n, const CountOptions& options) {
  if (std::string why = settings_refused(options, "it lists every solution"); !why.empty()) return why;
  if (n < 1 || n > kMaxReferenceN)
    return "it counts N = 1.." + std::to_string(kMaxReferenceN) + " only (a slow cross-check)";
  return "";
}

bool preferred_for(int /*n*/, const CountOptions& /*options*/) { return false; }  // asked for by name only

std::unique_ptr<Engine> make(const RunRequest& request) { return std::make_unique<ReferenceEngine>(request.n); }

std::string problem_with(const RunHeader& header) {
  if (header.n > kMaxReferenceN) return "a reference run has N <= " + std::to_string(kMaxReferenceN);
  if (header.unit_count != static_cast<std::size_t>(header.n))
    return "a reference run of N=" + std::to_string(header.n) + " has " + std::to_string(header.n) + " units";
  return "";
}

std::string cpu_path() { return ""; }

// Its run holds its N units' bookkeeping and nothing that grows.
std::string budget_refusal(int n, const CountOptions& options) {
  return unit_list_refusal(n, static_cast<std::size_t>(n), 0, options.memory_bytes);
}

}  // namespace

const EngineDescription& reference_engine_description() {
  static const EngineDescription description{
      .name = "reference",
      .summary = "slow cross-check for N <= 14: plain backtracking, attacks checked queen against queen",
      .refusal = refusal,
      .preferred_for = preferred_for,
      .make = make,
      .header_problem = problem_with,
      // A unit counts every board whose first queen stands in its column, not whole orbits.
      .partial_runs_report_unique = false,
      .yardstick = false,
      .cpu_path_key = "",
      .cpu_path = cpu_path,
      .budget_refusal = budget_refusal,
  };
  return description;
}

}  // namespace nqueens
