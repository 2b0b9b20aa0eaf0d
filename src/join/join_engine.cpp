// The half-board join engine (docs/algorithm.md, "The join engine"): the
// units of join/join_plan.hpp, counted by join/join_kernel.hpp, plus one last unit that counts
// the rotation-symmetric solutions, from which the unique count follows by Burnside's lemma.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/catalogue.hpp"
#include "engine/kept_tables.hpp"
#include "engine/memory_budget.hpp"
#include "engine/parallel_each.hpp"
#include "join/disjoint_count.hpp"
#include "join/join_engine.hpp"
#include "join/join_kernel.hpp"
#include "join/join_layout.hpp"
#include "join/join_memory.hpp"
#include "join/join_plan.hpp"
#include "join/rotation_fixed.hpp"
#include "join/south_key_cache.hpp"
#include "join/unit_cost.hpp"
#include "nqueens/board.hpp"
#include "nqueens/version.hpp"

namespace nqueens {

namespace {

// The rotation-symmetric solutions as the orbit slots of a Tally: S90 solutions lie in orbits
// of 2, the rest of S180 in orbits of 4 (no solution of n > 1 is fixed by a reflection), so
// Totals::unique() = o2 + o4 + (total - 2 o2 - 4 o4) / 8 is Burnside's (total + S180 + 2 S90) / 8.
Tally rotation_tally(int n) {
  const RotationFixed fixed = count_rotation_fixed(n);
  Tally tally;
  tally.orbits[orbit_slot(2)] = fixed.quarter_turn / 2;
  tally.orbits[orbit_slot(4)] = (fixed.half_turn - fixed.quarter_turn) / 4;
  tally.nodes = fixed.nodes;
  return tally;
}

// At even N a unit is one row set, and at the frontier one costs minutes (N = 26) to hours
// (N = 28): more than `plan` can time whole. It then splits into shares of its pairs, one per
// kShareNs (about a quarter of a second) of the cost model's price, up to kMostShares, and the
// part they share: both sides' enumeration and the matcher's choices, made once for the whole
// row set (JoinCounter::count_part, MatchShares). Their times add up to the unit's whatever
// their number: 0.99 and 1.00 times N = 22's 4 costliest units whole with 4 and 16 shares, 1.02
// and 1.00 times N = 24's with 2 and 8 (bench/join_bench --share-times N S 4, CPU time), where
// shares that each chose their own stored side and split took 1.40 and 2.75 at N = 22. A matcher
// elsewhere builds the halves itself, so its units stay whole.
constexpr std::uint64_t kShareNs = std::uint64_t{1} << 28;
constexpr std::uint64_t kMostShares = 256;

std::size_t pair_shares(int n, std::uint64_t cost, bool elsewhere) {
  if (n % 2 != 0 || elsewhere) return 1;
  return std::bit_floor(std::clamp<std::uint64_t>(cost / kShareNs, 1, kMostShares));
}

class JoinUnitCounter final : public UnitCounter {
 public:
  //! `shares`: into how many shares of their pairs a unit's row sets split (pair_shares()).
  JoinUnitCounter(const join::JoinPlan& plan, join::SliceCache& slices, std::uint64_t block_bytes,
                  std::uint64_t halves_at_once, std::unique_ptr<join::PairMatcher> elsewhere,
                  std::function<std::size_t(std::size_t)> shares)
      : plan_(plan),
        shares_(std::move(shares)),
        elsewhere_(std::move(elsewhere)),
        counter_(slices, join::best_match_path(), block_bytes, halves_at_once, elsewhere_.get()) {}

  Tally count(std::size_t id) override {
    if (id == plan_.units.size()) return rotation_tally(plan_.n);
    const join::JoinUnit& unit = plan_.units[id];
    join::JoinCount counted = counter_.count(unit);
    if (elsewhere_) {
      finish_elsewhere(1);
      counted.pairs += elsewhere_pairs_[0];
      counted.halves += elsewhere_halves_[0];
    }
    return tally_of(unit, counted);
  }

  void prepare(std::size_t id) override {
    if (id < plan_.units.size()) counter_.prepare(plan_.units[id]);
  }

