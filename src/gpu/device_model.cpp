#include "gpu/device_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <ctime>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "gpu/batch_plan.hpp"
#include "gpu/built_matcher.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/half_build.hpp"
#include "gpu/job_tiles.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/plan_block.hpp"
#include "gpu/shared_slices.hpp"
#include "gpu/side_recipe.hpp"
#include "gpu/slot_split.hpp"
#include "gpu/split_sample.hpp"
#include "gpu/tiled_matcher.hpp"
#include "join/diagonal_fold.hpp"
#include "join/join_engine.hpp"
#include "join/join_layout.hpp"
#include "join/join_plan.hpp"
#include "join/quarter_table.hpp"
#include "join/slice_cache.hpp"

namespace nqueens::gpu {

namespace {

// The cards' figures: SMs and sustained clocks from their specifications; a query's pass over a
// tile from the cubin of the card's architecture, 7-bit 6-chunk kernel (N = 22's keys:
// scripts/dev/kernel-instructions.py; six shared reads a pass, at one warp read per cycle per SM,
// allow a pass every 6 cycles, under the 6.9 that 27.5 instructions on 4 schedulers take); copy
// rates as pinned copies reach on their bus (PCIe 4: about 25 GB/s, PCIe 5: about 50); 16 feeding
// threads, as on the one machine a device was measured on: an H100 with 16 cores counted N = 22 in
// 72.1 s (docs/data/long-runs.md), storing the side of fewer passes, with kernels of 44
// instructions a pass. This model's replay of that rule (`gpu_model 22 --batches 200
// --store-by-passes`: 7 % of the run's estimated cost) finds the device's share 36.2 s at the issue
// ceiling of those kernels, the host's 21.0 s and the transfers' 10.9 s: the run was the
// device's, at half the ceiling (startup and waits included), a share taken for every card.
constexpr double kIssueShare = 36.2 / 72.1;
constexpr std::array kCards = {
    CardModel{"H100", 132, 1.755, 4, 27.5, 50e9, 16, kIssueShare, "H100 SXM5 80 GB, PCIe 5, sm_90", 80e9},
    CardModel{"H200", 132, 1.755, 4, 27.5, 50e9, 16, kIssueShare, "H200 SXM 141 GB, PCIe 5, sm_90", 141e9},
    CardModel{"A100", 108, 1.41, 4, 27.75, 25e9, 16, kIssueShare, "A100 SXM4, PCIe 4, sm_80", 80e9},
    CardModel{"L40S", 142, 2.52, 4, 27.75, 25e9, 16, kIssueShare, "L40S, PCIe 4, sm_89", 48e9},
    CardModel{"RTX 4090", 128, 2.52, 4, 27.75, 25e9, 16, kIssueShare, "GeForce RTX 4090, PCIe 4, sm_89", 24e9},
    CardModel{"RTX 5090", 170, 2.41, 4, 28.5, 50e9, 16, kIssueShare, "GeForce RTX 5090, PCIe 5, sm_120", 32e9},
    CardModel{"B200", 148, 1.965, 4, 28.5, 50e9, 16, kIssueShare, "B200, PCIe 5 host link, sm_100", 180e9},
};

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// A batch's tables, query passes and pair tests.
void tally_tiles(std::span<const TileJob> jobs, std::span<const MatchTile> tiles, const std::uint32_t* starts,
                 DeviceWork& work) {
  work.tables += static_cast<double>(tiles.size());
  for (const MatchTile& tile : tiles) {
    const TileJob& job = jobs[tile.job];
    std::uint64_t queries = 0;
    for_each_query_range(job, tile, starts + job.starts_first,
                         [&](std::uint32_t begin, std::uint32_t end, int /*part*/) { queries += end - begin; });
    const std::uint32_t stored = std::min(kTileLanes, job.stored_count - tile.stored_offset);
    work.passes += static_cast<double>(queries);
    work.pair_tests += static_cast<double>(queries) * stored;
  }
}

void tally_tiles(const TileBatch& batch, DeviceWork& work) {
  tally_tiles(batch.jobs(), batch.tiles(), batch.starts().data(), work);
}

// This thread's CPU time: on a shared machine another process may take the core for a while.
double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// One launch of a plan kernel over `threads` threads, thread t running `trips(t)` trips of its
// loop: its warps, each as long as its longest thread, and that longest thread.
template <class Trips>
void tally_plan_launch(const KernelSize& size, std::uint32_t threads, Trips trips, DeviceWork& work) {
  double longest = 0;
  for (std::uint32_t first = 0; first < threads; first += 32) {
    double warp = 0;
    for (std::uint32_t t = first; t < std::min(threads, first + 32); ++t)
      warp = std::max(warp, size.whole + size.loop * trips(t));
    work.plan_warp_instructions += warp;
    longest = std::max(longest, warp);
  }
  work.plan_lone_instructions += longest;
}

// The planning launch, a block a row set whose steps cost its threads `trips` (block_steps.hpp):
// each of its warps the kernel's whole and its loop once a trip, the launch's longest thread the
// longest block's thread 0.
void tally_plan_blocks(std::span<const BlockTrips> trips, DeviceWork& work) {
  constexpr std::uint32_t kPlanWarps = kPlanThreads / 32;
  const KernelSize& size = kPlanRowSetsSize;
  double longest = 0;
  for (const BlockTrips& block : trips) {
    work.plan_warp_instructions += kPlanWarps * size.whole + size.loop * block.warps;
    longest = std::max(longest, size.whole + size.loop * block.longest);
  }
  work.plan_lone_instructions += longest;
}

// The split-choosing launch, a block a row set: each thread samples a part of each side (about
// a kChooseThreads-th of the candidates tested) and sums the counts of a few bits over the
// parts; the bits' choice is in the kernel's whole. A row set left no room returns at once.
void tally_choosing(std::span<const std::uint64_t> tested, DeviceWork& work) {
  constexpr double kChooseWarps = kChooseThreads / 32.0;
  const KernelSize& size = kChooseSplitsSize;
  double longest = 0;
  for (std::size_t r = 0; r < tested.size(); ++r) {
    if (tested[r] == 0) continue;
    const double thread = size.whole +
                          kSampleStepInstructions * std::ceil(static_cast<double>(tested[r]) / kChooseThreads) +
                          size.loop * std::ceil(2.0 * kSideSums / kChooseThreads);
    work.plan_warp_instructions += kChooseWarps * thread;
    longest = std::max(longest, thread);
  }
  work.plan_lone_instructions += longest;
}

// The planning and placing launches of a batch (the count pass's end).
void tally_planning(std::span<const BlockTrips> trips, DeviceWork& work) {
  const auto count = static_cast<std::uint32_t>(trips.size());
  tally_plan_blocks(trips, work);
  tally_plan_launch(
      kPlaceRowSetsSize, kPlaceThreads,
      [&](std::uint32_t t) {
        const PlaceRun run = place_run(t, kPlaceThreads, count);
        return 2.0 * (run.end - run.first) + (t == 0 ? kPlaceThreads : 0);
      },
      work);
}

// The write and sum launches of a matched batch.
void tally_writing(std::span<const RowSetPlan> plans, DeviceWork& work) {
  const auto count = static_cast<std::uint32_t>(plans.size());
  tally_plan_launch(
      kWritePlansSize, count,
      [&](std::uint32_t r) {
        return plans[r].query_keys == 0 ? 1.0 : std::ldexp(5.0, static_cast<int>(plans[r].split_count));
      },
      work);
  tally_plan_launch(
      kSumRowSetsSize, count, [&](std::uint32_t r) { return static_cast<double>(plans[r].jobs); }, work);
}

// The device-built path as device_matcher.cpp sends it, tallied: the slices' entries, the
// pairings (or the sides' descriptions), the count pass's sides and the row sets' descriptions;
// back, the plan's totals and each row set's pairs and halves. The count pass and the plan run
// here by their host forms, for the jobs and tiles the device would match, and their time is the
// device's (`device_seconds`, left out of the host's); no halves are written and no pairs counted.
class BuiltRecorder final : public BuiltMatcher {
 public:
  BuiltRecorder(DeviceWork& work, SplitRule rule, double& device_seconds)
      : BuiltMatcher(kBatchKeys, kDeviceEntries, rule), work_(work), device_seconds_(device_seconds) {}

