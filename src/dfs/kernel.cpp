#include "dfs/kernel.hpp"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "board/canonical.hpp"
#include "dfs/breadth.hpp"

namespace nqueens {

namespace {

using detail::Level;
using detail::RowRule;

// The unit's symmetry rules as one RowRule per row, unpacked once per unit.
std::array<RowRule, kMaxN> make_rules(const WorkUnit& unit, int n) {
  std::array<RowRule, kMaxN> rules{};
  for (int row = 0; row < n; ++row) rules[row].allowed = allowed_columns(n, unit, row);
  // Edge units: below side_row no side column is allowed, so there one still empty must be
  // filled, and two still empty can never both be.
  if (unit.kind == UnitKind::edge && unit.bound > 0) {
    RowRule& side_row = rules[n - 1 - unit.bound];
    side_row.sides = Mask{1} | (Mask{1} << (n - 1));
    side_row.force_sides = true;
  }
  return rules;
}

// The row where the depth-first descent hands its boards to the breadth-first levels: half way
// down, where the tree is wide enough to fill batches. (Measured at N = 16..18: one row higher
// makes the levels outgrow the L2 cache at N >= 17, one row lower leaves too much to the
// branchy descent.)
int switch_row(const WorkUnit& unit, int n) { return std::max(n / 2, static_cast<int>(unit.rows)); }

// The levels' memory, kept per thread from one unit to the next so that the search allocates
// only while a thread warms up.
struct Scratch {
  std::array<Level, kMaxN> levels;
  std::vector<std::uint8_t> paths;
  std::vector<detail::Leaf> leaves;
};

Scratch& scratch() {
  thread_local Scratch mine;
  return mine;
}

// One unit's search. Rows unit.rows .. switch_row-1 are filled depth-first (an explicit stack,
// no recursion); every board reaching the switch row joins a batch, and each full batch is
// finished breadth-first, level by level, down to the last row.
template <UnitKind Kind>
class Search {
 public:
  Search(const WorkUnit& unit, int n, std::size_t batch_size)
      : unit_(unit),
        batch_size_(batch_size),
        n_(n),
        last_(n - 1),
        switch_(switch_row(unit, n)),
        rules_(make_rules(unit, n)),
        levels_(scratch().levels),
        paths_(scratch().paths),
        leaves_found_(scratch().leaves) {
    for (int row = switch_; row < n; ++row) levels_[row].reserve(batch_size_ * 4, kWithParents);
    levels_[switch_].clear();
    if constexpr (kWithParents) paths_.resize(batch_size_ * static_cast<std::size_t>(switch_));
  }

  Tally run() {
    if (unit_.rows == n_) {
      count_complete_unit();
    } else {
      descend();
      finish_batch();
    }
    if constexpr (Kind == UnitKind::plain) tally_.total = leaves_ * unit_.weight;
    if constexpr (Kind == UnitKind::corner) {
      tally_.orbits[orbit_slot(8)] = leaves_;
      tally_.total = 8 * leaves_;
    }
    return tally_;
  }

 private:
  // Edge leaves need the whole board to decide canonicity, so their levels keep parent links.
  static constexpr bool kWithParents = Kind == UnitKind::edge;

  struct Frame {
    Mask cols, left, right, untried;
  };

  void descend() {
    const int first = unit_.rows;
    if (first == switch_) {
      add_to_batch(unit_.cols, unit_.left_diag, unit_.right_diag, nullptr, first);
      return;
    }
    int row = first;
    Mask cols = unit_.cols, left = unit_.left_diag, right = unit_.right_diag;
    Mask untried = detail::free_columns(cols, left, right, rules_[row]);
    for (;;) {
      if (untried == 0) {
        if (row == first) return;
        --row;
        cols = stack_[row].cols;
        left = stack_[row].left;
        right = stack_[row].right;
        untried = stack_[row].untried;
        continue;
      }
      const Mask bit = untried & (0 - untried);
      untried ^= bit;
      ++tally_.nodes;
      stack_[row] = {cols, left, right, untried};
      if (row + 1 == switch_) {
        add_to_batch(cols | bit, (left | bit) << 1, (right | bit) >> 1, stack_, row + 1);
        continue;
      }
      ++row;
      cols |= bit;
      left = (left | bit) << 1;
      right = (right | bit) >> 1;
      untried = detail::free_columns(cols, left, right, rules_[row]);
    }
  }

  void add_to_batch(Mask cols, Mask left, Mask right, const Frame* stack, int rows) {
    Level& batch = levels_[switch_];
    const std::size_t i = batch.size++;
    batch.cols[i] = cols;
    batch.left[i] = left;
    batch.right[i] = right;
    if constexpr (kWithParents) record_path(i, stack, rows);
    if (batch.size == batch_size_) finish_batch();
  }

  // The columns of rows 0..switch-1 of batch board i: the unit's prefix, then each stacked row's
  // queen (the bit its row added to the column mask).
  void record_path(std::size_t i, const Frame* stack, int rows) {
    std::uint8_t* path = &paths_[i * static_cast<std::size_t>(switch_)];
    for (int r = 0; r < unit_.rows; ++r) path[r] = unit_.queens[r];
    for (int r = unit_.rows; r < rows; ++r) {
      const Mask after = r + 1 < rows ? stack[r + 1].cols : levels_[switch_].cols[i];
      path[r] = static_cast<std::uint8_t>(column_of(after ^ stack[r].cols));
    }
  }

