// Single-thread timings of the join engine's core: for each n, every unit's halves are
// enumerated as the engine does (quarter-table pairs under the diagonal fold; for comparison, a
// per-unit bitmask DFS of every half) and their keys joined with the disjoint-pair counter. Usage:
// join_bench [n_low n_high] [--no-dfs] [--chunk-bits c] [--stride s] [--parts h] [--warm]
//            [--widths FILE] | --tables | --unit-work n | --unit-times n stride first
//            | --share-times n shares count
// --share-times times the `count` costliest units whole and in east shares (print_share_times()).
// --stride s times every s-th unit only (a quicker sample of a large n; totals are then partial).
// --parts h times the engine's counter on every (s-th) unit twice, each side whole and each side
// in parts of at most h halves (join_kernel.hpp), and checks that the two agree.
// --warm times a sample of the units with their slices built first, untimed: every s-th unit in
// the order of the engine's cost estimate, so that the sample spans the cost classes. It splits
// the thread's CPU time into enumerating halves, choosing the matcher's slot split and matching,
// counts the distinct keys of each side (untimed), and projects the whole count's CPU time per
// solution.
// --widths FILE does what --warm does, and for every pair of sides of 64 keys or more also
// counts them in slots on each width of split from 0 to kMaxSlotBits bits, timed beside the
// cost model's price (SplitWork), the best width of each pair and the matcher's own choice, by
// the size of the smaller side; FILE gets a line per pair and width (smaller side, width,
// measured ns, then the SplitWork's fields), to fit the model's constants to.
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numeric>
#include <span>
#include <vector>

#include "join/diagonal_fold.hpp"
#include "join/disjoint_count.hpp"
#include "join/half_boards.hpp"
#include "join/join_kernel.hpp"
#include "join/join_layout.hpp"
#include "join/join_plan.hpp"
#include "join/match_cost.hpp"
#include "join/quarter_table.hpp"
#include "join/slot_split.hpp"
#include "join/unit_cost.hpp"
#include "nqueens/oeis.hpp"

namespace {

using namespace nqueens::join;
using Clock = std::chrono::steady_clock;

// This thread's CPU time: the whole run's figure holds on a shared machine, where another
// process may take the core for a while. Phases are split by the wall clock, because reading
// the thread's CPU clock is a system call, too slow to take around every unit.
double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The alternative to pairing quarter entries: place the half's queens row by row, a bitmask
// DFS over the side's columns with board-numbered diagonals.
class DfsHalfEnumerator {
 public:
  void enumerate(const UnitLayout& layout, const SideLayout& side, KeyBuffer& keys) {
    layout_ = &layout;
    keys_ = &keys;
    keys.clear();
    rows_.clear();
    const int far = side.south.row0;
    for (std::uint32_t r = side.north_rows; r != 0; r &= r - 1) rows_.push_back(side.north.row0 + std::countr_zero(r));
    for (std::uint32_t r = side.south_rows; r != 0; r &= r - 1) rows_.push_back(far + std::countr_zero(r));
    columns_ = side.columns << side.north.col0;
    place(0, columns_, layout.forbidden_sums, layout.forbidden_differences, mirrored(layout.forbidden_differences));
  }

 private:
  // Difference d = r - c + n - 1 stored at bit 2n - 2 - d = c - r + n - 1, so that one shift
  // gives the attacked columns of a row.
  std::uint64_t mirrored(std::uint64_t differences) const {
    std::uint64_t out = 0;
    for (std::uint64_t d = differences; d != 0; d &= d - 1)
      out |= std::uint64_t{1} << (2 * layout_->n - 2 - std::countr_zero(d));
    return out;
  }

  void place(std::size_t index, std::uint32_t free_columns, std::uint64_t sums, std::uint64_t differences,
             std::uint64_t mirrored_differences) {
    if (index == rows_.size()) {
      const std::uint64_t mask = (std::uint64_t{1} << layout_->crossing_bits) - 1;
      const std::uint64_t key = ((sums >> layout_->crossing_low) & mask) |
                                (((differences >> layout_->crossing_low) & mask) << layout_->crossing_bits);
      *keys_->make_room(1) = key;
      keys_->commit(1);
      return;
    }
    const int row = rows_[index];
    const auto sum_attacks = static_cast<std::uint32_t>(sums >> row);
    const auto difference_attacks = static_cast<std::uint32_t>(mirrored_differences >> (layout_->n - 1 - row));
    for (std::uint32_t open = free_columns & ~sum_attacks & ~difference_attacks; open != 0; open &= open - 1) {
      const int column = std::countr_zero(open);
      place(index + 1, free_columns & ~(std::uint32_t{1} << column), sums | (std::uint64_t{1} << (row + column)),
            differences | (std::uint64_t{1} << (row - column + layout_->n - 1)),
            mirrored_differences | (std::uint64_t{1} << (column - row + layout_->n - 1)));
    }
  }