 private:
  void reserve_entries(std::size_t entries) override { entries_.resize(entries); }

  PlanTotals count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                          std::span<const join::QuarterEntry> staged) override {
    std::copy(staged.begin(), staged.end(), entries_.begin() + static_cast<std::ptrdiff_t>(first));
    const double side_bytes = static_cast<double>(aligned(batch.count_sides().size_bytes()));
    const double row_sets = static_cast<double>(aligned(batch.row_sets().size_bytes()));
    work_.entry_bytes += static_cast<double>(staged.size_bytes());
    work_.pairing_bytes += static_cast<double>(aligned(batch.pairings().size_bytes()));
    work_.spec_bytes += static_cast<double>(aligned(batch.pairing_specs().size_bytes()));
    work_.bytes_to_device +=
        static_cast<double>(staged.size_bytes() + aligned(batch.pairings().size_bytes())) + side_bytes + row_sets;
    work_.side_bytes += side_bytes;
    work_.row_set_bytes += row_sets;
    work_.bytes_to_host += sizeof(PlanTotals);
    work_.total_bytes += sizeof(PlanTotals);
    const auto b = static_cast<std::size_t>(buffer);
    const double begun = thread_seconds();
    const auto count = static_cast<std::uint32_t>(batch.row_sets().size());
    std::vector<SideSort>& sides = sides_[b];
    sides.assign(batch.count_sides().begin(), batch.count_sides().end());
    std::vector<std::uint64_t> tested(count, 0);
    for (std::uint32_t r = 0; r < count; ++r)
      tested[r] = choose_row_set_split(HostBlock{kChooseThreads}, sides.data(), batch.row_sets().data(), r,
                                       batch.pairings().data(), entries_.data(), batch.plan_rule(), *choose_room_);
    tally_choosing(tested, work_);
    std::vector<std::uint32_t> counters(batch.counters(), 0);
    for (const SideSort& side : sides) {
      work_.build_candidates += 2 * static_cast<double>(candidates_of(side.recipe, batch.pairings().data()));
      sort_side(side.recipe, batch.pairings().data(), entries_.data(), side.rule, counters.data() + side.next_first,
                nullptr);
    }
    starts_[b].assign(batch.start_words(), 0);
    plans_[b].assign(count, RowSetPlan{});
    std::vector<BlockTrips> trips(count);
    for (std::uint32_t r = 0; r < count; ++r)
      plan_row_set_in_block(HostBlock{kPlanThreads, false, &trips[r]}, r, sides.data(), batch.row_sets().data(),
                            counters.data(), batch.plan_rule(), starts_[b].data(), plans_[b].data(), *room_);
    PlanTotals totals;
    place_row_sets_on_host(plans_[b].data(), batch.row_sets().data(), count, &totals);
    device_seconds_ += thread_seconds() - begun;
    tally_planning(trips, work_);
    return totals;
  }

