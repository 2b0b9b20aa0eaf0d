#include "plan/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "nqueens/journal.hpp"
#include "plan/makespan.hpp"
#include "plan/strata.hpp"
#include "plan/unit_timer.hpp"
#include "run/memory_budget.hpp"

namespace nqueens::plan {

namespace {

// The automatic budget: 2 % of the predicted wall time, within these bounds.
constexpr double kBudgetShare = 0.02;
// At least 3 s: what the first units pay once (the threads' key buffers growing to their size,
// their pages first touched) weighs on a short sample, and each sampled unit stands for many.
// A 1 s sample put N = 20 25 % high; 3 s, within 10 % (docs/performance.md, "Planning a run").
constexpr double kLeastBudget = 3;
constexpr double kMostBudget = 60;
// Every stratum starts with this many units counted: the fewest that show a spread.
constexpr std::size_t kFirstPerStratum = 2;
// How much a round may grow the sample, largest first: a round that would overrun the budget
// is tried smaller before sampling stops.
constexpr double kGrowths[] = {4, 2, 1.5, 1.25};

void check(const PlanOptions& options) {
  if (options.threads < 1) throw std::invalid_argument("a plan needs at least 1 thread");
  if (options.ranks < 1) throw std::invalid_argument("a plan needs at least 1 rank");
  if (options.sample_seconds < 0) throw std::invalid_argument("the sampling budget cannot be negative");
  if (options.repeatability < 0) throw std::invalid_argument("the repeatability cannot be negative");
  two_sided_z(options.confidence);  // throws outside (0, 1)
}

// The sample is counted on the run's threads, or on every core here when the run will have more
// (a plan made on a laptop for a node of 64 cores): a unit's CPU time does not depend on how
// many others run beside it.
int sampling_threads(const PlanOptions& options) { return std::min(options.threads, hardware_threads()); }

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The units counted so far, by stratum, and the estimates they give.
class Sample {
 public:
  Sample(const Engine& engine, std::vector<Stratum> strata) : engine_(engine), strata_(std::move(strata)) {
    taken_.resize(strata_.size());
  }

  const Engine& engine() const { return engine_; }
  const std::vector<Stratum>& strata() const { return strata_; }
  std::size_t taken(std::size_t h) const { return taken_[h].size(); }
  std::size_t size() const {
    std::size_t all = 0;
    for (const auto& units : taken_) all += units.size();
    return all;
  }
  bool whole() const { return size() == engine_.unit_count(); }

  //! Units each stratum would hold after growing the sample to `total` units, spread as sqrt(N_h)
  //! (the allocation that minimises the variance per second spent when strata carry equal weight
  //! and a unit's spread grows with its cost): never fewer than now, never more than the stratum.
  std::vector<std::size_t> targets(double total) const {
    double roots = 0;
    for (const Stratum& stratum : strata_) roots += std::sqrt(static_cast<double>(stratum.ids.size()));
    std::vector<std::size_t> wanted(strata_.size());
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      const double units = static_cast<double>(strata_[h].ids.size());
      const auto share = static_cast<std::size_t>(std::ceil(total * std::sqrt(units) / roots));
      wanted[h] = std::clamp(share, std::min(taken(h) + 1, strata_[h].ids.size()), strata_[h].ids.size());
    }
    return wanted;
  }

  //! The ids that reaching `wanted` adds: each stratum's next units in its draw order.
  std::vector<std::size_t> additions(const std::vector<std::size_t>& wanted) const {
    std::vector<std::size_t> ids;
    for (std::size_t h = 0; h < strata_.size(); ++h)
      for (std::size_t i = taken(h); i < wanted[h]; ++i) ids.push_back(strata_[h].ids[i]);
    return ids;
  }

  //! The thread time those ids should take, by the current ratios.
  double predicted_seconds(const std::vector<std::size_t>& wanted) const {
    double seconds = 0;
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      const double r = ratio(stratum_sample(h, &TimedUnit::cpu_seconds));
      for (std::size_t i = taken(h); i < wanted[h]; ++i) seconds += r * unit_weight(engine_, strata_[h].ids[i]);
    }
    return seconds;
  }

  //! The weight of stratum h's next `count` units.
  double next_weight(std::size_t h, std::size_t count) const {
    double weight = 0;
    for (std::size_t i = taken(h); i < std::min(taken(h) + count, strata_[h].ids.size()); ++i)
      weight += unit_weight(engine_, strata_[h].ids[i]);
    return weight;
  }

  //! Stratum h's seconds per unit of weight so far.
  double stratum_ratio(std::size_t h) const { return ratio(stratum_sample(h, &TimedUnit::cpu_seconds)); }