  const UnitLayout* layout_ = nullptr;
  KeyBuffer* keys_ = nullptr;
  std::vector<int> rows_;
  std::uint32_t columns_ = 0;
};

// Ranks of `values` (ties broken by position), for a rank correlation.
std::vector<double> ranks(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return values[x] < values[y]; });
  std::vector<double> rank(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<double>(i);
  return rank;
}

// Spearman's rank correlation: how well the cost model orders units by their real work.
double rank_correlation(const std::vector<double>& x, const std::vector<double>& y) {
  const std::vector<double> rx = ranks(x), ry = ranks(y);
  const double mean = (static_cast<double>(x.size()) - 1) / 2;
  double xy = 0, xx = 0, yy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xy += (rx[i] - mean) * (ry[i] - mean);
    xx += (rx[i] - mean) * (rx[i] - mean);
    yy += (ry[i] - mean) * (ry[i] - mean);
  }
  return xy / std::sqrt(xx * yy);
}

struct Figures {
  double enumerate_s = 0, join_s = 0, dfs_s = 0;
  std::uint64_t total = 0, halves = 0, pair_tests = 0, dfs_halves = 0, unfolded_halves = 0;
};

struct Options {
  bool with_dfs = true;
  int chunk_bits = DisjointCounter::kDefaultChunkBits;
  std::size_t stride = 1;
  std::uint64_t parts_of = 0;  // --parts: 0 leaves the mode off
  bool warm = false;           // --warm
  bool widths = false;         // --widths
};

void bench(int n, const Options& options) {
  const bool with_dfs = options.with_dfs;
  const auto build_start = Clock::now();
  // Every slice held (an unbounded cache), built as units first need them: build covers none.
  SliceCache slices(n, UINT64_MAX);
  const double build_s = seconds_since(build_start);
  const JoinPlan plan = split(n);
  const UnitCostModel model(n);
  HalfEnumerator east_halves, west_halves, unfolded;
  DfsHalfEnumerator dfs;
  KeyBuffer east, west;
  DisjointCounter matcher(best_match_path(), options.chunk_bits);
  Figures f;
  std::vector<double> estimated, measured;
  const double cpu_start = thread_cpu_seconds();
  const auto view = [&](std::uint32_t rows) {
    const SliceCache::Pin pin = slices.get(rows);
    return SliceView{pin->slice, pin->keys ? &*pin->keys : nullptr};  // the cache keeps it: nothing is evicted
  };
  for (std::size_t id = 0; id < plan.units.size(); id += options.stride) {
    const JoinUnit& unit = plan.units[id];
    double work = 0;
    // As the engine counts a unit (join_kernel.cpp): each of its row sets, the diagonal fold in
    // the even and centre cases.
    for (const std::uint32_t rows : row_sets(n, unit)) {
      const UnitLayout layout = layout_of(n, with_rows(unit, rows));
      const bool folded = unit.kind != JoinCase::off_centre;
      const DiagonalFold fold = diagonal_fold(layout);
      auto start = Clock::now();
      std::size_t east_ties = 0, west_ties = 0;
      const SliceView east_north = view(layout.east.north_rows), east_south = view(layout.east.south_rows);
      const SliceView west_north = view(layout.west.north_rows), west_south = view(layout.west.south_rows);
      if (folded) {
        east_ties = east_halves.enumerate_folded(east_north, east_south, layout, layout.east, fold.east, east);
        west_ties = west_halves.enumerate_folded(west_north, west_south, layout, layout.west, fold.west, west);
      } else {
        east_halves.enumerate(east_north, east_south, layout, layout.east, east);
        west_halves.enumerate(west_north, west_south, layout, layout.west, west);
      }
      f.enumerate_s += seconds_since(start);
      f.halves += east.size() + west.size();
      f.pair_tests += std::uint64_t{east.size()} * west.size();
      work += static_cast<double>(east.size() * west.size() + east.size() + west.size());
      start = Clock::now();
      const auto e = east.keys(), w = west.keys();
      f.total +=
          unit.weight * (folded ? count_weighted_disjoint_pairs(matcher, {e.first(east_ties), e.subspan(east_ties)},
                                                                {w.first(west_ties), w.subspan(west_ties)},
                                                                kFoldWeights, layout.key_bits())
                                : count_disjoint_pairs(matcher, e, w, layout.key_bits()));
      f.join_s += seconds_since(start);
      if (!with_dfs) continue;
      // The DFS enumerates every half: compared with the unfolded enumeration.
      unfolded.enumerate(east_north, east_south, layout, layout.east, east);
      unfolded.enumerate(west_north, west_south, layout, layout.west, west);
      f.unfolded_halves += east.size() + west.size();
      start = Clock::now();
      dfs.enumerate(layout, layout.east, east);
      dfs.enumerate(layout, layout.west, west);
      f.dfs_s += seconds_since(start);
      f.dfs_halves += east.size() + west.size();
    }
    estimated.push_back(static_cast<double>(model.cost(unit)));
    measured.push_back(work);
  }
  const double cpu_s = thread_cpu_seconds() - cpu_start;
  std::printf(
      "n=%d units=%zu total=%llu halves=%llu pair_tests=%.3g table=%.1fMB build=%.3fs enumerate=%.3fs "
      "join=%.3fs cpu=%.3fs",
      n, plan.units.size(), static_cast<unsigned long long>(f.total), static_cast<unsigned long long>(f.halves),
      static_cast<double>(f.pair_tests), static_cast<double>(slices.peak_bytes()) / 1e6, build_s, f.enumerate_s,
      f.join_s, cpu_s);
  std::printf(" cost_rank_correlation=%.3f", rank_correlation(estimated, measured));
  if (with_dfs)
    std::printf(" dfs_enumerate=%.3fs dfs_halves_match=%d", f.dfs_s, f.dfs_halves == f.unfolded_halves ? 1 : 0);
  std::printf("\n");
  std::fflush(stdout);
}