  void start(int buffer, const BuiltBatch& batch, const PlanTotals& totals) override {
    const auto b = static_cast<std::size_t>(buffer);
    const auto count = static_cast<std::uint32_t>(batch.row_sets().size());
    work_.batches += 1;
    work_.keys += static_cast<double>(totals.keys);
    const double results = static_cast<double>(count * sizeof(RowSetResult));
    work_.bytes_to_host += results;
    work_.result_bytes += results;
    const double begun = thread_seconds();
    std::vector<SideSort> sides(batch.count_sides().size());
    std::vector<std::uint32_t> next(batch.write_counters(), 0), firsts(totals.jobs, 0);
    std::vector<TileJob> jobs(totals.jobs);
    write_plans_on_host(sides_[b].data(), batch.row_sets().data(), count, plans_[b].data(), starts_[b].data(),
                        sides.data(), next.data(), jobs.data(), firsts.data());
    std::vector<MatchTile> tiles(totals.tiles);
    make_tiles_on_host(jobs.data(), totals.jobs, firsts.data(), starts_[b].data(), tiles.data());
    tally_tiles(jobs, tiles, starts_[b].data(), work_);
    device_seconds_ += thread_seconds() - begun;
    tally_writing(plans_[b], work_);
    results_[b].assign(count, RowSetResult{});
  }