  //! Counts the additions and files each under its stratum.
  void grow(UnitTimer& timer, const std::vector<std::size_t>& wanted) {
    const std::vector<std::size_t> ids = additions(wanted);
    std::vector<TimedUnit> timed = timer.count(ids);
    std::sort(timed.begin(), timed.end(), [](const TimedUnit& a, const TimedUnit& b) { return a.unit.id < b.unit.id; });
    for (std::size_t h = 0; h < strata_.size(); ++h)
      for (std::size_t i = taken(h); i < wanted[h]; ++i) taken_[h].push_back(find(timed, strata_[h].ids[i]));
  }

  //! The estimate by one of TimedUnit's clocks.
  Estimate estimate(double TimedUnit::*clock) const {
    std::vector<StratumSample> samples;
    for (std::size_t h = 0; h < strata_.size(); ++h) samples.push_back(stratum_sample(h, clock));
    return stratified_ratio_estimate(samples);
  }

  //! Every unit's thread time: measured where counted, r_h times its weight elsewhere; in the
  //! engine's costliest-first order.
  std::vector<double> unit_seconds() const {
    std::vector<double> seconds(engine_.unit_count());
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      const double r = ratio(stratum_sample(h, &TimedUnit::cpu_seconds));
      for (const std::size_t id : strata_[h].ids) seconds[id] = r * unit_weight(engine_, id);
      for (const TimedUnit& unit : taken_[h]) seconds[unit.unit.id] = unit.cpu_seconds;
    }
    std::vector<double> ordered;
    ordered.reserve(seconds.size());
    for (const std::size_t id : engine_.costliest_first()) ordered.push_back(seconds[id]);
    return ordered;
  }

  //! The journal's bytes: its header line, and per stratum the mean record line of its sample.
  std::uint64_t journal_bytes() const {
    double bytes = static_cast<double>(journal_header_line(engine_.header()).size());
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      double lines = 0;
      for (const TimedUnit& unit : taken_[h])
        lines += static_cast<double>(journal_record_line(engine_.header(), unit.unit).size());
      bytes += lines / static_cast<double>(taken(h)) * static_cast<double>(strata_[h].ids.size());
    }
    return static_cast<std::uint64_t>(std::llround(bytes));
  }

  //! Summed over the units counted, by one of TimedUnit's clocks.
  double counted_seconds(double TimedUnit::*clock) const {
    double seconds = 0;
    for (const auto& units : taken_)
      for (const TimedUnit& unit : units) seconds += unit.*clock;
    return seconds;
  }

 private:
  static const TimedUnit& find(const std::vector<TimedUnit>& timed, std::size_t id) {
    return *std::lower_bound(timed.begin(), timed.end(), id,
                             [](const TimedUnit& unit, std::size_t wanted) { return unit.unit.id < wanted; });
  }

  StratumSample stratum_sample(std::size_t h, double TimedUnit::*clock) const {
    StratumSample sample{strata_[h].ids.size(), strata_[h].cost, {}};
    for (const TimedUnit& unit : taken_[h]) sample.drawn.push_back({unit_weight(engine_, unit.unit.id), unit.*clock});
    return sample;
  }

  const Engine& engine_;
  std::vector<Stratum> strata_;
  std::vector<std::vector<TimedUnit>> taken_;  // per stratum, in draw order
};