  // A part is one of the unit's row sets, or a share of one (JoinEngine::part_count); the
  // rotation unit is one part.
  void prepare_part(std::size_t id, std::size_t part) override {
    if (id < plan_.units.size()) counter_.prepare_part(plan_.units[id], part, shares_(id));
  }

  void count_part(std::size_t id, std::size_t part) override {
    if (id == plan_.units.size()) {
      count(id);
      return;
    }
    counter_.count_part(plan_.units[id], part, shares_(id));
    if (elsewhere_) finish_elsewhere(1);
  }

  // A batch holds row-set units only (JoinEngine::batch_starts).
  void count_batch(std::span<const std::size_t> ids, std::span<Tally> tallies) override {
    units_.clear();
    for (const std::size_t id : ids) units_.push_back(plan_.units[id]);
    counts_.resize(ids.size());
    counter_.count_together(units_, counts_);
    if (elsewhere_) {
      finish_elsewhere(ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) {
        counts_[i].pairs += elsewhere_pairs_[i];
        counts_[i].halves += elsewhere_halves_[i];
      }
    }
    for (std::size_t i = 0; i < ids.size(); ++i) tallies[i] = tally_of(units_[i], counts_[i]);
  }

 private:
  static Tally tally_of(const join::JoinUnit& unit, const join::JoinCount& counted) {
    Tally tally;
    tally.total = counted.pairs * unit.weight;
    tally.nodes = counted.halves;
    return tally;
  }

  // The pairs the matcher elsewhere counted for the last `units` units, and the halves it built
  // for them, into elsewhere_pairs_ and elsewhere_halves_ (only with one).
  void finish_elsewhere(std::size_t units) {
    elsewhere_pairs_.resize(units);
    elsewhere_halves_.resize(units);
    elsewhere_->finish(elsewhere_pairs_, elsewhere_halves_);
  }

  const join::JoinPlan& plan_;
  std::function<std::size_t(std::size_t)> shares_;
  std::unique_ptr<join::PairMatcher> elsewhere_;
  join::JoinCounter counter_;
  std::vector<join::JoinUnit> units_;  // a batch's, kept between batches
  std::vector<join::JoinCount> counts_;
  std::vector<std::uint64_t> elsewhere_pairs_, elsewhere_halves_;
};

}  // namespace

// The join's fingerprint covers its units; the rotation unit after them is part of the list too,
// and so is what a unit's count means: its pairs weighted by the diagonal fold, so that a journal
// of units counted without the fold ("rotation" alone) is refused rather than mixed in.
std::uint64_t join::run_fingerprint(const join::JoinPlan& plan) {
  constexpr std::uint64_t kRotationUnit = 0x726f746174696f6eULL;  // "rotation"
  constexpr std::uint64_t kDiagonalFold = 0x646961676f6e616cULL;  // "diagonal"
  return join::fingerprint(plan) ^ kRotationUnit ^ kDiagonalFold;
}

namespace {

// Units whose costs lie within a factor of four of each other share a band; bands run
// costliest first, as the scheduler wants, and within one the units are grouped by the tiles of
// their quadrant row sets, so that neighbours in the order reuse each other's slices.
int cost_band(std::uint64_t cost) { return static_cast<int>(std::bit_width(cost)) / 2; }

// Tiles of 2^bits consecutive north row sets by 2^bits south ones: a tile's units read about
// 4 * 2^bits slices (their row sets and complements), which the cache should hold at once.
int tile_bits(const join::JoinMemory& memory) {
  const int k = memory.n / 2;
  const std::uint64_t average_slice = std::max<std::uint64_t>(memory.all_slices_bytes >> k, 1);
  const std::uint64_t held = memory.cache_bytes / average_slice;
  int bits = 0;
  while (bits < k && (std::uint64_t{8} << bits) <= held) ++bits;
  return bits;
}

// How many deals of a pair's units a thread's share of the run's cost holds at least
// (JoinEngine::deal_starts).
constexpr std::uint64_t kDealsPerThread = 16;

// Where a join run leaves its slices for the next N of its command (engine/kept_tables.hpp).
constexpr const char* kKeptSlices = "join slices";

// What a run takes from the one before it and leaves for the next (RunRequest).
struct HandOn {
  std::shared_ptr<KeptTables> kept;
  std::uint64_t bytes = 0;
};

class JoinEngine final : public Engine {
 public:
  JoinEngine(const join::JoinMemory& memory, join::JoinVariant variant, HandOn hand_on)
      : plan_((detail::setup_phase("listing the units"), join::split(memory.n))),
        slices_(std::make_unique<join::SliceCache>(memory.n, memory.cache_bytes)),
        tile_bits_(tile_bits(memory)),
        memory_(memory),
        variant_(std::move(variant)),
        hand_on_(std::move(hand_on)) {
    take_kept_slices();
    detail::setup_phase("estimating unit costs");
    std::vector<std::uint64_t> costs = join::estimated_costs(plan_);
    // The rotation unit goes first: one search, longer than a typical unit at large n.
    costs.push_back(costs.empty() ? 1 : *std::max_element(costs.begin(), costs.end()) + 1);
    RunHeader header{kVersion, variant_.engine, memory.n, {}, costs.size(), join::run_fingerprint(plan_)};
    set_units(std::move(header), std::move(costs));
  }