  std::span<const RowSetResult> wait(int buffer) override { return results_[static_cast<std::size_t>(buffer)]; }

  DeviceWork& work_;
  double& device_seconds_;
  std::vector<join::QuarterEntry> entries_;
  std::array<std::vector<SideSort>, 2> sides_;  // the count sides, their splits chosen
  std::array<std::vector<std::uint32_t>, 2> starts_;
  std::array<std::vector<RowSetPlan>, 2> plans_;
  std::array<std::vector<RowSetResult>, 2> results_;
  std::unique_ptr<PlanRoom> room_ = std::make_unique<PlanRoom>();
  std::unique_ptr<ChooseRoom> choose_room_ = std::make_unique<ChooseRoom>();
};

// A matcher that tallies each batch as the device matcher would send it (device_matcher.cpp's
// buffers) and answers every job with no pairs.
class BatchRecorder final : public TiledMatcher {
 public:
  BatchRecorder(DeviceWork& work, SplitRule rule) : TiledMatcher(kBatchKeys, rule), work_(work) {}

 private:
  std::span<std::uint64_t> key_storage(int buffer, std::size_t keys) override {
    std::vector<std::uint64_t>& storage = keys_[static_cast<std::size_t>(buffer)];
    storage.resize(keys);
    return storage;
  }

  void start(int buffer, const TileBatch& batch) override {
    work_.batches += 1;
    work_.keys += static_cast<double>(batch.keys().size());
    work_.bytes_to_device +=
        static_cast<double>(batch.keys().size_bytes() + aligned(batch.jobs().size_bytes()) +
                            aligned(batch.tiles().size_bytes()) + aligned(batch.starts().size_bytes()));
    work_.bytes_to_host += static_cast<double>(batch.jobs().size() * sizeof(std::uint64_t));
    tally_tiles(batch, work_);
    counts_[static_cast<std::size_t>(buffer)].assign(batch.jobs().size(), 0);
  }

  std::span<const std::uint64_t> wait(int buffer) override { return counts_[static_cast<std::size_t>(buffer)]; }

  DeviceWork& work_;
  std::array<std::vector<std::uint64_t>, 2> keys_, counts_;
};

// 0, B/2, B/4, 3B/4, ...: every prefix of this order spreads over the whole run.
std::vector<std::size_t> spread_order(std::size_t count) {
  std::size_t bits = 0;
  while ((std::size_t{1} << bits) < count) ++bits;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < (std::size_t{1} << bits); ++i) {
    std::size_t reversed = 0;
    for (std::size_t b = 0; b < bits; ++b) reversed |= ((i >> b) & 1u) << (bits - 1 - b);
    if (reversed < count) order.push_back(reversed);
  }
  return order;
}

