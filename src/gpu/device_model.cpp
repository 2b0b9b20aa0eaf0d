#include "gpu/device_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/slot_split.hpp"
#include "gpu/tiled_matcher.hpp"
#include "join/join_engine.hpp"

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
    CardModel{"H100", 132, 1.755, 4, 27.5, 50e9, 16, kIssueShare, "H100 SXM5 80 GB, PCIe 5, sm_90"},
    CardModel{"H200", 132, 1.755, 4, 27.5, 50e9, 16, kIssueShare, "H200 SXM 141 GB, PCIe 5, sm_90"},
    CardModel{"A100", 108, 1.41, 4, 27.8, 25e9, 16, kIssueShare, "A100 SXM4, PCIe 4, sm_80"},
    CardModel{"L40S", 142, 2.52, 4, 27.8, 25e9, 16, kIssueShare, "L40S, PCIe 4, sm_89"},
    CardModel{"RTX 4090", 128, 2.52, 4, 27.8, 25e9, 16, kIssueShare, "GeForce RTX 4090, PCIe 4, sm_89"},
    CardModel{"RTX 5090", 170, 2.41, 4, 28.5, 50e9, 16, kIssueShare, "GeForce RTX 5090, PCIe 5, sm_120"},
    CardModel{"B200", 148, 1.965, 4, 28.5, 50e9, 16, kIssueShare, "B200, PCIe 5 host link, sm_100"},
};

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

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
    work_.tables += static_cast<double>(batch.tiles().size());
    work_.bytes_to_device +=
        static_cast<double>(batch.keys().size_bytes() + aligned(batch.jobs().size_bytes()) +
                            aligned(batch.tiles().size_bytes()) + aligned(batch.starts().size_bytes()));
    work_.bytes_to_host += static_cast<double>(batch.jobs().size() * sizeof(std::uint64_t));
    for (const MatchTile& tile : batch.tiles()) {
      const TileJob& job = batch.jobs()[tile.job];
      std::uint64_t queries = 0;
      for_each_query_range(job, tile, batch.starts().data() + job.starts_first,
                           [&](std::uint32_t begin, std::uint32_t end, int /*part*/) { queries += end - begin; });
      const std::uint32_t stored = std::min(kTileLanes, job.stored_count - tile.stored_offset);
      work_.passes += static_cast<double>(queries);
      work_.pair_tests += static_cast<double>(queries) * stored;
    }
    counts_[static_cast<std::size_t>(buffer)].assign(batch.jobs().size(), 0);
  }

  std::span<const std::uint64_t> wait(int buffer) override { return counts_[static_cast<std::size_t>(buffer)]; }

  DeviceWork& work_;
  std::array<std::vector<std::uint64_t>, 2> keys_, counts_;
};

// This thread's CPU time: on a shared machine another process may take the core for a while.
double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

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

void price(ModelledRun& run, const CardModel& card) {
  const double issue = static_cast<double>(card.multiprocessors) * card.schedulers * card.clock_ghz * 1e9;
  run.device_seconds =
      (run.work.passes + run.work.tables * kBuildPasses) * card.pass_instructions / (issue * card.issue_share);
  run.transfer_seconds = (run.work.bytes_to_device + run.work.bytes_to_host) / card.copy_bytes_per_second;
  run.host_seconds = run.work.host_seconds / card.host_threads;
  run.seconds = std::max({run.device_seconds, run.transfer_seconds, run.host_seconds});
  run.bound_by = run.seconds == run.host_seconds ? "host" : run.seconds == run.device_seconds ? "device" : "transfers";
}

}  // namespace

std::span<const CardModel> known_cards() { return kCards; }

const CardModel* find_card(std::string_view name) {
  for (const CardModel& card : kCards)
    if (same_name(card.name, name)) return &card;
  return nullptr;
}

ModelledRun modelled_run(int n, const CardModel& card, const Replay& replay) {
  using Clock = std::chrono::steady_clock;
  ModelledRun run;
  run.n = n;
  run.card = card.name;
  DeviceWork work;
  join::JoinVariant variant;
  variant.engine = "gpu";
  variant.make_matcher = [&work, rule = replay.rule] { return std::make_unique<BatchRecorder>(work, rule); };
  const std::unique_ptr<Engine> engine = make_join_engine(n, {}, std::move(variant));
  const std::vector<std::size_t> order =
      engine->execution_order({engine->costliest_first().begin(), engine->costliest_first().end()});
  std::vector<std::size_t> starts = engine->batch_starts(order);
  starts.push_back(order.size());
  run.batches_total = starts.size() - 1;

  double all_cost = 0, replayed_cost = 0;
  for (const std::size_t id : order) all_cost += static_cast<double>(engine->cost(id));
  const std::unique_ptr<UnitCounter> counter = engine->make_counter();
  std::vector<Tally> tallies;
  const Clock::time_point begun = Clock::now();
  const double cpu_begun = thread_seconds();
  for (const std::size_t batch : spread_order(run.batches_total)) {
    const std::span<const std::size_t> ids(order.data() + starts[batch], starts[batch + 1] - starts[batch]);
    tallies.resize(ids.size());
    // Each batch is sent whole when its units are counted (the matcher's finish()).
    if (ids.size() == 1)
      tallies[0] = counter->count(ids[0]);
    else
      counter->count_batch(ids, tallies);
    for (const std::size_t id : ids) replayed_cost += static_cast<double>(engine->cost(id));
    ++run.batches_replayed;
    // At least one batch that sent work (the rotation unit sends none).
    if (work.batches > 0 && (run.batches_replayed >= replay.most_batches ||
                             std::chrono::duration<double>(Clock::now() - begun).count() > replay.most_seconds))
      break;
  }
  work.host_seconds = thread_seconds() - cpu_begun;
  run.share_replayed = all_cost > 0 ? replayed_cost / all_cost : 1;
  const double scale = run.batches_replayed == run.batches_total ? 1 : 1 / run.share_replayed;
  for (double* figure : {&work.keys, &work.tables, &work.passes, &work.pair_tests, &work.bytes_to_device,
                         &work.bytes_to_host, &work.batches, &work.host_seconds})
    *figure *= scale;
  run.work = work;
  price(run, card);
  return run;
}

}  // namespace nqueens::gpu