  // The slices the next N of the command reads again stay for it, as many as its plan holds. By
  // now no thread pins one: the run's counters are gone.
  ~JoinEngine() override {
    if (!hand_on_.kept || hand_on_.bytes == 0) return;
    try {
      slices_->keep_at_most(hand_on_.bytes);
      if (slices_->held_bytes() > 0)
        hand_on_.kept->leave(kKeptSlices, std::shared_ptr<join::SliceCache>(std::move(slices_)));
    } catch (...) {
      // Out of memory to leave them: the next N builds its own.
    }
  }
  JoinEngine(const JoinEngine&) = delete;
  JoinEngine& operator=(const JoinEngine&) = delete;

  // A thread's block of south slices (JoinCounter::count_together) takes at most half its share
  // of the cache: the other half keeps the north slices and what the other threads read.
  std::unique_ptr<UnitCounter> make_counter() const override {
    const std::uint64_t block_bytes = memory_.cache_bytes / (2 * static_cast<std::uint64_t>(memory_.threads));
    return std::make_unique<JoinUnitCounter>(plan_, *slices_, block_bytes, memory_.halves_at_once,
                                             variant_.make_matcher ? variant_.make_matcher() : nullptr,
                                             [this](std::size_t id) { return shares(id); });
  }

  // join/unit_cost.hpp: predicted nanoseconds on one core.
  bool costs_predict_time() const override { return true; }

  // A unit's row sets are counted one after the other, each on its own, and at even N each row
  // set's shares of its pairs and the part they share (pair_shares()): exact parts of the unit.
  std::size_t part_count(std::size_t id) const override {
    return id == plan_.units.size()
               ? 1
               : join::row_sets(plan_.n, plan_.units[id]).size() * join::parts_per_row_set(shares(id));
  }

  // A row set's shares read its shared part, which comes after them (JoinCounter::count_part).
  std::optional<std::size_t> shared_part_of(std::size_t id, std::size_t part) const override {
    if (id == plan_.units.size()) return std::nullopt;
    const std::size_t cut = shares(id);
    if (cut <= 1) return std::nullopt;
    return part - part % join::parts_per_row_set(cut) + cut;
  }

  std::vector<std::size_t> execution_order(std::vector<std::size_t> todo) const override {
    detail::setup_phase("grouping units by slices");
    struct Keyed {
      std::array<std::uint64_t, 2> key;
      std::size_t position;
    };
    std::vector<Keyed> keyed(todo.size());
    detail::parallel_each(todo.size(), [&](std::size_t i) { keyed[i] = {order_key(todo[i]), i}; });
    std::sort(keyed.begin(), keyed.end(),
              [](const Keyed& a, const Keyed& b) { return a.key != b.key ? a.key < b.key : a.position < b.position; });
    std::vector<std::size_t> order(todo.size());
    detail::parallel_each(todo.size(), [&](std::size_t i) { order[i] = todo[keyed[i].position]; });
    return order;
  }

  // Off-centre units with the same north rows read the same south slices, about half the table
  // at n = 21 (every row set of a size), and follow each other in the execution order. A cache
  // that holds the whole table gains nothing from batches; one that does not would build most of
  // those slices again for each unit, so it counts runs of such units together, up to
  // kMostUnitsTogether (a stopped run ends only after a whole batch). A matcher elsewhere takes
  // every unit in batches of neighbours of one cost band: it waits for their pairs once a batch.
  std::vector<std::size_t> batch_starts(std::span<const std::size_t> order) const override {
    if (!counts_in_batches() && !matches_elsewhere()) return {};
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (starts.empty() || i - starts.back() == join::kMostUnitsTogether || !same_batch(order[i - 1], order[i]))
        starts.push_back(i);
    }
    return starts;
  }

