#include "shell/output/gpu_model_sample.hpp"

#include <ctime>
#include <span>
#include <vector>

#include "plan/estimate.hpp"
#include "plan/strata.hpp"

namespace nqueens::shell {

namespace {

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// What one band's replayed units hold: their tallies summed, and each one's times on the card
// (one sample per time) for the ratio estimate and its error.
struct Band {
  const plan::Stratum* stratum = nullptr;
  std::size_t drawn = 0;
  double drawn_weight = 0;
  gpu::DeviceWork work;
  plan::StratumSample device, transfers, host;

  bool whole() const { return drawn == stratum->ids.size(); }
};

// Half the 95 % bar of a time, from the units' share of it band by band: the stratified ratio
// estimate's standard error.
double half_bar(const std::vector<Band>& bands, plan::StratumSample Band::*time) {
  std::vector<plan::StratumSample> samples;
  samples.reserve(bands.size());
  for (const Band& band : bands) samples.push_back(band.*time);
  return plan::two_sided_z(0.95) * plan::stratified_ratio_estimate(samples).standard_error;
}

}  // namespace

GpuSample sampled_gpu_run(int n, const gpu::CardModel& card, double budget_seconds, std::size_t bands) {
  gpu::UnitReplayer replayer(n, {.device_built = true});
  const Engine& engine = replayer.engine();
  const std::vector<plan::Stratum> strata = plan::make_strata(engine, bands);
  std::vector<Band> drawn(strata.size());
  double all_weight = 0;
  for (std::size_t h = 0; h < strata.size(); ++h) {
    drawn[h].stratum = &strata[h];
    for (plan::StratumSample* sample : {&drawn[h].device, &drawn[h].transfers, &drawn[h].host}) {
      sample->units = strata[h].ids.size();
      sample->weight = strata[h].cost;
    }
    all_weight += strata[h].cost;
  }
  GpuSample result;
  result.units = engine.unit_count();
  result.bands = strata.size();
  const double begun = cpu_seconds();
  const auto enough = [&](std::size_t least) {
    for (const Band& band : drawn)
      if (!band.whole() && band.drawn < least) return false;
    return true;
  };
  // Round by round, a unit from every band not yet replayed whole.
  for (bool any = true; any;) {
    any = false;
    for (Band& band : drawn) {
      if (band.whole()) continue;
      const std::size_t id = band.stratum->ids[band.drawn++];
      const gpu::DeviceWork unit = replayer.replay(std::span(&id, 1));
      gpu::add_scaled(band.work, unit, 1);
      const double weight = plan::unit_weight(engine, id);
      band.drawn_weight += weight;
      const gpu::CardSeconds seconds = gpu::unit_seconds(n, card, unit, true);
      band.device.drawn.push_back({.weight = weight, .seconds = seconds.device});
      band.transfers.drawn.push_back({.weight = weight, .seconds = seconds.transfers});
      band.host.drawn.push_back({.weight = weight, .seconds = seconds.host});
      ++result.units_replayed;
      any = true;
      if (enough(kUnitsForABar) && cpu_seconds() - begun >= budget_seconds) {
        any = false;
        break;
      }
    }
  }
  gpu::DeviceWork run;
  double replayed_weight = 0;
  for (const Band& band : drawn) {
    gpu::add_scaled(run, band.work, band.whole() ? 1 : band.stratum->cost / band.drawn_weight);
    replayed_weight += band.drawn_weight;
  }
  result.share_replayed = all_weight > 0 ? replayed_weight / all_weight : 1;
  result.run = gpu::priced_run(n, card, run, true);
  gpu::CardSeconds& bars = result.half_bars;
  bars = {half_bar(drawn, &Band::device), half_bar(drawn, &Band::transfers), half_bar(drawn, &Band::host)};
  const double bar = result.run.bound_by == "device" ? bars.device
                     : result.run.bound_by == "host" ? bars.host
                                                     : bars.transfers;
  result.relative_error = result.run.seconds > 0 ? bar / result.run.seconds : 0;
  return result;
}

}  // namespace nqueens::shell