  void finish_batch() {
    if (levels_[switch_].size == 0) return;
    // The last two rows are filled without storing the boards between them (tiny boards, whose
    // batch may already be on the second-last row or the last, go row by row).
    const int stop = std::max(switch_, last_ - 1);
    for (int row = switch_; row < stop; ++row) {
      detail::expand(levels_[row], levels_[row + 1], rules_[row], kWithParents);
      tally_.nodes += levels_[row + 1].size;
    }
    if (stop == last_ - 1)
      finish_two_rows(levels_[stop]);
    else
      count_leaves(levels_[last_]);
    levels_[switch_].clear();
  }

  void finish_two_rows(const Level& second_last) {
    leaves_found_.clear();
    const detail::TwoRows found =
        detail::finish_two_rows(second_last, rules_[last_ - 1], rules_[last_], kWithParents ? &leaves_found_ : nullptr);
    tally_.nodes += found.second_last + found.leaves;
    if constexpr (Kind == UnitKind::edge) {
      for (const detail::Leaf& leaf : leaves_found_) classify_leaf(leaf);
    } else {
      leaves_ += found.leaves;
    }
  }

  void count_leaves(const Level& final_row) {
    for (std::size_t i = 0; i < final_row.size; ++i) {
      const Mask last_bit = detail::free_columns(final_row, i, rules_[last_]);
      tally_.nodes += last_bit != 0;
      if constexpr (Kind == UnitKind::edge) {
        if (last_bit != 0) classify_leaf(i, last_, {last_bit});
      } else {
        leaves_ += last_bit != 0;
      }
    }
  }

  // A unit whose prefix already fills the board (N = 1) is a leaf itself.
  void count_complete_unit() {
    if constexpr (Kind == UnitKind::edge)
      keep_if_canonical(unit_.queens.data());
    else
      ++leaves_;
  }

  void classify_leaf(const detail::Leaf& leaf) { classify_leaf(leaf.board, last_ - 1, {leaf.second_last, leaf.last}); }

  // Rebuilds a finished board from board `i` of level `row` (its rows below `row` filled), the
  // queens `bottom` that complete it, parent links and the batch path; keeps it if canonical.
  void classify_leaf(std::size_t i, int level_row, std::initializer_list<Mask> bottom) {
    std::array<std::uint8_t, kMaxN> columns{};
    int bottom_row = level_row;
    for (const Mask bit : bottom) columns[bottom_row++] = static_cast<std::uint8_t>(column_of(bit));
    std::size_t node = i;
    for (int row = level_row - 1; row >= switch_; --row) {
      const std::size_t parent = levels_[row + 1].parent[node];
      columns[row] = static_cast<std::uint8_t>(column_of(levels_[row + 1].cols[node] ^ levels_[row].cols[parent]));
      node = parent;
    }
    const std::uint8_t* path = &paths_[node * static_cast<std::size_t>(switch_)];
    for (int row = 0; row < switch_; ++row) columns[row] = path[row];
    keep_if_canonical(columns.data());
  }

  void keep_if_canonical(const std::uint8_t* columns) {
    const Orbit orbit = classify(std::span<const std::uint8_t>(columns, static_cast<std::size_t>(n_)));
    if (!orbit.canonical) return;
    ++tally_.orbits[orbit_slot(orbit.size)];
    tally_.total += static_cast<std::uint64_t>(orbit.size);
  }

  const WorkUnit& unit_;
  const std::size_t batch_size_;  // boards gathered before each breadth-first pass
  const int n_, last_, switch_;
  const std::array<RowRule, kMaxN> rules_;
  std::array<Level, kMaxN>& levels_;
  std::vector<std::uint8_t>& paths_;         // edge units: rows 0..switch-1 of each batch board
  std::vector<detail::Leaf>& leaves_found_;  // edge units: the finished boards of a batch
  Frame stack_[kMaxN] = {};
  Tally tally_;
  std::uint64_t leaves_ = 0;
};

}  // namespace

Tally count_from(const WorkUnit& unit, int n) { return count_from_in_batches(unit, n, kKernelBatch); }

Tally count_from_in_batches(const WorkUnit& unit, int n, std::size_t batch_size) {
  if (!valid_board_size(n) || unit.rows > n)
    throw std::invalid_argument("work unit does not fit an N = " + std::to_string(n) + " board");
  if (batch_size == 0) throw std::invalid_argument("the kernel's batch size must be at least 1");
  switch (unit.kind) {
    case UnitKind::plain: return Search<UnitKind::plain>(unit, n, batch_size).run();
    case UnitKind::corner: return Search<UnitKind::corner>(unit, n, batch_size).run();
    case UnitKind::edge: return Search<UnitKind::edge>(unit, n, batch_size).run();
  }
  return {};
}

}  // namespace nqueens