// What the device-built design sends for `unit`'s row sets: each side's SideSort and pairings,
// made from slices the host holds only for their groups' places (the device holds the table),
// and the candidates its build kernel tests. Only the recipes' making is timed.
void tally_recipes(int n, const join::JoinUnit& unit, join::SliceCache& cache, DeviceWork::Built& built) {
  std::vector<SetPairing> pairings;
  for (const std::uint32_t rows : join::row_sets(n, unit)) {
    const join::UnitLayout layout = join::layout_of(n, join::with_rows(unit, rows));
    const join::DiagonalFold fold = join::diagonal_fold(layout);
    const bool folded = unit.kind != join::JoinCase::off_centre;
    for (const bool east : {true, false}) {
      const join::SideLayout& side = east ? layout.east : layout.west;
      const auto north = cache.get(side.north_rows), south = cache.get(side.south_rows);
      const double begun = thread_seconds();
      pairings.clear();
      side_recipe(north->slice, south->slice, layout, side, folded ? (east ? &fold.east : &fold.west) : nullptr,
                  pairings);
      built.host_seconds += thread_seconds() - begun;
      built.sides += 1;
      built.recipe_bytes += static_cast<double>(sizeof(SideSort) + pairings.size() * sizeof(SetPairing));
      for (const SetPairing& pairing : pairings)
        built.candidates += static_cast<double>(pairing.north_count) * pairing.south_count;
    }
    built.bytes_to_host += 2 * sizeof(std::uint64_t);
    built.compact_bytes += sizeof(join::JoinUnit);
  }
}

double quarter_table_bytes(int n) {
  double entries = 0;
  for (const std::uint64_t placements : join::placements_per_row_set(n / 2)) entries += static_cast<double>(placements);
  return entries * sizeof(join::QuarterEntry);
}

void price_built(ModelledRun& run, const CardModel& card, double issue) {
  const DeviceWork::Built& built = run.work.built;
  auto& priced = run.built;
  priced.build_seconds =
      built.candidates / 32 * kBuildStepInstructions * kBuildKernelPasses / (issue * card.issue_share);
  priced.device_seconds = run.device_seconds + priced.build_seconds;
  priced.transfer_seconds = (built.table_bytes + built.recipe_bytes + built.bytes_to_host) / card.copy_bytes_per_second;
  priced.host_seconds = built.host_seconds / card.host_threads;
  priced.seconds = std::max({priced.device_seconds, priced.transfer_seconds, priced.host_seconds});
  priced.bound_by = priced.seconds == priced.host_seconds     ? "host"
                    : priced.seconds == priced.device_seconds ? "device"
                                                              : "transfers";
}

// Where the device keeps the slices it was sent (the shared table, or a matcher's room that
// holds the whole table), each is sent at most once per table the run keeps there: a one-off
// cost of the run, not of its units.
bool entries_sent_once(int n, bool shared) {
  return shared || quarter_table_bytes(n) <= static_cast<double>(kDeviceEntries * sizeof(join::QuarterEntry));
}

bool table_shared(int n, const CardModel& card) {
  return static_cast<double>(quarter_table_device_bytes(n / 2)) <= card.memory_bytes / kSharedSlicesShare;
}

// Where the table is shared, the device holds its group index and is sent each side's
// description in place of its pairings (device_matcher.cpp): a unit's bytes as the card is sent them.
void send_descriptions(int n, const CardModel& card, bool device_built, DeviceWork& work) {
  if (device_built && table_shared(n, card)) work.bytes_to_device += work.spec_bytes - work.pairing_bytes;
}

void price(ModelledRun& run, const CardModel& card) {
  const double issue = static_cast<double>(card.multiprocessors) * card.schedulers * card.clock_ghz * 1e9;
  // The plan's kernels: their warps at the issue rate, and at most each launch's longest thread
  // on top, one dependent instruction after another, the feeding threads' streams side by side.
  run.plan_seconds =
      run.work.plan_warp_instructions / (issue * card.issue_share) +
      run.work.plan_lone_instructions * kLoneInstructionCycles / (card.clock_ghz * 1e9 * card.host_threads);
  run.device_seconds = ((run.work.passes + run.work.tables * kBuildPasses) * card.pass_instructions +
                        run.work.build_candidates / 32 * kBuildStepInstructions) /
                           (issue * card.issue_share) +
                       run.plan_seconds;
  run.transfer_seconds = (run.work.bytes_to_device + run.work.bytes_to_host) / card.copy_bytes_per_second;
  run.host_seconds = run.work.host_seconds / card.host_threads;
  run.seconds = std::max({run.device_seconds, run.transfer_seconds, run.host_seconds});
  run.bound_by = run.seconds == run.host_seconds ? "host" : run.seconds == run.device_seconds ? "device" : "transfers";
  price_built(run, card, issue);
}