// Unit by unit, alternating the two counters, so that both see the same machine.
void bench_parts(int n, std::uint64_t halves_at_once, std::size_t stride) {
  SliceCache slices(n, UINT64_MAX);
  const JoinPlan plan = split(n);
  JoinCounter whole(slices), in_parts(slices, best_match_path(), UINT64_MAX, halves_at_once);
  double whole_s = 0, parts_s = 0;
  std::uint64_t total = 0, most_halves = 0;
  bool agree = true;
  const auto timed = [](JoinCounter& counter, const JoinUnit& unit, double& seconds) {
    const double start = thread_cpu_seconds();
    const JoinCount counted = counter.count(unit);
    seconds += thread_cpu_seconds() - start;
    return counted;
  };
  for (std::size_t i = 0; i < plan.units.size(); i += stride) {
    whole.prepare(plan.units[i]);
    // Each goes first on every other unit: the second finds the first one's data in the caches.
    const bool whole_first = i / stride % 2 == 0;
    JoinCount want, got;
    if (whole_first) want = timed(whole, plan.units[i], whole_s);
    got = timed(in_parts, plan.units[i], parts_s);
    if (!whole_first) want = timed(whole, plan.units[i], whole_s);
    agree = agree && got.pairs == want.pairs && got.halves == want.halves;
    total += want.pairs * plan.units[i].weight;
    most_halves = std::max(most_halves, want.halves);
  }
  std::printf(
      "n=%d parts_of=%llu units=%zu total=%llu most_unit_halves=%llu whole=%.3fs parts=%.3fs ratio=%.3f agree=%d\n", n,
      static_cast<unsigned long long>(halves_at_once), (plan.units.size() + stride - 1) / stride,
      static_cast<unsigned long long>(total), static_cast<unsigned long long>(most_halves), whole_s, parts_s,
      parts_s / whole_s, agree ? 1 : 0);
  std::fflush(stdout);
}

