#include "join/half_boards.hpp"

#include <bit>
#include <optional>

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

  // The fixed queens' diagonals as key bits, when every one of them that crosses the quadrant
  // is a crossing diagonal (then an entry attacks a fixed queen iff its key meets these bits);
  // nullopt otherwise (the middle column's queen on the border row, b = k, forbids a diagonal
  // that only the south quadrants reach).
  std::optional<std::uint64_t> forbidden_key(int k) const {
    const std::uint32_t local = (std::uint32_t{1} << (2 * k - 1)) - 1;
    const QuarterEntry forbidden{forbidden_sums & local, forbidden_differences & local};
    const std::uint64_t in_key = key(forbidden);
    if (std::popcount(in_key) != std::popcount(forbidden.sums) + std::popcount(forbidden.differences))
      return std::nullopt;
    return in_key;
  }

  std::uint64_t key(const QuarterEntry& entry) const {
    const std::uint64_t sums = ((std::uint64_t{entry.sums} << sum_shift) >> crossing_low) & crossing_mask;
    const std::uint64_t differences =
        ((std::uint64_t{entry.differences} << difference_shift) >> crossing_low) & crossing_mask;
    return sums | (differences << crossing_bits);
  }
};

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

// Serial: a slice is built by the worker thread that needs it, beside others building theirs.
QuadrantKeyTables::QuadrantKeyTables(std::span<const QuarterEntry> entries, int n)
    : entries_(entries.size()), keys_(4 * entries.size()) {
  // Any unit of n has the same quadrants; the unfolded even-kind layout has no fixed queen.
  const UnitLayout layout = layout_of(n, JoinUnit{});
  for (const Quadrant& quadrant : {layout.east.north, layout.east.south, layout.west.north, layout.west.south}) {
    const QuadrantView view(layout, quadrant);
    std::uint64_t* keys = keys_.data() + position(quadrant) * entries_;
    for (std::size_t i = 0; i < entries.size(); ++i) keys[i] = view.key(entries[i]);
  }
}

bool wants_quadrant_key_tables(int n) { return n % 2 == 1 && n / 2 <= 10; }

// The keys of every entry of the slice whose column set lies in `columns` and that attacks no fixed
// queen, grouped by column set. One pass over the row set's groups into storage sized once: at
// odd n most units are small, and resizing per group (zero-filling included) cost more than the
// keys themselves.
void QuadrantKeys::load(const QuarterSlice& slice, const QuadrantKeyTables* precomputed, const UnitLayout& layout,
                        const Quadrant& quadrant, std::uint32_t columns) {
  const QuadrantView view(layout, quadrant);
  const std::size_t column_masks = std::size_t{1} << slice.k();
  if (starts_.size() < column_masks) {
    starts_.resize(column_masks);
    ends_.resize(column_masks);
  }
  const auto sets = slice.column_sets();
  const std::size_t capacity = slice.entries().size();
  if (keys_.size() < capacity) keys_.resize(capacity);
  const std::optional<std::uint64_t> forbidden = precomputed ? view.forbidden_key(layout.k) : std::nullopt;
  const QuarterEntry* first_entry = slice.entries().data();
  std::uint32_t kept = 0;
  for (const std::uint32_t set : sets) {
    starts_[set] = kept;
    if ((set & ~columns) == 0) {
      const auto group = slice.group(set);
      if (forbidden) {
        const std::uint64_t* keys = precomputed->of(quadrant).data() + (group.data() - first_entry);
        for (std::size_t i = 0; i < group.size(); ++i) {
          keys_[kept] = keys[i];
          kept += (keys[i] & *forbidden) == 0 ? 1u : 0u;
        }
      } else {
        for (const QuarterEntry& entry : group) {
          keys_[kept] = view.key(entry);
          kept += view.attacks_fixed_queen(entry) ? 0u : 1u;
        }
      }
    }
    ends_[set] = kept;
  }
}

void HalfEnumerator::enumerate(SliceView north, SliceView south, const UnitLayout& layout, const SideLayout& side,
                               KeyBuffer& keys) {
  keys.clear();
  if (std::popcount(side.north_rows) + std::popcount(side.south_rows) != std::popcount(side.columns)) return;
  north_.load(north.slice, north.keys, layout, side.north, side.columns);
  south_.load(south.slice, south.keys, layout, side.south, side.columns);
  // Every split of the half's columns between the quadrants: C north, the rest south.
  for (const std::uint32_t north_columns : north.slice.column_sets()) {
    if ((north_columns & ~side.columns) != 0) continue;
    const auto north_keys = north_.of(north_columns);
    const auto south_keys = south_.of(side.columns & ~north_columns);
    if (north_keys.empty() || south_keys.empty()) continue;
    std::uint64_t* out = keys.make_room(north_keys.size() * south_keys.size());
    keys.commit(append_compatible(north_keys, south_keys, out));
  }
}

}  // namespace nqueens::join