// The wall time of counting on `workers`, from the sample's estimate of every unit.
double counting_seconds(const Sample& sample, std::size_t workers) {
  const std::vector<double> seconds = sample.unit_seconds();
  return list_schedule_makespan(seconds, workers);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

// What the first units of bands h, h - 1, ..., 0 (all the first round has left) would take on
// the sampling threads at `rate` seconds per unit of weight.
double first_units_seconds(const Sample& sample, std::size_t h, double rate, const PlanOptions& options) {
  double seconds = 0;
  for (std::size_t j = h + 1; j-- > 0;) {
    const std::size_t count = std::min(kFirstPerStratum, sample.strata()[j].ids.size());
    const double parallel =
        static_cast<double>(std::min<std::size_t>(count, static_cast<std::size_t>(sampling_threads(options))));
    seconds += rate * sample.next_weight(j, count) / parallel;
  }
  return seconds;
}

// The first units of every band, the cheapest band first, each band's predicted from the rate of
// the band below it (costlier units take less time per unit of cost, so the prediction errs
// long): a band whose first units would pass the budget is refused before it starts, rather
// than leaving the plan counting for hours at an N where one unit takes that long.
void first_round(Sample& sample, UnitTimer& timer, const PlanOptions& options,
                 std::chrono::steady_clock::time_point start) {
  const double budget = options.sample_seconds > 0 ? options.sample_seconds : kMostBudget;
  double below = 0;  // seconds per unit of weight in the band below
  for (std::size_t h = sample.strata().size(); h-- > 0;) {
    const std::size_t count = std::min(kFirstPerStratum, sample.strata()[h].ids.size());
    const double parallel =
        static_cast<double>(std::min<std::size_t>(count, static_cast<std::size_t>(sampling_threads(options))));
    const double predicted = below * sample.next_weight(h, count) / parallel;
    // The advice covers every band left, at the same rate: enough for the whole first round.
    if (const double spent = seconds_since(start); spent + predicted > budget) {
      // Nothing timed yet (the cheapest band): the setup alone took the budget, and the units
      // are not to blame ("its costliest units take about 0 s each").
      const std::string why = predicted <= 0 ? "setting up the sample took " + seconds_text(spent)
                                             : "its costliest units take about " +
                                                   seconds_text(predicted * parallel / static_cast<double>(count)) +
                                                   " each by the rate of its cheaper ones";
      throw std::invalid_argument(
          "N=" + std::to_string(sample.engine().n()) + " with the " + sample.engine().header().engine + " engine: " +
          why + ", more than a sampling budget of " + seconds_text(budget) + " allows; give the plan at least " +
          seconds_text(2 * (spent + first_units_seconds(sample, h, below, options))) +
          " (--sample-seconds); a count would hold about " +
          format_bytes(sample.engine().planned_memory_bytes(options.threads)) + " per process beside the program");
    }
    std::vector<std::size_t> wanted;
    for (std::size_t j = 0; j < sample.strata().size(); ++j) wanted.push_back(j == h ? count : sample.taken(j));
    sample.grow(timer, wanted);
    below = sample.stratum_ratio(h);
  }
}

// Grows the sample round by round until the bar is narrow, every unit is counted, or the next
// round would overrun the budget.
void sample_until_done(Sample& sample, UnitTimer& timer, const PlanOptions& options, std::size_t workers,
                       std::chrono::steady_clock::time_point start) {
  const double z = two_sided_z(options.confidence);
  first_round(sample, timer, options, start);
  while (!sample.whole()) {
    const Estimate thread = sample.estimate(&TimedUnit::cpu_seconds);
    if (z * thread.standard_error <= options.target_precision * thread.total) return;
    const double budget = options.sample_seconds > 0
                              ? options.sample_seconds
                              : std::clamp(kBudgetShare * counting_seconds(sample, workers), kLeastBudget, kMostBudget);
    const double left = budget - seconds_since(start);
    // On a busy machine a unit's wall time exceeds its CPU time, and preparing a unit comes on
    // top of its count: the sample so far says by how much.
    const double spent =
        sample.counted_seconds(&TimedUnit::wall_seconds) + sample.counted_seconds(&TimedUnit::prepare_seconds);
    const double waiting = std::max(1.0, spent / std::max(1e-9, sample.counted_seconds(&TimedUnit::cpu_seconds)));
    bool grown = false;
    for (const double growth : kGrowths) {
      const std::vector<std::size_t> wanted = sample.targets(growth * static_cast<double>(sample.size()));
      if (sample.predicted_seconds(wanted) * waiting / sampling_threads(options) > left) continue;
      sample.grow(timer, wanted);
      grown = true;
      break;
    }
    if (!grown) return;
  }
}

}  // namespace

RunPlan plan_run(const Engine& engine, const PlanOptions& options) {
  check(options);
  const auto start = std::chrono::steady_clock::now();
  const std::size_t workers = static_cast<std::size_t>(options.threads) * static_cast<std::size_t>(options.ranks);
  Sample sample(engine, make_strata(engine, options.strata));
  UnitTimer timer(engine, sampling_threads(options));
  sample_until_done(sample, timer, options, workers, start);

  RunPlan plan;
  plan.units = engine.unit_count();
  plan.strata = sample.strata().size();
  plan.sampled_units = sample.size();
  plan.confidence = options.confidence;
  plan.thread = sample.estimate(&TimedUnit::cpu_seconds);
  plan.journal_thread = sample.estimate(&TimedUnit::wall_seconds);
  const double z = two_sided_z(options.confidence);
  plan.half_width = z * stated_standard_error(plan.thread, options.repeatability);
  plan.journal_half_width = z * stated_standard_error(plan.journal_thread, options.repeatability);
  plan.sampled_share = plan.thread.total > 0 ? sample.counted_seconds(&TimedUnit::cpu_seconds) / plan.thread.total : 1;
  const std::vector<double> seconds = sample.unit_seconds();
  plan.largest_unit_seconds = seconds.empty() ? 0 : *std::max_element(seconds.begin(), seconds.end());
  plan.counting_seconds = list_schedule_makespan(seconds, workers);
  plan.efficiency =
      plan.counting_seconds > 0 ? plan.thread.total / (static_cast<double>(workers) * plan.counting_seconds) : 1;
  plan.counting_memory_bytes = engine.planned_memory_bytes(options.threads);
  plan.journal_bytes = sample.journal_bytes();
  plan.sample_seconds = seconds_since(start);
  return plan;
}

}  // namespace nqueens::plan