// What the sample of --warm found, summed over its units, row sets and sides.
struct WarmFigures {
  double enumerate_s = 0, choose_s = 0, match_s = 0;  // thread CPU time
  double sample_cost = 0, all_cost = 0;               // the cost model's weights
  std::uint64_t row_sets = 0, sides = 0, halves = 0, most_halves = 0, distinct = 0, pair_tests = 0;
  std::uint64_t splits = 0, split_bits = 0, matches = 0;
  // Matching by the size of the query side: up to 2^16 keys, up to 2^19, more.
  std::array<double, 3> band_s{};
  std::array<std::uint64_t, 3> band_pairs{};
};

std::uint64_t distinct_keys(std::span<const std::uint64_t> keys) {
  std::vector<std::uint64_t> copy(keys.begin(), keys.end());
  std::sort(copy.begin(), copy.end());
  return static_cast<std::uint64_t>(std::unique(copy.begin(), copy.end()) - copy.begin());
}

// Counts a row set's sides as count_weighted_disjoint_pairs() does, timing apart the choice of
// the slot split that it makes (made here once more, the same way) and the rest.
std::uint64_t timed_match(DisjointCounter& matcher, const KeyParts& a, const KeyParts& b, const PartWeights& weights,
                          int key_bits, WarmFigures& f) {
  using namespace nqueens::join::detail;
  const std::size_t a_size = size_of(a), b_size = size_of(b);
  if (a_size == 0 || b_size == 0) return 0;
  const BlockLanes lanes = matcher.block_lanes();
  const double store_a = bit_sliced_ns(load_blocks(sizes_of(a), lanes), b_size);
  const double store_b = bit_sliced_ns(load_blocks(sizes_of(b), lanes), a_size);
  const double one_by_one = static_cast<double>(a_size) * static_cast<double>(b_size) * kPairOneByOneNs;
  const bool a_stored = store_a <= store_b;
  const std::size_t queries = a_stored ? b_size : a_size;
  double choose_s = 0;
  if (one_by_one >= std::min(store_a, store_b) && std::min(a_size, b_size) >= kMinKeysToSplit) {
    const double start = thread_cpu_seconds();
    const SlotBits split = cheapest_split(a_stored ? a : b, a_stored ? b : a, key_bits, lanes);
    choose_s = thread_cpu_seconds() - start;
    ++f.splits;
    f.split_bits += static_cast<std::uint64_t>(split.count);
  }
  const double start = thread_cpu_seconds();
  const std::uint64_t pairs = count_weighted_disjoint_pairs(matcher, a, b, weights, key_bits);
  const double match_s = std::max(0.0, thread_cpu_seconds() - start - choose_s);
  f.choose_s += choose_s;
  f.match_s += match_s;
  ++f.matches;
  const std::size_t band = queries <= (std::size_t{1} << 16) ? 0 : queries <= (std::size_t{1} << 19) ? 1 : 2;
  f.band_s[band] += match_s;
  f.band_pairs[band] += std::uint64_t{a_size} * b_size;
  return pairs;
}

// --widths: for every pair of sides the matcher would weigh a split for, each width of the
// widest split timed (count_in_slots) beside the cost model's price of it, summed by the size
// of the smaller side; and what the model's choice cost against the best width of each pair.
struct WidthFigures {
  static constexpr std::size_t kClasses = 11;  // smaller side below 512, 1K, ... 256K keys, and more
  using Widths = std::array<double, nqueens::join::kMaxSlotBits + 1>;
  std::array<Widths, kClasses> measured_s{}, modelled_s{};
  std::array<double, kClasses> chosen_s{}, best_s{}, floor_s{};
  std::array<std::uint64_t, kClasses> pairs{};
};

// Each row of --widths FILE: n, the smaller side's keys, width, measured ns, then the SplitWork.
std::FILE* width_rows = nullptr;