  // Where each thread keeps south keys filtered per pair of fixed queens (south_key_cache.hpp),
  // threads that took turns at one pair's units would each filter its row sets: a pair's units of
  // one band go to one thread together, in deals of at most 1 / kDealsPerThread of a thread's
  // share of the run's cost, so that the run still ends on small deals.
  std::vector<std::size_t> deal_starts(std::span<const std::size_t> order, int threads) const override {
    if (threads < 2 || !join::caches_south_keys(plan_.n) || matches_elsewhere()) return {};
    std::uint64_t total = 0;
    for (const std::size_t id : order) total += cost(id);
    const std::uint64_t most = total / (static_cast<std::uint64_t>(threads) * kDealsPerThread);
    std::vector<std::size_t> starts;
    std::uint64_t dealt = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (i == 0 || dealt + cost(order[i]) > most || !same_pair(order[i - 1], order[i])) {
        starts.push_back(i);
        dealt = 0;
      }
      dealt += cost(order[i]);
    }
    return starts;
  }

  std::string describe() const override {
    return variant_.engine + " engine: " + std::to_string(plan_.units.size()) + " row-set units and 1 rotation unit, " +
           "quarter-table slices on demand in a cache of " + format_bytes(memory_.cache_bytes) + " (the whole table " +
           format_bytes(memory_.all_slices_bytes) + ")" + (counts_in_batches() ? ", off-centre units in batches" : "") +
           (matches_elsewhere() ? ", " + variant_.describe
                                : std::string(", matcher ") + join::to_string(join::best_match_path()));
  }

  // The join's memory plan (join_memory.hpp), worked out before anything was allocated: the
  // unit list with what the run keeps per unit, the slice cache (which holds the slices the
  // threads' units pin, and never more than the whole table), and each thread's key buffers.
  std::uint64_t planned_memory_bytes(int threads) const override {
    return memory_.unit_list_bytes + std::min(memory_.cache_bytes, memory_.all_slices_bytes) +
           static_cast<std::uint64_t>(threads) * (memory_.thread_buffer_bytes + variant_.matcher_bytes);
  }

 private:
  // Costliest band first; then tile, north and south row sets of the east half.
  std::array<std::uint64_t, 2> order_key(std::size_t id) const {
    const std::uint64_t band = std::uint64_t(64 - cost_band(cost(id)));
    if (id == plan_.units.size()) return {band << 48, 0};
    // An off-centre unit's row sets share their north rows, and spread over many south ones.
    const join::JoinUnit& unit = plan_.units[id];
    // Where a thread keeps its south keys filtered per pair of fixed queens (south_key_cache.hpp),
    // the units of one pair follow each other, so that each row set is filtered once per band.
    if (unit.kind == join::JoinCase::off_centre && join::caches_south_keys(plan_.n))
      return {band << 48 | std::uint64_t{unit.a} << 8 | unit.b, unit.rows};
    const join::UnitLayout layout = join::layout_of(plan_.n, join::with_rows(unit, join::row_sets(plan_.n, unit)[0]));
    const std::uint64_t north = layout.east.north_rows;
    const std::uint64_t south = unit.kind == join::JoinCase::off_centre ? 0 : layout.east.south_rows;
    const std::uint64_t tile = (north >> tile_bits_) << 16 | (south >> tile_bits_);
    return {band << 48 | tile, north << 16 | south};
  }

  // The slices the run before left, where they are this run's (taken in any case: nothing stays
  // past the run after the one that left it), under this run's own budget.
  void take_kept_slices() {
    if (!hand_on_.kept) return;
    if (const auto earlier = hand_on_.kept->take<join::SliceCache>(kKeptSlices);
        earlier && slices_->same_slices(*earlier))
      slices_->take_slices(*earlier);
  }

