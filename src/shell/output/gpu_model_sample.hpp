#pragma once
// The gpu engine's run priced by its device model from a stratified sample of single units: the
// run's units cut into bands of the join's cost model (plan/strata.hpp), units drawn at random
// from every band in turn and each replayed alone (gpu::UnitReplayer), the budget checked after
// each unit. Each band's tallies are scaled to the band by the separate ratio estimate
// (plan/estimate.hpp, units weighted by their estimated cost); the run's one-off costs (the
// shared table, its group index) are put in once, not scaled. The spread of the units' times
// within their bands gives the estimate's error bar. No rate is carried across bands: a band
// stands for itself, however few of its units were replayed.
#include <cstddef>

#include "gpu/device_model.hpp"

namespace nqueens::shell {

struct GpuSample {
  gpu::ModelledRun run;   //!< the run priced on the card, scaled from the sample
  std::size_t units = 0;  //!< the run's units
  std::size_t units_replayed = 0;
  std::size_t bands = 0;
  double share_replayed = 0;  //!< of the run's estimated cost (the units' weights)
  //! Half the 95 % bar of `run.seconds`, over it: the sampling error of the time that bounds the
  //! run (device, transfers or host); 0 for a run replayed whole.
  double relative_error = 0;
  //! Half the 95 % bar of each of the card's three times, in seconds.
  gpu::CardSeconds half_bars;
};

//! How many bands the sample is cut into, and how many units each needs for a bar. Few bands:
//! at N = 28 a unit's replay takes seconds of CPU time, and each band is given its two whatever
//! the budget.
inline constexpr std::size_t kGpuSampleBands = 4;
inline constexpr std::size_t kUnitsForABar = 2;

//! n's gpu run priced on `card` from units replayed here for about `budget_seconds` of this
//! process's CPU time (the setup left out), checked after each unit: every band gets two units
//! (the least a bar rests on) whatever the budget, then more in turn while the budget lasts; a
//! small run is replayed whole. Throws std::invalid_argument for an n the engine cannot count.
GpuSample sampled_gpu_run(int n, const gpu::CardModel& card, double budget_seconds,
                          std::size_t bands = kGpuSampleBands);

}  // namespace nqueens::shell