void time_widths(DisjointCounter& matcher, const KeyParts& a, const KeyParts& b, const PartWeights& weights,
                 int key_bits, WidthFigures& f) {
  using namespace nqueens::join::detail;
  const std::size_t smaller = std::min(size_of(a), size_of(b));
  if (smaller < 64) return;  // far below the matcher's kMinKeysToSplit, to see where a split starts to pay
  const BlockLanes lanes = matcher.block_lanes();
  const bool a_stored = bit_sliced_ns(load_blocks(sizes_of(a), lanes), size_of(b)) <=
                        bit_sliced_ns(load_blocks(sizes_of(b), lanes), size_of(a));
  const KeyParts& stored = a_stored ? a : b;
  const KeyParts& queries = a_stored ? b : a;
  const PartWeights oriented =
      a_stored ? weights : PartWeights{{{weights[0][0], weights[1][0]}, {weights[0][1], weights[1][1]}}};
  const SlotBits widest = most_shared_bits(stored, queries, key_bits, nqueens::join::kMaxSlotBits);
  const std::vector<SplitWork> works = split_works(stored, queries, widest, lanes);
  std::size_t c = 0;
  while (c + 1 < WidthFigures::kClasses && smaller >= (std::size_t{512} << c)) ++c;
  double best = 1e300;
  std::uint64_t first = 0;
  for (int width = 0; width <= widest.count; ++width) {
    const double start = thread_cpu_seconds();
    const std::uint64_t pairs = count_in_slots(matcher, stored, queries, oriented, key_bits, widest.first(width));
    const double seconds = thread_cpu_seconds() - start;
    if (width == 0) first = pairs;
    if (pairs != first)
      std::fprintf(stderr, "widths: %d bits counted %llu, none %llu\n", width, static_cast<unsigned long long>(pairs),
                   static_cast<unsigned long long>(first));
    const SplitWork& w = works[static_cast<std::size_t>(width)];
    f.measured_s[c][static_cast<std::size_t>(width)] += seconds;
    f.modelled_s[c][static_cast<std::size_t>(width)] += 1e-9 * split_ns(w);
    best = std::min(best, seconds);
    if (width_rows)
      std::fprintf(width_rows, "%zu %d %.0f %.6g %.6g %.6g %.6g\n", smaller, width, 1e9 * seconds, w.blocks,
                   w.block_queries, w.queries, w.visits);
  }
  f.best_s[c] += best;
  ++f.pairs[c];
  // The matcher as it is (one by one, or bit-sliced with the model's split), and the model's
  // split alone, timed once more.
  double start = thread_cpu_seconds();
  count_weighted_disjoint_pairs(matcher, a, b, weights, key_bits);
  f.floor_s[c] += thread_cpu_seconds() - start;
  const SlotBits model = cheapest_split(stored, queries, key_bits, lanes);
  start = thread_cpu_seconds();
  count_in_slots(matcher, stored, queries, oriented, key_bits, model);
  f.chosen_s[c] += thread_cpu_seconds() - start;
}

void print_widths(int n, const WidthFigures& f) {
  const char* names[] = {"<512", "<1K", "<2K", "<4K", "<8K", "<16K", "<32K", "<64K", "<128K", "<256K", ">=256K"};
  for (std::size_t c = 0; c < WidthFigures::kClasses; ++c) {
    if (f.pairs[c] == 0) continue;
    std::printf("n=%d smaller_side%s pairs=%llu best=%.3fs model=%.3fs matcher=%.3fs |", n, names[c],
                static_cast<unsigned long long>(f.pairs[c]), f.best_s[c], f.chosen_s[c], f.floor_s[c]);
    for (std::size_t w = 0; w <= nqueens::join::kMaxSlotBits; ++w)
      if (f.measured_s[c][w] > 0) std::printf(" %zu:%.3f/%.3f", w, f.measured_s[c][w], f.modelled_s[c][w]);
    std::printf("  (bits: measured/modelled s)\n");
  }
  std::fflush(stdout);
}

