#pragma once
// What a run will cost before it starts: `nqueens plan`. A plan counts a sample of the run's
// units, drawn from strata of the engine's cost model (strata.hpp), times each one on the run's
// thread count (unit_timer.hpp), and estimates the run's total thread time with an error bar
// (estimate.hpp). The sample grows in rounds until the bar is narrow or the sampling budget is
// spent (in CPU seconds of each sampling thread): by default 2 % of the wall time the plan
// predicts, at least 3 s and at most a minute, or, for a run whose engine's cost model prices it
// past a day, 0.05 % of that run up to a quarter of an hour. A plan always answers within its
// budget: a band whose first units (their preparation and their count, predicted from the
// cheaper bands) would pass it is timed on a random share of those units' exact parts (the
// join's row sets), scaled by what each unit holds; where even that would pass it, or its units
// do not split, it is not timed but estimated at the rate of the timed bands (their level, where
// the engine's costs predict time; else their trend), with an error that grows with the
// distance, and the plan says how much more sampling would narrow its bar. The rest follows from
// the estimate: the wall time of a list schedule over threads x ranks workers (makespan.hpp), the
// engine's planned memory, the journal's size.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/engine.hpp"
#include "plan/estimate.hpp"
#include "run/run_arena.hpp"

namespace nqueens::plan {

struct PlanOptions {
  int threads = 1;  //!< worker threads per process, as the run will have them
  int ranks = 1;    //!< processes counting at once (MPI ranks, shards)
  //! Sampling budget in CPU seconds of each sampling thread (the process's CPU time over
  //! sampling_threads): on a busy machine the same units as on a quiet one, longer by the wall
  //! clock. 0: automatic (see above).
  double sample_seconds = 0;
  double confidence = 0.95;        //!< of the error bars
  std::size_t strata = 16;         //!< bands of the cost model
  double target_precision = 0.01;  //!< stop sampling once the sampling bar is this share of the estimate
  //! Relative standard deviation of a run's thread time between two timings of the same units:
  //! 4 % covers what repeated timings of whole runs of N = 12..16 in one process gave on a busy
  //! two-core machine (3 to 5 %; docs/performance.md, "Planning a run"). Part of every bar.
  double repeatability = 0.04;
  //! Some of the run's units (a shard, a list of ids), whose thread time the plan predicts
  //! besides the whole run's: RunPlan::part_thread.
  std::optional<std::vector<std::size_t>> part;
};

//! One cost band of a plan, for the log: what was measured in it and what it was estimated at.
struct BandPlan {
  std::size_t units = 0;
  std::size_t sampled = 0;      //!< units timed; 0 where the band was extrapolated
  double weight = 0;            //!< the cost model's weight of all its units
  double thread_seconds = 0;    //!< its estimated thread time
  double standard_error = 0;    //!< of thread_seconds: sampling, or extrapolation where not timed
  double prepare_seconds = 0;   //!< the preparation of its timed units, summed (steady clock)
  double counted_seconds = 0;   //!< the thread time of its timed units, summed
  bool extrapolated = false;    //!< no unit timed: the rate of the nearest cheaper band that was
  std::size_t parts_timed = 0;  //!< where its units were timed in parts: the parts counted
};

//! One unit the pilot timed, for the log.
struct PilotUnit {
  double weight = 0;
  double cpu_seconds = 0;
  double prepare_seconds = 0;
};

struct RunPlan {
  std::size_t units = 0;
  std::size_t strata = 0;
  std::size_t sampled_units = 0;
  double sampled_share = 0;          //!< of the estimated thread time, in the units counted
  double sample_seconds = 0;         //!< wall time the sampling took
  double sample_budget_seconds = 0;  //!< the sampling budget: given, or the automatic one at the end
  double confidence = 0;
  std::size_t extrapolated_bands = 0;  //!< bands none of whose units the budget could time
  double extrapolated_share = 0;       //!< of the estimated thread time, in those bands
  //! Units of bands too costly to time whole, timed on a random share of their exact parts (the
  //! join's row sets) and scaled by what each unit holds; and the parts counted of them.
  std::size_t units_in_parts = 0;
  std::size_t parts_timed = 0;
  //! The run's thread time: the sum over its units of the CPU time each takes on its thread.
  Estimate thread;
  //! The same sum by the steady clock, as a journal written now on this machine would add it up:
  //! the thread time plus the time the threads wait for a core on a busy machine.
  Estimate journal_thread;
  //! Of thread's bar: z(confidence) x stated_standard_error (sampling and repeatability).
  double half_width = 0;
  double journal_half_width = 0;    //!< of journal_thread's bar, likewise
  double largest_unit_seconds = 0;  //!< the longest unit's estimated thread time
  //! Counting on threads x ranks workers, each taking the next unit costliest first when free.
  double counting_seconds = 0;
  double efficiency = 0;  //!< thread time / (workers x counting_seconds)
  //! Other processes' use of the CPUs this process may run on while the plan sampled, in cores
  //! (0 where the system does not say): counting_seconds is for cores of the count's own, which it may not get.
  double busy_cores = 0;
  int busy_cpus = 0;  //!< the CPUs busy_cores is of: those this process may run on (0: not known)
  //! How much longer the counting would take on this machine at that load, at least 1: a thread
  //! gets its share of the cores among the count's threads here and the other processes' work
  //! (slowdown_at_load).
  double busy_factor = 1;
  std::uint64_t counting_memory_bytes = 0;  //!< Engine::planned_memory_bytes(threads)
  std::uint64_t journal_bytes = 0;          //!< a whole run's checkpoint journal
  //! A sampling budget (--sample-seconds) that would narrow the bar to about
  //! advised_half_width: timing the extrapolated bands, or enough units to bring the sampling
  //! error down to the repeatability. 0 where more sampling would not narrow it much.
  double advised_sample_seconds = 0;
  double advised_half_width = 0;
  //! With PlanOptions::part: those units' thread time, each band's rate (as the estimate takes
  //! it) times their weights in it, with the rates' errors and, in quadrature, the scatter of
  //! single units about their band's rate (a few units vary more than a band of thousands).
  std::size_t part_units = 0;
  Estimate part_thread;
  double part_half_width = 0;     //!< of part_thread's bar, the repeatability included
  std::vector<BandPlan> bands;    //!< costliest first, as the strata
  std::vector<PilotUnit> pilots;  //!< lightest first
};

//! The load past which a plan's wall time does not hold without it: at 1.1, counting at that load
//! takes a tenth longer than on cores of its own.
inline constexpr double kBusyFactor = 1.1;

//! RunPlan::busy_factor for `threads` counting threads on `cpus` CPUs beside `busy_cores` of
//! other work on them: each runnable thread gets a fair share of the CPUs.
double slowdown_at_load(int threads, double busy_cores, int cpus);

//! The half-width of counting_seconds' bar: the thread time's, relative, and past kBusyFactor
//! widened by the counting's lengthening at the load seen while sampling.
double counting_error_seconds(const RunPlan& plan);

//! The threads a plan counts its sample on: the run's, or every core here when the run will have
//! more (a plan made on a laptop for a node of 64 cores): a unit's CPU time does not depend on
//! how many others run beside it.
int sampling_threads(const PlanOptions& options);

//! Samples `engine`'s units and estimates its run, on `arena`: the command's one arena, the
//! engine built in it, of sampling_threads(options) threads. Throws std::invalid_argument for
//! options out of range (threads or ranks below 1, a confidence outside (0, 1), a negative
//! budget).
RunPlan plan_run(const Engine& engine, const PlanOptions& options, RunArena& arena);
//! plan_run on an arena of its own, for an engine built apart (tests).
RunPlan plan_run(const Engine& engine, const PlanOptions& options);

}  // namespace nqueens::plan
