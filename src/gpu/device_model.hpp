#pragma once
// A model of the gpu engine on a device, for planning where no device is at hand: the engine's
// batches replayed on this CPU exactly as a counting thread makes them (the join's enumeration,
// the tile batches, slot splits and tiles), with a recorder in place of the device that tallies
// what each batch would cost it, and a few constants per card (kept as data in device_model.cpp)
// that turn those tallies into seconds. The pairs themselves are not counted.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/engine.hpp"
#include "gpu/slot_split.hpp"

namespace nqueens::gpu {

//! What one card does, from its specification and the built kernels (scripts/dev/kernel-
//! instructions.py reads pass_instructions from the cubin), and the host it was measured on.
struct CardModel {
  std::string_view name;
  int multiprocessors = 0;
  double clock_ghz = 0;              //!< sustained SM clock
  int schedulers = 4;                //!< warp instructions issued per multiprocessor and cycle
  double pass_instructions = 0;      //!< warp instructions of one query's pass over one tile
  double copy_bytes_per_second = 0;  //!< pinned host-to-device copies over its bus
  int host_threads = 0;              //!< the threads that feed it (one counting thread each)
  //! The share of the issue ceiling the kernels reach: fitted to the one device measurement
  //! (device_model.cpp), and taken for every card.
  double issue_share = 1;
  std::string_view source;  //!< where the figures come from
  double memory_bytes = 0;  //!< its memory: a quarter of it holds the quarter table once for all threads
};

//! The cards the model knows, by name ("H100", "H200", "A100", "L40S", "RTX 4090", "B200", ...).
std::span<const CardModel> known_cards();
//! The card named `name` (case-insensitive, as known_cards() names them); nullptr if unknown.
const CardModel* find_card(std::string_view name);

//! What the replayed batches hold, summed: scaled to the whole run when only a sample of its
//! batches was replayed.
struct DeviceWork {
  double keys = 0;             //!< halves' keys sent (each side's, once)
  double tables = 0;           //!< tile tables built (a tile per 1024 stored keys and cut of queries)
  double passes = 0;           //!< query passes: one per query and tile it meets
  double pair_tests = 0;       //!< passes times the stored keys of their tiles
  double bytes_to_device = 0;  //!< keys, jobs, tiles and query ranges
  double bytes_to_host = 0;    //!< a count per job
  double batches = 0;
  double host_seconds = 0;  //!< thread time of this CPU enumerating and batching (no matching)
  //! Candidates (north entry times south entry) the device's build passes test: a replay of the
  //! device-built path (Replay::device_built) only, its count and write passes.
  double build_candidates = 0;
  //! Of bytes_to_device, the slices' entries (device-built replay): each slice sent once, and
  //! again after the device's entries filled and started over; for a sample, at most the whole
  //! quarter table per feeding thread where it fits a matcher's room.
  double entry_bytes = 0;
  //! Of bytes_to_device (device-built replay), each batch's pairings, and the sides' descriptions
  //! sent in their place where the device holds the quarter table and its group index
  //! (pairing_spec.hpp); the model counts whichever the engine sends for the card.
  double pairing_bytes = 0, spec_bytes = 0;
  //! Of bytes_to_device (device-built replay), the group index sent with the shared table.
  double group_index_bytes = 0;
  //! Of the device-built replay's bytes: the count pass's sides (SideSorts; the device makes the
  //! write pass's from them) and the row sets' descriptions for the plan (PlanRowSet: the device
  //! plans each batch from its counters, batch_plan.hpp); back, each plan's totals and each row
  //! set's pairs and halves.
  double side_bytes = 0, row_set_bytes = 0, total_bytes = 0, result_bytes = 0;
  //! The plan's kernels (batch_plan.hpp) in a device-built replay: their warp instructions (each
  //! warp as long as its longest thread), and each launch's longest thread, summed over launches
  //! (a launch takes at least that thread's instructions one after another).
  double plan_warp_instructions = 0, plan_lone_instructions = 0;

  //! The design where the device builds what it matches (half_build.hpp): the host sends each
  //! side's recipe (its SideSort and pairings) against the quarter table held on the device,
  //! and the device enumerates, sorts into slots, makes the tiles and matches.
  struct Built {
    double sides = 0;          //!< sides sent (both of every row set)
    double recipe_bytes = 0;   //!< their SideSorts and pairings
    double candidates = 0;     //!< north entry times south entry pairs the build tests
    double table_bytes = 0;    //!< the quarter table, sent once to each device
    double bytes_to_host = 0;  //!< pairs and halves per row set
    double host_seconds = 0;   //!< thread time of this CPU making the recipes
    //! The compact form: each row set sent as its unit (a JoinUnit with its rows), from which the
    //! device works out the layout, maps and pairings, reading the table's group index (4^k + 1
    //! starts, sent once with the table).
    double compact_bytes = 0;
    double index_bytes = 0;
  } built;
};

struct ModelledRun {
  int n = 0;
  std::string card;
  DeviceWork work;
  std::size_t batches_replayed = 0, batches_total = 0;
  double share_replayed = 1;    //!< of the run's estimated cost
  double device_seconds = 0;    //!< tables and passes at the card's issue rate, times its issue_share
  double plan_seconds = 0;      //!< of device_seconds, the plan's kernels (device-built replay)
  double transfer_seconds = 0;  //!< bytes each way at its copy rate
  double host_seconds = 0;      //!< the replay's host thread time over the card's host threads
  //! The predicted wall time: the three overlap (two batches in turn per thread), so the slowest sets it.
  double seconds = 0;
  std::string bound_by;  //!< "host", "device" or "transfers"