void bench_warm(int n, std::size_t stride, int chunk_bits, bool widths) {
  // A budget: at n = 24 the whole table does not fit; each unit pins what it uses.
  SliceCache slices(n, std::uint64_t{4} << 30);
  const JoinPlan plan = split(n);
  const std::vector<std::uint64_t> costs = estimated_costs(plan);
  std::vector<std::size_t> order(plan.units.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return costs[x] < costs[y]; });
  WarmFigures f;
  WidthFigures width_figures;
  for (const std::uint64_t cost : costs) f.all_cost += static_cast<double>(cost);
  HalfEnumerator east_halves, west_halves;
  KeyBuffer east, west;
  DisjointCounter matcher(best_match_path(), chunk_bits);
  std::uint64_t sampled = 0, partial_total = 0;
  double build_s = 0;
  // Every s-th unit of the cost order, from the middle of the first s.
  for (std::size_t index = stride / 2; index < order.size(); index += stride) {
    const JoinUnit& unit = plan.units[order[index]];
    ++sampled;
    f.sample_cost += static_cast<double>(costs[order[index]]);
    // Untimed: the unit's slices, built (or found) and pinned.
    const double build_start = thread_cpu_seconds();
    std::vector<SliceCache::Pin> pins;
    const auto pinned = [&](std::uint32_t rows) {
      pins.push_back(slices.get(rows));
      return SliceView{pins.back()->slice, pins.back()->keys ? &*pins.back()->keys : nullptr};
    };
    struct RowSet {
      UnitLayout layout;
      std::array<SliceView, 4> views;
    };
    std::vector<RowSet> sets;
    for (const std::uint32_t rows : row_sets(n, unit)) {
      const UnitLayout layout = layout_of(n, with_rows(unit, rows));
      sets.push_back({layout,
                      {pinned(layout.east.north_rows), pinned(layout.east.south_rows), pinned(layout.west.north_rows),
                       pinned(layout.west.south_rows)}});
    }
    build_s += thread_cpu_seconds() - build_start;
    for (const RowSet& set : sets) {
      const UnitLayout& layout = set.layout;
      const bool folded = unit.kind != JoinCase::off_centre;
      const DiagonalFold fold = diagonal_fold(layout);
      std::size_t east_ties = 0, west_ties = 0;
      const double start = thread_cpu_seconds();
      if (folded) {
        east_ties = east_halves.enumerate_folded(set.views[0], set.views[1], layout, layout.east, fold.east, east);
        west_ties = west_halves.enumerate_folded(set.views[2], set.views[3], layout, layout.west, fold.west, west);
      } else {
        east_halves.enumerate(set.views[0], set.views[1], layout, layout.east, east);
        west_halves.enumerate(set.views[2], set.views[3], layout, layout.west, west);
      }
      f.enumerate_s += thread_cpu_seconds() - start;
      ++f.row_sets;
      f.sides += 2;
      f.halves += east.size() + west.size();
      f.most_halves = std::max<std::uint64_t>(f.most_halves, std::max(east.size(), west.size()));
      f.pair_tests += std::uint64_t{east.size()} * west.size();
      f.distinct += distinct_keys(east.keys()) + distinct_keys(west.keys());
      const auto e = east.keys(), w = west.keys();
      const KeyParts east_parts = folded ? KeyParts{e.first(east_ties), e.subspan(east_ties)} : KeyParts{e, {}};
      const KeyParts west_parts = folded ? KeyParts{w.first(west_ties), w.subspan(west_ties)} : KeyParts{w, {}};
      const PartWeights weights = folded ? kFoldWeights : PartWeights{{{1, 0}, {0, 0}}};
      partial_total += unit.weight * timed_match(matcher, east_parts, west_parts, weights, layout.key_bits(), f);
      if (widths) time_widths(matcher, east_parts, west_parts, weights, layout.key_bits(), width_figures);
    }
  }
  const double cpu_s = f.enumerate_s + f.choose_s + f.match_s;
  const double by_units = static_cast<double>(plan.units.size()) / static_cast<double>(sampled);
  const double by_cost = f.all_cost / f.sample_cost;
  const double solutions = static_cast<double>(nqueens::oeis_total(n).value_or(0));
  const double sides = static_cast<double>(f.sides);
  std::printf(
      "n=%d units=%zu sampled=%llu stride=%zu sample_cost_share=%.4g row_sets=%llu pair_tests_per_unit=%.4g "
      "halves_per_side=%.4g most_halves=%llu distinct_per_side=%.4g distinct_share=%.3f split_bits=%.2f "
      "(%llu of %llu matches) warm_build=%.2fs enumerate=%.2fs choose_split=%.3fs match=%.2fs cpu=%.2fs "
      "ns_per_pair_test=%.4f",
      n, plan.units.size(), static_cast<unsigned long long>(sampled), stride, f.sample_cost / f.all_cost,
      static_cast<unsigned long long>(f.row_sets), static_cast<double>(f.pair_tests) / static_cast<double>(sampled),
      static_cast<double>(f.halves) / sides, static_cast<unsigned long long>(f.most_halves),
      static_cast<double>(f.distinct) / sides, static_cast<double>(f.distinct) / static_cast<double>(f.halves),
      f.splits ? static_cast<double>(f.split_bits) / static_cast<double>(f.splits) : 0.0,
      static_cast<unsigned long long>(f.splits), static_cast<unsigned long long>(f.matches), build_s, f.enumerate_s,
      f.choose_s, f.match_s, cpu_s, 1e9 * f.match_s / static_cast<double>(f.pair_tests));
  const char* band_names[] = {"q<=64K", "q<=512K", "q>512K"};
  for (std::size_t band = 0; band < 3; ++band)
    std::printf(" %s:pairs=%.3f,ns_per_pair=%.4f", band_names[band],
                static_cast<double>(f.band_pairs[band]) / static_cast<double>(f.pair_tests),
                f.band_pairs[band] ? 1e9 * f.band_s[band] / static_cast<double>(f.band_pairs[band]) : 0.0);
  std::printf(
      " projected_cpu_by_units=%.4gs projected_cpu_by_cost=%.4gs ns_per_solution_by_units=%.3f "
      "ns_per_solution_by_cost=%.3f pair_tests_per_solution=%.4g halves_per_solution=%.4g "
      "projected_solutions_ratio=%.4f\n",
      cpu_s * by_units, cpu_s * by_cost, 1e9 * cpu_s * by_units / solutions, 1e9 * cpu_s * by_cost / solutions,
      static_cast<double>(f.pair_tests) * by_units / solutions, static_cast<double>(f.halves) * by_units / solutions,
      static_cast<double>(partial_total) * by_units / solutions);
  std::fflush(stdout);
  if (widths) print_widths(n, width_figures);
}