  bool counts_in_batches() const { return plan_.n % 2 == 1 && !slices_->holds_whole_table(); }
  bool matches_elsewhere() const { return static_cast<bool>(variant_.make_matcher); }
  std::size_t shares(std::size_t id) const { return pair_shares(plan_.n, cost(id), matches_elsewhere()); }

  // Off-centre units of one pair of fixed queens and one cost band.
  bool same_pair(std::size_t first, std::size_t second) const {
    const std::size_t rotation = plan_.units.size();
    if (first == rotation || second == rotation) return false;
    const join::JoinUnit& a = plan_.units[first];
    const join::JoinUnit& b = plan_.units[second];
    return a.kind == join::JoinCase::off_centre && b.kind == join::JoinCase::off_centre && a.a == b.a && a.b == b.b &&
           cost_band(cost(first)) == cost_band(cost(second));
  }

  bool same_batch(std::size_t first, std::size_t second) const {
    const std::size_t rotation = plan_.units.size();
    if (first == rotation || second == rotation) return false;
    if (cost_band(cost(first)) != cost_band(cost(second))) return false;
    const join::JoinUnit& a = plan_.units[first];
    const join::JoinUnit& b = plan_.units[second];
    const bool same_rows =
        a.kind == join::JoinCase::off_centre && b.kind == join::JoinCase::off_centre && a.rows == b.rows;
    return same_rows || matches_elsewhere();
  }

  join::JoinPlan plan_;
  std::unique_ptr<join::SliceCache> slices_;
  int tile_bits_;
  join::JoinMemory memory_;
  join::JoinVariant variant_;
  HandOn hand_on_;
};

// The memory the join run of `request` takes on its threads and under its budget: the plan the
// request carries where it was made for this run (by this engine or one built on the join, under
// the same figures), else worked out now.
join::JoinMemory planned_memory(const RunRequest& request) {
  if (const auto* carried = dynamic_cast<const join::JoinMemoryPlan*>(request.memory_plan.get())) {
    const join::JoinMemory& memory = carried->memory();
    if (memory.n == request.n && memory.threads == request.threads && memory.budget == request.memory_bytes)
      return memory;
  }
  return join::plan_join_memory(request.n, request.threads, request.memory_bytes);
}

// From docs/performance.md ("The engine choice"): on this kind of machine the join engine is
// ahead of the depth-first search from N = 14 on even boards (at 12 its slices cost more than the
// whole count) and from N = 15 on odd ones (at 13 its off-centre units, each a few row sets, cost
// three times the depth-first search).
constexpr int kFasterFromEven = 14;
constexpr int kFasterFromOdd = 15;

std::string refusal(int n, const CountOptions& options) {
  if (!valid_board_size(n))
    return "N=" + std::to_string(n) + " is outside " + std::to_string(kMinN) + ".." + std::to_string(kMaxN);
  if (std::string why = settings_refused(options, "it always folds every symmetry and splits by row sets");
      !why.empty())
    return why;
  return join::unsupported_reason(n);
}

bool preferred_for(int n, const CountOptions& /*options*/) {
  return n >= (n % 2 == 0 ? kFasterFromEven : kFasterFromOdd);
}

std::unique_ptr<Engine> make(const RunRequest& request) { return make_join_engine(request); }

std::shared_ptr<const MemoryPlan> join_memory_plan(const RunRequest& request) {
  const join::JoinMemory memory = join::plan_memory(request);
  return std::make_shared<const join::JoinMemoryPlan>("join engine: " + memory.describe(), memory);
}

// The units of a join run of n, its row-set units and the rotation unit, counted once per n: a
// merge reads a header per shard file.
std::size_t run_unit_count(int n) {
  static std::array<std::atomic<std::size_t>, kMaxN + 1> counted{};
  std::atomic<std::size_t>& slot = counted[static_cast<std::size_t>(n)];
  if (slot.load() == 0) slot.store(join::unit_count(n) + 1);
  return slot.load();
}

}  // namespace

// A join run has exactly the units split() makes, plus one for the rotation-symmetric solutions.
// Its unit count is known without the plan (which takes gigabytes at n = 27), so a file's header
// is held to it before anything is sized by it.
std::string join::header_problem(const RunHeader& header) {
  if (std::string why = join::unsupported_reason(header.n); !why.empty()) return why;
  if (const std::size_t units = run_unit_count(header.n); header.unit_count != units)
    return "a join run of N=" + std::to_string(header.n) + " has " + std::to_string(units) + " units, not " +
           std::to_string(header.unit_count);
  return "";
}