  //! The same, priced for the device-built design (DeviceWork::Built): the device's seconds add
  //! the build's passes over the candidates to the matching's.
  struct {
    double device_seconds = 0, build_seconds = 0, transfer_seconds = 0, host_seconds = 0, seconds = 0;
    std::string bound_by;
  } built;
};

//! Instructions of the build kernel (nq_sort_sides) for a warp's step over 32 candidates, as
//! counted in its sm_90 SASS by scripts/dev/kernel-instructions.py (docs/data/kernel-
//! instructions.csv; GpuModel.ItsInstructionCountsAreTheCubinsData holds these to it): 8 for the
//! test of a candidate, and for a half, which the warp pays whenever any lane makes one, 10 in
//! the count pass (its bucket and the atomic) and 18 in the write pass (and the key's place and
//! store). The sm_90 figures stand for every card (sm_80 to sm_120 differ by a few). The
//! device-built path runs two passes, the count and the write; the split's bits come from a
//! sample taken on the host.
inline constexpr double kCountStepInstructions = 8 + 10;
inline constexpr double kWriteStepInstructions = 8 + 18;
inline constexpr double kBuildStepInstructions = (kCountStepInstructions + kWriteStepInstructions) / 2;
inline constexpr double kBuildKernelPasses = 2;

//! Instructions of the plan's kernels in their sm_90 SASS (docs/data/kernel-instructions.csv,
//! held to it by GpuModel.ItsInstructionCountsAreTheCubinsData): each kernel's in all and its
//! longest innermost loop's. A thread is priced at the kernel's whole plus its loop's once per
//! trip of the loop its work sets (device_model.cpp's tally_writing, for a block a row set the
//! trips its steps take, block_steps.hpp): an estimate from the code's loops, as the sm_90
//! figures stand for every card.
struct KernelSize {
  double whole = 0, loop = 0;
};
inline constexpr KernelSize kPlanRowSetsSize{2973, 259};
inline constexpr KernelSize kPlaceRowSetsSize{611, 179};
inline constexpr KernelSize kWritePlansSize{556, 26};
inline constexpr KernelSize kSumRowSetsSize{72, 20};
//! nq_choose_splits (a block a row set): its whole, and its longest innermost loop, a trip of
//! the step that sums a bit's counts over the parts; a sampled candidate costs a trip of its
//! sampling loop (kSampleStepInstructions).
inline constexpr KernelSize kChooseSplitsSize{2906, 621};
inline constexpr double kSampleStepInstructions = 156;
//! Cycles a lone thread takes an instruction that waits on the one before (an SM's arithmetic
//! latency): the pace of a launch's longest thread.
inline constexpr double kLoneInstructionCycles = 4;

//! How much of a run to replay, and under which split rule.
struct Replay {
  double most_seconds = 1e300;          //!< stop after about this long (and one batch that sent work)
  std::size_t most_batches = SIZE_MAX;  //!< or after this many batches
  SplitRule rule{};                     //!< the engine's (a measurement may change it)
  //! Replay the engine's device-built path (built_matcher.hpp: recipes sent, halves built on the
  //! device) rather than the keys-fed one; its count passes run here and are not timed.
  bool device_built = false;
};

//! Replays units of n's gpu run on this thread as a counting thread sends them: a batch of the
//! engine's (modelled_run), or one unit sent as a batch of its own (a sample of single units,
//! `plan --engine gpu`; alone, a unit's last tile batch is not filled with its neighbours' work,
//! which adds a little to its bytes and host time, not to its passes). Each call's tallies are its
//! own, unscaled; the slices the device already holds carry over from call to call, as on a
//! counting thread.
class UnitReplayer {
 public:
  UnitReplayer(int n, const Replay& replay);
  ~UnitReplayer();
  UnitReplayer(const UnitReplayer&) = delete;
  UnitReplayer& operator=(const UnitReplayer&) = delete;

  //! The engine whose units are replayed (their ids, estimated costs and batches).
  const Engine& engine() const;
  //! The units `ids` (one batch) replayed; host_seconds is this thread's time for them, less the
  //! device's count passes (and, keys fed, the device-built design's recipes) and less building
  //! their slices, which a run does once for many units.
  DeviceWork replay(std::span<const std::size_t> ids);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

//! Adds `factor` times every figure of `part` that sums over units (all but the one-off costs
//! priced_run puts in) to `sum`.
void add_scaled(DeviceWork& sum, const DeviceWork& part, double factor);

//! n's run on `card` from `work`, the tallies of its units (all of them, or a sample scaled to
//! the whole): the one-off costs put in as the whole run pays them, whatever share was replayed
//! (the quarter table, its group index; the slices' entries at most once per thread where the
//! device keeps them), then priced.
ModelledRun priced_run(int n, const CardModel& card, DeviceWork work, bool device_built);

//! What a replayed unit adds to a run's three times on `card` (device, transfers and host, as
//! priced_run prices them): the same prices, without the run's one-off costs. Their sums over a
//! run's units are its times less those costs, so a sample's spread of them is its error.
struct CardSeconds {
  double device = 0, transfers = 0, host = 0;
};
CardSeconds unit_seconds(int n, const CardModel& card, DeviceWork unit, bool device_built);

//! Replays n's gpu run on this thread and prices it on `card`: every batch, or, as far as
//! `replay` allows, a sample spread over the run (in bit-reversed order of the batches), scaled
//! to the whole by the engine's estimated costs of the units replayed. Throws
//! std::invalid_argument for an n the join cannot count.
ModelledRun modelled_run(int n, const CardModel& card, const Replay& replay = {});

}  // namespace nqueens::gpu
