#include "join/half_boards.hpp"

#include <bit>

namespace nqueens::join {

namespace {

// How one quadrant's local diagonals map to a half's key. A square (r, c) of the quadrant lies
// on board sum r + c + row0 + col0 and board difference r - c + row0 - col0 + n - 1; the key
// keeps the crossing diagonals only. Fixed queens' diagonals are moved to local numbering once,
// so that filtering an entry is two 32-bit ANDs.
struct QuadrantView {
  int sum_shift = 0, difference_shift = 0;
  std::uint32_t forbidden_sums = 0, forbidden_differences = 0;
  int crossing_low = 0, crossing_bits = 0;
  std::uint64_t crossing_mask = 0;

  QuadrantView(const UnitLayout& layout, const Quadrant& quadrant)
      : sum_shift(quadrant.row0 + quadrant.col0),
        difference_shift(quadrant.row0 - quadrant.col0 + layout.n - layout.k),
        forbidden_sums(static_cast<std::uint32_t>(layout.forbidden_sums >> sum_shift)),
        forbidden_differences(static_cast<std::uint32_t>(layout.forbidden_differences >> difference_shift)),
        crossing_low(layout.crossing_low),
        crossing_bits(layout.crossing_bits),
        crossing_mask((std::uint64_t{1} << layout.crossing_bits) - 1) {}

  bool attacks_fixed_queen(const QuarterEntry& entry) const {
    return ((entry.sums & forbidden_sums) | (entry.differences & forbidden_differences)) != 0;
  }

  std::uint64_t key(const QuarterEntry& entry) const {
    const std::uint64_t sums = ((std::uint64_t{entry.sums} << sum_shift) >> crossing_low) & crossing_mask;
    const std::uint64_t differences =
        ((std::uint64_t{entry.differences} << difference_shift) >> crossing_low) & crossing_mask;
    return sums | (differences << crossing_bits);
  }
};

// Keys of a group's entries that attack no fixed queen; `out` is resized to hold them all and
// shrunk to the survivors, which keeps the loop free of branches.
void load_group(std::span<const QuarterEntry> group, const QuadrantView& view, std::vector<std::uint64_t>& out) {
  out.resize(group.size());
  std::size_t kept = 0;
  for (const QuarterEntry& entry : group) {
    out[kept] = view.key(entry);
    kept += view.attacks_fixed_queen(entry) ? 0u : 1u;
  }
  out.resize(kept);
}

// Appends every n | s with n & s == 0. A north and a south quadrant of one half can only meet
// on crossing diagonals, so the keys alone decide whether the two placements fit.
std::size_t append_compatible(std::span<const std::uint64_t> north, std::span<const std::uint64_t> south,
                              std::uint64_t* out) {
  std::size_t written = 0;
  for (const std::uint64_t n : north) {
    for (const std::uint64_t s : south) {
      out[written] = n | s;
      written += (n & s) == 0 ? 1u : 0u;
    }
  }
  return written;
}

}  // namespace

void HalfEnumerator::enumerate(const QuarterTable& table, const UnitLayout& layout, const SideLayout& side,
                               KeyBuffer& keys) {
  keys.clear();
  const QuadrantView north_view(layout, side.north);
  const QuadrantView south_view(layout, side.south);
  // Every split of the half's columns between the quadrants: C north, the rest south.
  for (const std::uint32_t north_columns : table.column_sets(std::popcount(side.north_rows))) {
    if ((north_columns & ~side.columns) != 0) continue;
    const auto north_group = table.group(side.north_rows, north_columns);
    const auto south_group = table.group(side.south_rows, side.columns & ~north_columns);
    if (north_group.empty() || south_group.empty()) continue;
    load_group(north_group, north_view, north_keys_);
    load_group(south_group, south_view, south_keys_);
    std::uint64_t* out = keys.make_room(north_keys_.size() * south_keys_.size());
    keys.commit(append_compatible(north_keys_, south_keys_, out));
  }
}

}  // namespace nqueens::join