void bench_tables(int k_high) {
  for (int k = 2; k <= k_high; ++k) {
    const auto start = Clock::now();
    const QuarterTable table(k);
    std::printf("k=%d entries=%zu memory=%.1fMB build=%.3fs\n", k, table.entry_count(),
                static_cast<double>(table.memory_bytes()) / 1e6, seconds_since(start));
    std::fflush(stdout);
  }
}

// Every unit's work as the cost model sees it (unit_cost.hpp), one line a unit: id, row sets,
// halves, the matcher's price in ns, the predicted ns. scripts/dev/fit-unit-costs.py joins these
// lines with a journal's unit times to fit the model's constants.
void print_unit_work(int n) {
  const JoinPlan plan = split(n);
  const UnitCostModel model(n);
  std::printf("id row_sets halves matcher_ns predicted_ns\n");
  for (std::size_t id = 0; id < plan.units.size(); ++id) {
    const UnitWork work = model.work(plan.units[id]);
    std::printf("%zu %.0f %.6g %.6g %.6g\n", id, work.row_sets, work.halves, work.matcher_ns,
                predicted_ns(work, unit_cost_constants(n)));
  }
}

// Every s-th unit from `first`, its slices built first (untimed), then counted by the engine's
// counter and timed by the thread's CPU clock, one line a unit: id, CPU seconds, halves
// enumerated, the cost model's predicted seconds. What scripts/dev/fit-unit-costs.py fits the
// model to: CPU time, so that the figures hold on a machine that other work shares.
void print_unit_times(int n, std::size_t stride, std::size_t first) {
  const JoinPlan plan = split(n);
  SliceCache slices(n, std::uint64_t{8} << 30);
  JoinCounter counter(slices);
  const UnitCostModel model(n);
  std::printf("id cpu_seconds halves predicted_seconds\n");
  for (std::size_t id = first; id < plan.units.size(); id += stride) {
    counter.prepare(plan.units[id]);
    const double start = thread_cpu_seconds();
    const JoinCount counted = counter.count(plan.units[id]);
    const double seconds = thread_cpu_seconds() - start;
    std::printf("%zu %.6g %llu %.6g\n", id, seconds, static_cast<unsigned long long>(counted.halves),
                1e-9 * static_cast<double>(model.cost(plan.units[id])));
    std::fflush(stdout);
  }
}

