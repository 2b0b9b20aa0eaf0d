#include "join/unit_cost.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "engine/parallel_each.hpp"
#include "join/diagonal_fold.hpp"
#include "join/join_layout.hpp"
#include "join/match_cost.hpp"
#include "join/quarter_table.hpp"
#include "join/slot_split.hpp"

namespace nqueens::join {

const UnitCostConstants& unit_cost_constants(int n) {
  // Fitted by scripts/dev/fit-unit-costs.py (docs/data/join-unit-fit.csv): even n, then odd n.
  static constexpr UnitCostConstants kEven{0, 6, 0.18}, kOdd{1000, 3, 0.12};
  return n % 2 == 0 ? kEven : kOdd;
}

namespace {

// The matcher's wide blocks (AVX-512: 512 keys a block), as the model prices a load.
constexpr double kBlockKeys = 512;

// Looked up, not computed: an off-centre unit of n = 27 has up to 1716 row sets, three
// binomials per side each, and the cost model visits 4e8 row sets there.
double binomial(int n, int r) {
  static const auto table = [] {
    std::array<std::array<double, 33>, 33> pascal{};
    for (std::size_t i = 0; i < pascal.size(); ++i) {
      pascal[i][0] = 1;
      for (std::size_t j = 1; j <= i; ++j) pascal[i][j] = pascal[i - 1][j - 1] + (j < i ? pascal[i - 1][j] : 0);
    }
    return pascal;
  }();
  if (r < 0 || r > n || n >= static_cast<int>(table.size())) return 0;
  return table[static_cast<std::size_t>(n)][static_cast<std::size_t>(r)];
}

// log(p), kept finite: a chance of 0 makes a side of no halves, and sums of logs stay defined.
double log_chance(double p) { return std::log(std::max(p, 1e-300)); }

// The chance that a queen on board row `row`, in a column of the side drawn at random, stands on
// no diagonal a fixed queen holds.
double clear_of_fixed(const UnitLayout& layout, const SideLayout& side, int row) {
  if (layout.forbidden_sums == 0 && layout.forbidden_differences == 0) return 1;
  int clear = 0, columns = 0;
  for (std::uint32_t rest = side.columns; rest != 0; rest &= rest - 1) {
    const int column = side.north.col0 + std::countr_zero(rest);
    ++columns;
    const bool sum = (layout.forbidden_sums >> (row + column)) & 1;
    const bool difference = (layout.forbidden_differences >> (row - column + layout.n - 1)) & 1;
    clear += !sum && !difference;
  }
  return columns > 0 ? static_cast<double>(clear) / columns : 0;
}

// The chance that a north queen and a south one `distance` rows below it, in two distinct
// columns of the side drawn at random, share no diagonal: 1 less the share of column pairs
// `distance` apart.
double clear_of_each_other(std::uint32_t columns, int distance) {
  const int count = std::popcount(columns);
  if (distance >= 32 || count < 2) return 1;
  const int apart = std::popcount(columns & (columns >> distance));
  return 1 - 2.0 * apart / (static_cast<double>(count) * (count - 1));
}

// What one side of a unit shares by all its row sets (a unit's row sets differ only in their
// south rows): the logs of each row's chance to be clear of the fixed queens, and of each south
// row's chance to be clear of the side's north queens.
struct SideChances {
  std::array<double, 32> fixed{};       // by board row
  std::array<double, 32> from_north{};  // by the south quadrant's local row

  SideChances(const UnitLayout& layout, const SideLayout& side) {
    for (int row = 0; row < layout.n; ++row)
      fixed[static_cast<std::size_t>(row)] = log_chance(clear_of_fixed(layout, side, row));
    std::array<double, 32> by_distance{};  // a north and a south queen's rows are under n apart
    for (std::size_t distance = 0; distance < static_cast<std::size_t>(layout.n); ++distance)
      by_distance[distance] = log_chance(clear_of_each_other(side.columns, static_cast<int>(distance)));
    for (int south = 0; south < layout.k; ++south)
      for (std::uint32_t rest = side.north_rows; rest != 0; rest &= rest - 1) {
        const int distance = side.south.row0 + south - side.north.row0 - std::countr_zero(rest);
        from_north[static_cast<std::size_t>(south)] += by_distance[static_cast<std::size_t>(distance)];
      }
  }