// The figures of a DeviceWork that sum over units; the rest are one-off costs of the run.
std::array<double*, 24> summed(DeviceWork& work) {
  return {&work.keys,
          &work.tables,
          &work.passes,
          &work.pair_tests,
          &work.bytes_to_device,
          &work.bytes_to_host,
          &work.batches,
          &work.host_seconds,
          &work.build_candidates,
          &work.entry_bytes,
          &work.pairing_bytes,
          &work.spec_bytes,
          &work.side_bytes,
          &work.row_set_bytes,
          &work.total_bytes,
          &work.result_bytes,
          &work.plan_warp_instructions,
          &work.plan_lone_instructions,
          &work.built.sides,
          &work.built.recipe_bytes,
          &work.built.candidates,
          &work.built.bytes_to_host,
          &work.built.host_seconds,
          &work.built.compact_bytes};
}

}  // namespace

std::span<const CardModel> known_cards() { return kCards; }

const CardModel* find_card(std::string_view name) {
  for (const CardModel& card : kCards)
    if (same_name(card.name, name)) return &card;
  return nullptr;
}

struct UnitReplayer::State {
  State(int n_in, const Replay& replay) : n(n_in), device_built(replay.device_built) {
    join::JoinVariant variant;
    variant.engine = "gpu";
    if (device_built)
      variant.make_matcher = [this, rule = replay.rule]() -> std::unique_ptr<join::PairMatcher> {
        return std::make_unique<BuiltRecorder>(work, rule, count_pass_seconds);
      };
    else
      variant.make_matcher = [this, rule = replay.rule]() -> std::unique_ptr<join::PairMatcher> {
        return std::make_unique<BatchRecorder>(work, rule);
      };
    engine = make_join_engine(n, {}, std::move(variant));
    counter = engine->make_counter();
    if (!device_built) {
      plan = join::split(n);
      recipe_slices.emplace(n, std::uint64_t{1} << 30);
    }
  }

  int n;
  bool device_built;
  DeviceWork work;                // the recorders tally into it
  double count_pass_seconds = 0;  // the device-built replay's count passes: the device's work
  std::unique_ptr<Engine> engine;
  std::unique_ptr<UnitCounter> counter;
  std::vector<Tally> tallies;
  // The keys-fed replay's estimate of the device-built design makes each side's recipe from
  // the engine's units, by id (left out of a device-built replay: at N = 28 the list and the
  // cache take minutes to make).
  join::JoinPlan plan;
  std::optional<join::SliceCache> recipe_slices;
};

UnitReplayer::UnitReplayer(int n, const Replay& replay) : state_(std::make_unique<State>(n, replay)) {}

UnitReplayer::~UnitReplayer() = default;

const Engine& UnitReplayer::engine() const { return *state_->engine; }

DeviceWork UnitReplayer::replay(std::span<const std::size_t> ids) {
  State& s = *state_;
  s.work = {};
  s.count_pass_seconds = 0;
  // The units' slices loaded first, untimed: a run builds each slice once for many units, so a
  // sampled unit that paid for building its own would price that once-per-run cost per unit.
  for (const std::size_t id : ids) s.counter->prepare(id);
  const double begun = thread_seconds();
  double recipes = 0;
  if (!s.device_built) {
    for (const std::size_t id : ids)
      if (id < s.plan.units.size()) tally_recipes(s.n, s.plan.units[id], *s.recipe_slices, s.work.built);
    // The replay's own clock leaves the recipes out: it times the engine as it is.
    recipes = thread_seconds() - begun;
  }
  s.tallies.resize(ids.size());
  // Each batch is sent whole when its units are counted (the matcher's finish()).
  if (ids.size() == 1)
    s.tallies[0] = s.counter->count(ids[0]);
  else
    s.counter->count_batch(ids, s.tallies);
  s.work.host_seconds = thread_seconds() - begun - recipes - s.count_pass_seconds;
  return s.work;
}