// The `count` costliest units of the cost model, each timed whole and in `shares` east shares
// (JoinCounter::count_part, each prepared first, untimed, as `plan` times parts), by the
// thread's CPU clock, alternating whole, shares, whole: whether a unit's shares together take
// what it takes whole (`plan` scales the shares it times by the unit's). One line a unit: id,
// whole seconds (the mean of two), the shares' sum, their ratio; the shares' pairs must add up
// to the unit's. Last, the ratio of the sums.
void print_share_times(int n, std::size_t shares, std::size_t count) {
  const JoinPlan plan = split(n);
  SliceCache slices(n, std::uint64_t{8} << 30);
  JoinCounter counter(slices);
  const std::vector<std::uint64_t> costs = estimated_costs(plan);
  std::vector<std::size_t> ids(plan.units.size());
  std::iota(ids.begin(), ids.end(), std::size_t{0});
  std::stable_sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  ids.resize(std::min(count, ids.size()));
  const auto whole = [&](const JoinUnit& unit, JoinCount& counted) {
    counter.prepare(unit);
    const double start = thread_cpu_seconds();
    counted = counter.count(unit);
    return thread_cpu_seconds() - start;
  };
  std::printf("id whole_cpu_seconds shares_cpu_seconds ratio\n");
  double wholes = 0, parts = 0;
  for (const std::size_t id : ids) {
    const JoinUnit& unit = plan.units[id];
    JoinCount counted;
    double whole_seconds = whole(unit, counted), share_seconds = 0;
    std::uint64_t pairs = 0;
    for (std::size_t part = 0; part < row_sets(n, unit).size() * parts_per_row_set(shares); ++part) {
      counter.prepare_part(unit, part, shares);
      const double start = thread_cpu_seconds();
      pairs += counter.count_part(unit, part, shares).pairs;
      share_seconds += thread_cpu_seconds() - start;
    }
    whole_seconds = (whole_seconds + whole(unit, counted)) / 2;
    if (pairs != counted.pairs) {
      std::fprintf(stderr, "unit %zu: shares count %llu pairs, whole %llu\n", id,
                   static_cast<unsigned long long>(pairs), static_cast<unsigned long long>(counted.pairs));
      std::exit(1);
    }
    std::printf("%zu %.6g %.6g %.4f\n", id, whole_seconds, share_seconds, share_seconds / whole_seconds);
    std::fflush(stdout);
    wholes += whole_seconds;
    parts += share_seconds;
  }
  std::printf("n = %d, %zu units, %zu shares: shares / whole %.4f (%.4g s / %.4g s)\n", n, ids.size(), shares,
              parts / wholes, parts, wholes);
}

}  // namespace

int main(int argc, char** argv) {
  int low = 14, high = 18;
  Options options;
  std::vector<int> numbers;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tables") == 0) {
      bench_tables(11);
      return 0;
    }
    if (std::strcmp(argv[i], "--unit-work") == 0 && i + 1 < argc) {
      print_unit_work(std::atoi(argv[i + 1]));
      return 0;
    }
    if (std::strcmp(argv[i], "--unit-times") == 0 && i + 3 < argc) {
      print_unit_times(std::atoi(argv[i + 1]), std::strtoull(argv[i + 2], nullptr, 10),
                       std::strtoull(argv[i + 3], nullptr, 10));
      return 0;
    }
    if (std::strcmp(argv[i], "--share-times") == 0 && i + 3 < argc) {
      print_share_times(std::atoi(argv[i + 1]), std::strtoull(argv[i + 2], nullptr, 10),
                        std::strtoull(argv[i + 3], nullptr, 10));
      return 0;
    }
    if (std::strcmp(argv[i], "--no-dfs") == 0) {
      options.with_dfs = false;
    } else if (std::strcmp(argv[i], "--chunk-bits") == 0 && i + 1 < argc) {
      options.chunk_bits = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--parts") == 0 && i + 1 < argc) {
      options.parts_of = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--warm") == 0) {
      options.warm = true;
    } else if (std::strcmp(argv[i], "--widths") == 0 && i + 1 < argc) {
      options.warm = options.widths = true;
      width_rows = std::fopen(argv[++i], "w");
    } else if (std::strcmp(argv[i], "--stride") == 0 && i + 1 < argc) {
      options.stride = static_cast<std::size_t>(std::max(1, std::atoi(argv[++i])));
    } else {
      numbers.push_back(std::atoi(argv[i]));
    }
  }
  if (numbers.size() == 2) {
    low = numbers[0];
    high = numbers[1];
  }
  for (int n = low; n <= high; ++n) {
    if (options.warm) {
      bench_warm(n, options.stride, options.chunk_bits, options.widths);
    } else if (options.parts_of > 0) {
      bench_parts(n, options.parts_of, options.stride);
    } else {
      bench(n, options);
    }
  }
}
