#include "join/join_memory.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "engine/memory_budget.hpp"
#include "join/half_boards.hpp"
#include "join/join_kernel.hpp"
#include "join/join_plan.hpp"
#include "join/quarter_slice.hpp"
#include "join/slice_cache.hpp"
#include "join/south_key_cache.hpp"

namespace nqueens::join {

namespace {

// What a worker keeps per key of its largest half: the key in its buffer (which grows by
// doubling, so up to twice), the stored side's copy in the matcher and its bit-sliced tables (a
// bit per chunk entry: 64 bits per key at 6-bit chunks of a 46-bit key), the slot partition
// (the keys sorted by slot, and per slot about 112 bytes of starts, counts and sampled sizes:
// under 2 bytes a key, as a split of sides of n keys has at most n / 64 slots).
constexpr std::uint64_t kThreadBytesPerHalf = 128;
// And per entry of its largest slice: the north and south quadrants' kept keys, and off centre
// their entries' kept masks and counts (5 bytes per 8 entries: taken as a byte an entry).
constexpr std::uint64_t kThreadBytesPerSliceEntry = 2 * (sizeof(std::uint64_t) + 1);

double binomial(int n, int r) {
  double value = 1;
  for (int i = 1; i <= r; ++i) value = value * (n - r + i) / i;
  return value;
}

std::uint64_t table_entries(int k) {
  const std::vector<std::uint64_t>& entries = placements_per_row_set(k);
  std::uint64_t all = 0;
  for (const std::uint64_t count : entries) all += count;
  return all;
}

struct SliceFigures {
  std::vector<std::uint64_t> bytes;  // by row set
  std::uint64_t all = 0, most_entries = 0;
};

SliceFigures slice_figures(int n, bool keys) {
  const int k = n / 2;
  const std::vector<std::uint64_t>& entries = placements_per_row_set(k);
  SliceFigures figures;
  figures.bytes.resize(entries.size());
  for (std::uint32_t rows = 0; rows < entries.size(); ++rows) {
    figures.bytes[rows] = LoadedSlice::expected_bytes(n, rows, entries[rows], keys);
    figures.all += figures.bytes[rows];
    figures.most_entries = std::max(figures.most_entries, entries[rows]);
  }
  return figures;
}

// A unit's quadrants hold row sets r and its complement in the north, s and its complement in
// the south, a complement less a fixed queen's row off centre: at most twice the largest pair.
std::uint64_t most_unit_slice_bytes(int k, const std::vector<std::uint64_t>& bytes) {
  const std::uint32_t all = (std::uint32_t{1} << k) - 1;
  std::uint64_t pair = 0;
  for (std::uint32_t rows = 0; rows <= all; ++rows) {
    const std::uint32_t rest = all & ~rows;
    std::uint64_t partner = bytes[rest];
    for (std::uint32_t bits = rest; bits != 0; bits &= bits - 1)
      partner = std::max(partner, bytes[rest & ~(bits & -bits)]);
    pair = std::max(pair, bytes[rows] + partner);
  }
  return 2 * pair;
}

// The most halves one side of a unit can have by the cost model (join_plan.cpp): its north and
// south placements spread evenly over their column sets, taken at their largest row sets.
std::uint64_t most_halves(int k) {
  const std::vector<std::uint64_t>& entries = placements_per_row_set(k);
  std::vector<std::uint64_t> most(static_cast<std::size_t>(k) + 1, 0);
  for (std::uint32_t rows = 0; rows < entries.size(); ++rows) {
    std::uint64_t& slot = most[static_cast<std::size_t>(std::popcount(rows))];
    slot = std::max(slot, entries[rows]);
  }
  double halves = 0;
  for (int north = 0; north <= k; ++north) {
    const double north_entries = static_cast<double>(most[static_cast<std::size_t>(north)]);
    const double south_entries = static_cast<double>(most[static_cast<std::size_t>(k - north)]);
    halves = std::max(halves, north_entries * south_entries / binomial(k, north));
  }
  return static_cast<std::uint64_t>(halves);
}

// A batch of units counted together (join_kernel.hpp) lists every row set of its units: an
// off-centre unit has at most C(k, k/2), one per set of south rows.
std::uint64_t units_together_bytes(int k) {
  return kMostUnitsTogether * static_cast<std::uint64_t>(binomial(k, k / 2)) * kBytesPerRowSetTogether;
}

}  // namespace

std::uint64_t whole_table_bytes(int n, bool keys) { return slice_figures(n, keys).all; }

bool slices_carry_keys(int n, std::uint64_t cache_bytes) {
  return wants_quadrant_key_tables(n) && cache_bytes >= whole_table_bytes(n, true);
}

std::uint64_t JoinMemory::minimum_budget() const {
  return unit_list_bytes + static_cast<std::uint64_t>(threads) * (unit_slices_bytes + thread_buffer_bytes);
}

std::string JoinMemory::describe() const {
  return "memory budget " + format_bytes(budget) + ": unit list " + format_bytes(unit_list_bytes) + " (" +
         std::to_string(units) + " units), slice cache up to " + format_bytes(cache_bytes) + " of the " +
         format_bytes(all_slices_bytes) + " quarter table, key buffers about " + format_bytes(thread_buffer_bytes) +
         " per thread x " + std::to_string(threads) +
         (halves_at_once < largest_side
              ? " (a side of more than " + std::to_string(halves_at_once) + " halves in parts)"
              : "");
}

std::string JoinMemory::too_small() const {
  if (all_slices_bytes == 0)  // refused on the unit list, before the slices were sized
    return "a budget of " + format_bytes(budget) + " is too small for N=" + std::to_string(n) +
           ": its unit list alone takes " + format_bytes(unit_list_bytes) + " (" + std::to_string(units) +
           " units, with what the run keeps per unit)";
  return "a budget of " + format_bytes(budget) + " is too small for N=" + std::to_string(n) + " on " +
         std::to_string(threads) + " thread(s): it needs at least " + format_bytes(minimum_budget()) + " (unit list " +
         format_bytes(unit_list_bytes) + " for " + std::to_string(units) + " units, and per thread one unit's slices " +
         format_bytes(unit_slices_bytes) + " and key buffers about " + format_bytes(thread_buffer_bytes) + ")";
}

JoinMemory plan_join_memory(int n, int threads, std::uint64_t budget) {
  JoinMemory memory;
  memory.n = n;
  memory.threads = threads;
  memory.budget = budget;
  memory.units = unit_count(n) + 1;
  memory.unit_list_bytes = memory.units * (sizeof(JoinUnit) + kRunBytesPerUnit);
  // Refused before the slices are sized: counting the placements per row set takes minutes
  // from n = 28 on, and the unit list alone already says no.
  if (budget < memory.unit_list_bytes) {
    memory.refusal = memory.too_small();
    return memory;
  }
  SliceFigures slices;
  const auto size_slices = [&](bool keys) {
    slices = slice_figures(n, keys);
    memory.all_slices_bytes = slices.all;
    memory.unit_slices_bytes = std::min(slices.all, most_unit_slice_bytes(n / 2, slices.bytes));
  };
  // Sized without keys first: the least budget that fits is a keyless one.
  size_slices(false);
  memory.largest_side = most_halves(n / 2);
  // A thread's two south key caches (south_key_cache.hpp), where n has them.
  const std::uint64_t south_key_caches = 2 * south_key_cache_bytes(n, table_entries(n / 2));
  const std::uint64_t other_thread_bytes =
      slices.most_entries * kThreadBytesPerSliceEntry + units_together_bytes(n / 2) + south_key_caches;
  const auto set_halves_at_once = [&](std::uint64_t halves) {
    memory.halves_at_once = std::min(halves, memory.largest_side);
    memory.thread_buffer_bytes = memory.halves_at_once * kThreadBytesPerHalf + other_thread_bytes;
  };
  memory.least_thread_bytes = memory.unit_slices_bytes +
                              std::min(kFewestHalvesAtOnce, memory.largest_side) * kThreadBytesPerHalf +
                              other_thread_bytes;
  set_halves_at_once(UINT64_MAX);
  if (budget < memory.minimum_budget()) {
    set_halves_at_once(kFewestHalvesAtOnce);
    if (budget < memory.minimum_budget()) {
      memory.refusal = memory.too_small();
      return memory;
    }
    const std::uint64_t per_thread = (budget - memory.minimum_budget()) / 2 / static_cast<std::uint64_t>(threads);
    set_halves_at_once(kFewestHalvesAtOnce + per_thread / kThreadBytesPerHalf);
  }
  const std::uint64_t fixed = memory.unit_list_bytes + static_cast<std::uint64_t>(threads) * memory.thread_buffer_bytes;
  if (slices_carry_keys(n, budget - fixed)) size_slices(true);
  memory.cache_bytes = std::min(budget - fixed, slices.all);
  return memory;
}

}  // namespace nqueens::join