void add_scaled(DeviceWork& sum, const DeviceWork& part, double factor) {
  DeviceWork scaled = part;  // summed() hands out pointers into a DeviceWork it may write
  const auto from = summed(scaled);
  const auto to = summed(sum);
  for (std::size_t i = 0; i < from.size(); ++i) *to[i] += factor * *from[i];
}

ModelledRun priced_run(int n, const CardModel& card, DeviceWork work, bool device_built) {
  ModelledRun run;
  run.n = n;
  run.card = card.name;
  work.built.table_bytes = quarter_table_bytes(n);
  // A sample's slices, scaled with its work, would count the table's sending many times over.
  // Where the whole table fits the share of the card's memory the engine gives it
  // (shared_slices.hpp), each slice is sent once for every thread; else, where it fits a
  // matcher's room, once per feeding thread.
  const bool shared = table_shared(n, card);
  const double cap = shared ? work.built.table_bytes : card.host_threads * work.built.table_bytes;
  if (entries_sent_once(n, shared) && work.entry_bytes > cap) {
    work.bytes_to_device -= work.entry_bytes - cap;
    work.entry_bytes = cap;
  }
  send_descriptions(n, card, device_built, work);
  if (device_built && shared) {
    work.group_index_bytes = static_cast<double>(group_index_words(n / 2) * sizeof(std::uint32_t));
    work.bytes_to_device += work.group_index_bytes;
  }
  work.built.index_bytes = static_cast<double>((std::uint64_t{1} << (2 * (n / 2))) + 1) * sizeof(std::uint32_t);
  run.work = work;
  price(run, card);
  return run;
}

CardSeconds unit_seconds(int n, const CardModel& card, DeviceWork unit, bool device_built) {
  if (entries_sent_once(n, table_shared(n, card))) {
    unit.bytes_to_device -= unit.entry_bytes;
    unit.entry_bytes = 0;
  }
  send_descriptions(n, card, device_built, unit);
  ModelledRun priced;
  priced.work = unit;
  price(priced, card);
  return {priced.device_seconds, priced.transfer_seconds, priced.host_seconds};
}

ModelledRun modelled_run(int n, const CardModel& card, const Replay& replay) {
  using Clock = std::chrono::steady_clock;
  UnitReplayer replayer(n, replay);
  const Engine& engine = replayer.engine();
  const std::vector<std::size_t> order =
      engine.execution_order({engine.costliest_first().begin(), engine.costliest_first().end()});
  std::vector<std::size_t> starts = engine.batch_starts(order);
  starts.push_back(order.size());
  const std::size_t batches_total = starts.size() - 1;

  double all_cost = 0, replayed_cost = 0;
  for (const std::size_t id : order) all_cost += static_cast<double>(engine.cost(id));
  const Clock::time_point begun = Clock::now();
  DeviceWork work;
  std::size_t batches_replayed = 0;
  for (const std::size_t batch : spread_order(batches_total)) {
    const std::span<const std::size_t> ids(order.data() + starts[batch], starts[batch + 1] - starts[batch]);
    add_scaled(work, replayer.replay(ids), 1);
    for (const std::size_t id : ids) replayed_cost += static_cast<double>(engine.cost(id));
    ++batches_replayed;
    // At least one batch that sent work (the rotation unit sends none).
    if (work.batches > 0 && (batches_replayed >= replay.most_batches ||
                             std::chrono::duration<double>(Clock::now() - begun).count() > replay.most_seconds))
      break;
  }
  const double share = all_cost > 0 ? replayed_cost / all_cost : 1;
  const double scale = batches_replayed == batches_total ? 1 : 1 / share;
  DeviceWork scaled;
  add_scaled(scaled, work, scale);
  ModelledRun run = priced_run(n, card, scaled, replay.device_built);
  run.batches_replayed = batches_replayed;
  run.batches_total = batches_total;
  run.share_replayed = share;
  return run;
}

}  // namespace nqueens::gpu