std::uint64_t join::JoinMemoryPlan::hand_on_bytes(const MemoryPlan& next) const {
  const auto* join_next = dynamic_cast<const JoinMemoryPlan*>(&next);
  if (!join_next) return 0;
  const JoinMemory& other = join_next->memory();
  if (other.n / 2 != memory_.n / 2 || slices_carry_keys(memory_.n, memory_.cache_bytes) ||
      slices_carry_keys(other.n, other.cache_bytes))
    return 0;
  return std::min(memory_.cache_bytes, other.cache_bytes);
}

namespace {

std::string problem_with(const RunHeader& header) { return join::header_problem(header); }

// The matcher's vector path, and "+pext" where it packs keys with PEXT (join/bit_gather.hpp).
std::string cpu_path() {
  const join::DisjointCounter counter;
  return std::string(join::to_string(counter.path())) + (counter.gathers_bits() ? "+pext" : "");
}

}  // namespace

join::JoinMemory join::plan_memory(const RunRequest& request, const std::string& engine) {
  JoinMemory memory = planned_memory(request);
  if (!memory.refusal.empty()) {
    // What the run needs at the least, for the way on that a refusal of the default offers.
    note_least_budget({request.threads, memory.unit_list_bytes, memory.least_thread_bytes, request.n});
    throw std::invalid_argument("the " + engine + " engine cannot count N=" + std::to_string(request.n) + ": " +
                                memory.refusal);
  }
  return memory;
}

std::unique_ptr<Engine> make_join_engine(const RunRequest& request, join::JoinVariant variant) {
  const int n = request.n;
  if (const std::string why = join::unsupported_reason(n); !why.empty())
    throw std::invalid_argument("the join engine cannot count N=" + std::to_string(n) + ": " + why);
  const join::JoinMemory memory = join::plan_memory(request, variant.engine);
  note_least_budget({request.threads, memory.unit_list_bytes, memory.least_thread_bytes, request.n});
  return std::make_unique<JoinEngine>(memory, std::move(variant), HandOn{request.kept, request.hand_on_bytes});
}

std::unique_ptr<Engine> make_join_engine(int n, const CountOptions& options, join::JoinVariant variant) {
  RunRequest request;
  request.n = n;
  request.engine = &join_engine_description();
  request.options = options;
  request.threads = resolve_threads(options.threads);
  request.memory_bytes = resolve_memory_budget(options.memory_bytes);
  return make_join_engine(request, std::move(variant));
}

// The cost model's thread time of each whole run (join/unit_cost.hpp, summed over the run's
// units): docs/data/join-run-costs.csv, written by scripts/dev/fit-unit-costs.py, which fits the
// model to units timed at N = 16 to 24 (docs/data/join-unit-fit.csv). A test holds this table to
// the CSV, and the CSV to the model's sum over every unit where that is quick.
constexpr RoughCost kJoinRoughCosts[] = {
    {16, 0.04989},   {17, 0.6693},    {18, 1.151},     {19, 13.79},     {20, 36.12},     {21, 429.2},    {22, 1663},
    {23, 1.864e+04}, {24, 1.372e+05}, {25, 1.208e+06}, {26, 1.764e+07}, {27, 1.292e+08}, {28, 3.422e+09}};

const EngineDescription& join_engine_description() {
  static const EngineDescription description{
      .name = "join",
      .summary = "half-board join: east and west half-boards of a row set matched by their crossing diagonals",
      .refusal = refusal,
      .preferred_for = preferred_for,
      .make = make,
      .header_problem = problem_with,
      // Its units carry weights of partial structures: a part's share of unique counts means nothing.
      .partial_runs_report_unique = false,
      .yardstick = false,
      .cpu_path_key = "join_matcher",
      .cpu_path = cpu_path,
      .memory_plan = join_memory_plan,
      .rough_costs = kJoinRoughCosts,
      .independent_recount = join::make_search_engine,
      .independent_recount_text =
          "each unit's solutions found one by one by a backtracking search on the whole board, "
          "weighed by the diagonal fold: no quarter table, half-board or matcher code",
  };
  return description;
}

}  // namespace nqueens