  // The log of the chance that every queen of a half with these rows is clear.
  double clear(const SideLayout& side) const {
    double sum = 0;
    for (std::uint32_t rest = side.north_rows; rest != 0; rest &= rest - 1) {
      const int row = side.north.row0 + std::countr_zero(rest);
      sum += fixed[static_cast<std::size_t>(row)];
    }
    for (std::uint32_t rest = side.south_rows; rest != 0; rest &= rest - 1) {
      const int local = std::countr_zero(rest);
      const int row = side.south.row0 + local;
      sum += fixed[static_cast<std::size_t>(row)] + from_north[static_cast<std::size_t>(local)];
    }
    return sum;
  }
};

// Halves of one side: each quadrant's placements spread evenly over its column sets, the fold's
// share of the north column sets kept, and every queen of the side independently clear of the
// fixed queens' diagonals and of the other quadrant's queens (the quarter table holds only
// placements whose queens clear each other within a quadrant).
double estimated_halves(int k, const SideLayout& side, const std::vector<std::uint64_t>& per_row_set,
                        const FoldRanks& ranks, const SideFold* fold, const SideChances& chances) {
  const int north = std::popcount(side.north_rows);
  const int south = std::popcount(side.south_rows);
  const double north_per_column_set = double(per_row_set[side.north_rows]) / binomial(k, north);
  const double south_per_column_set = double(per_row_set[side.south_rows]) / binomial(k, south);
  double halves = binomial(std::popcount(side.columns), north) * north_per_column_set * south_per_column_set;
  if (fold) halves *= ranks.share_at_least(north, fold->rank);
  return halves * std::exp(chances.clear(side));
}

// A split into 2^bits slots, each holding an even share of the stored keys: every bit set in
// half the keys of each side leaves a query 3/2 of a slot of every 2 (it meets the slots that
// share none of its bits), so its block-queries fall by a quarter a bit while the blocks built
// grow once the slots hold less than a block each, and each slot visits its compatible groups
// (3^bits visits in all). The bits past the tenth are set in fewer keys (about 40 %): each
// leaves a query 1.65 of every 2 slots, which puts a unit of N = 26 split 16 bits wide at the
// 2.2 times less time measured (join_bench --unit-times 26) rather than 3.5.
constexpr int kDenseSplitBits = 10;
constexpr double kDenseBitGrowth = 1.5, kSparseBitGrowth = 1.65;

double split_price_ns(double stored, double queries, int bits) {
  const double slots = std::ldexp(1.0, bits);
  const double blocks_per_slot = std::ceil(stored / slots / kBlockKeys);
  static const auto powers = [] {
    std::array<std::array<double, kMaxSlotBits + 1>, 2> table{};  // slots a query meets, visits (3^i)
    table[0][0] = table[1][0] = 1;
    for (std::size_t i = 1; i < table[0].size(); ++i) {
      const bool dense = i <= static_cast<std::size_t>(kDenseSplitBits);
      table[0][i] = table[0][i - 1] * (dense ? kDenseBitGrowth : kSparseBitGrowth);
      table[1][i] = table[1][i - 1] * 3;
    }
    return table;
  }();
  const auto i = static_cast<std::size_t>(bits);
  const double block_queries = queries * powers[0][i] * blocks_per_slot;
  return detail::kBuildBlockNs * slots * blocks_per_slot + detail::kQueryBlockNs * block_queries +
         detail::kQueryNs * queries + detail::kSlotVisitNs * powers[1][i];
}

}  // namespace

double matcher_price_ns(double east, double west) {
  const double stored = std::min(east, west), queries = std::max(east, west);
  if (stored < 1) return 0;
  double best = split_price_ns(stored, queries, 0);
  if (stored >= static_cast<double>(detail::kMinKeysToSplit)) {
    const int widest = detail::widest_split_bits(static_cast<std::size_t>(stored));
    for (int bits = 1; bits <= widest; ++bits) best = std::min(best, split_price_ns(stored, queries, bits));
  }
  return std::min(best, stored * queries * detail::kPairOneByOneNs);
}

FoldRanks::FoldRanks(int k) : by_size_(static_cast<std::size_t>(k) + 1) {
  for (std::uint32_t columns = 0; columns < (std::uint32_t{1} << k); ++columns)
    by_size_[static_cast<std::size_t>(std::popcount(columns))].push_back(complement_rank(columns, k));
  for (auto& ranks : by_size_) std::sort(ranks.begin(), ranks.end());
}

double FoldRanks::share_at_least(int size, std::uint32_t rank) const {
  const auto& ranks = by_size_[static_cast<std::size_t>(size)];
  const auto kept = ranks.end() - std::lower_bound(ranks.begin(), ranks.end(), rank);
  return static_cast<double>(kept) / static_cast<double>(ranks.size());
}

UnitCostModel::UnitCostModel(int n)
    : n_(n), constants_(unit_cost_constants(n)), per_row_set_(placements_per_row_set(n / 2)), ranks_(n / 2) {}

UnitWork UnitCostModel::work(const JoinUnit& unit) const {
  UnitWork work;
  const std::vector<std::uint32_t> sets = row_sets(n_, unit);
  if (sets.empty()) return work;
  const UnitLayout first = layout_of(n_, with_rows(unit, sets.front()));
  const SideChances east_chances(first, first.east), west_chances(first, first.west);
  for (const std::uint32_t rows : sets) {
    const UnitLayout layout = layout_of(n_, with_rows(unit, rows));
    // The off-centre units fix two queens that the diagonal reflection moves: they are not folded.
    const std::optional<DiagonalFold> fold =
        unit.kind == JoinCase::off_centre ? std::nullopt : std::optional{diagonal_fold(layout)};
    const double east =
        estimated_halves(layout.k, layout.east, per_row_set_, ranks_, fold ? &fold->east : nullptr, east_chances);
    const double west =
        estimated_halves(layout.k, layout.west, per_row_set_, ranks_, fold ? &fold->west : nullptr, west_chances);
    work.row_sets += 1;
    work.halves += east + west;
    work.matcher_ns += matcher_price_ns(east, west);
  }
  return work;
}

std::uint64_t UnitCostModel::cost(const JoinUnit& unit) const {
  const double ns = predicted_ns(work(unit), constants_);
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(ns)));
}

double predicted_ns(const UnitWork& work, const UnitCostConstants& constants) {
  return constants.row_set_ns * work.row_sets + constants.half_ns * work.halves +
         constants.matcher_scale * work.matcher_ns;
}

std::vector<std::uint64_t> estimated_costs(const JoinPlan& plan) {
  std::vector<std::uint64_t> costs(plan.units.size());
  if (costs.empty()) return costs;
  const UnitCostModel model(plan.n);
  nqueens::detail::parallel_each(costs.size(), [&](std::size_t id) { costs[id] = model.cost(plan.units[id]); });
  return costs;
}

}  // namespace nqueens::join
