#include "plan/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "nqueens/files/journal.hpp"
#include "plan/makespan.hpp"
#include "plan/strata.hpp"
#include "plan/unit_timer.hpp"
#include "system/machine_load.hpp"

namespace nqueens::plan {

namespace {

// The automatic budget: 2 % of the predicted wall time, within these bounds.
constexpr double kBudgetShare = 0.02;
// At least 3 s: what the first units pay once (the threads' key buffers growing to their size,
// their pages first touched) weighs on a short sample, and each sampled unit stands for many.
// A 1 s sample put N = 20 25 % high; 3 s, within 10 % (docs/performance.md, "Planning a run").
constexpr double kLeastBudget = 3;
constexpr double kMostBudget = 60;
// A run the engine's cost model prices past a day may sample longer: kLongRunBudgetShare of its
// predicted wall time, up to kMostLongRunBudget. At the frontier one unit of the costliest bands
// takes seconds to minutes, and a minute's sample times the cheap bands only (N = 26: 3 of 16),
// leaving most of the run to a rate carried from them; a quarter of an hour times them all, a
// small price beside a run of months.
constexpr double kLongRunSeconds = 24 * 3600;
constexpr double kLongRunBudgetShare = 0.0005;
constexpr double kMostLongRunBudget = 900;
// Every stratum starts with this many units counted: the fewest that show a spread.
constexpr std::size_t kFirstPerStratum = 2;
// A unit timed in parts is timed on at least this many: the fewest that show their spread.
constexpr std::size_t kLeastParts = 2;
// How much a round may grow the sample, largest first: a round that would overrun the budget
// is tried smaller before sampling stops.
constexpr double kGrowths[] = {4, 2, 1.5, 1.25};
// The least error of a rate carried to an untimed band, as a log, and per band carried where
// fewer than three bands were timed: a factor of 1.1, the steepest trend of the rate across the
// bands of whole plans of the join (N = 20: 4.3 times from the cheapest band to the costliest,
// 1.10 a band; N = 24: 1.4 times, 1.02 a band; docs/performance.md, "Planning a run").
constexpr double kLeastRateStep = 0.09531017980432493;  // ln 1.1
// The pilot (Sample::fly_pilot) climbs the cheapest band's units by this factor of weight a step,
// and spends at most this share of the budget: the rest is for the sample proper.
constexpr double kPilotClimb = 4;
constexpr double kPilotShare = 0.4;
// The heaviest pilot units whose trend stands for the strata where none is timed: the lighter
// ones' time is mostly what every unit pays whatever its size, which says nothing of the bands.
constexpr std::size_t kPilotFit = 4;
// The relative sampling error assumed of bands that a plan could not time at all, when it advises
// the budget that would time them: about what two units a band gave at N = 24 (0.10).
constexpr double kAssumedSamplingError = 0.1;
// The share of a unit's time its shared parts take (the join's enumeration and matcher's
// choices for its shares), assumed until a unit timed in parts has measured it: 0.28 to 0.31 of
// N = 22's 4 costliest units, 0.13 to 0.16 of N = 24's (bench/join_bench --share-times N S 4).
// Above both, so that the first band timed in parts keeps within the budget.
constexpr double kAssumedSharedShare = 0.35;

void check(const PlanOptions& options) {
  if (options.threads < 1) throw std::invalid_argument("a plan needs at least 1 thread");
  if (options.ranks < 1) throw std::invalid_argument("a plan needs at least 1 rank");
  if (options.sample_seconds < 0) throw std::invalid_argument("the sampling budget cannot be negative");
  if (options.repeatability < 0) throw std::invalid_argument("the repeatability cannot be negative");
  two_sided_z(options.confidence);  // throws outside (0, 1)
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What the sampling has spent of its budget: this process's CPU time since the plan began, per
// sampling thread. Not the wall clock: on a machine that other jobs load, the wall clock runs
// ahead of the work, and a plan timed the cheaper bands only (N = 25 at a load of 7: 8 of 16),
// carrying a rate to the costliest units; the same budget now times the same units, busy
// machine or not, and takes longer by the wall clock.
class SamplingClock {
 public:
  explicit SamplingClock(int threads) : threads_(std::max(threads, 1)), start_(process_cpu_seconds()) {}
  double spent() const { return (process_cpu_seconds() - start_) / threads_; }

 private:
  double threads_;
  double start_;
};

// How a stratum's next units are predicted where no stratum is timed yet, only the pilot's light
// units: `cautious` for whole units, whose count passes the budget by all it misjudges, as the
// pilot's next step (time growing faster than weight); `level` for parts, each band's share of the
// budget bounding what a misjudgement costs, at the pilot's measured level.
enum class Guess { cautious, level };

// The units counted so far, by stratum, and the estimates they give. A stratum with none
// counted (extrapolated) takes a rate carried from those with some (their trend, carried_rate),
// or from the pilot where none has: the first round times the cheapest stratum first and stops
// at the first one it cannot afford, so the strata not timed are the costliest ones,
// 0 .. untimed() - 1.
class Sample {
 public:
  Sample(const Engine& engine, std::vector<Stratum> strata) : engine_(engine), strata_(std::move(strata)) {
    taken_.resize(strata_.size());
    spread_.resize(strata_.size());
    in_parts_.resize(strata_.size());
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

  //! Times the cheapest band's lightest unit, then heavier ones, each about kPilotClimb times the
  //! last one's weight, while the last one's time says the next fits in `budget` and until they
  //! weigh as much as the band's mean unit; a later call climbs on from there. Not a random
  //! sample, so never part of the estimate: it predicts what the first round's units will take,
  //! and where not even the cheapest band's first units fit, it is all the plan has.
  void fly_pilot(UnitTimer& timer, double budget, const SamplingClock& spending) {
    if (pilot_order_.empty()) {
      pilot_order_ = strata_.back().ids;
      std::sort(pilot_order_.begin(), pilot_order_.end(),
                [this](std::size_t a, std::size_t b) { return unit_weight(engine_, a) < unit_weight(engine_, b); });
      // The lightest unit is counted twice and its second timing kept: the first pays for what
      // every later unit finds ready (the threads' buffers, their first touch of the tables).
      timer.count(std::span<const std::size_t>(&pilot_order_.front(), 1));
    }
    const double mean = strata_.back().cost / static_cast<double>(pilot_order_.size());
    while (pilot_next_ < pilot_order_.size()) {
      const std::size_t id = pilot_order_[pilot_next_];
      const double weight = unit_weight(engine_, id);
      if (!pilots_.empty() && spending.spent() + pilot_step_seconds(weight) > budget) break;
      pilots_.push_back(timer.count(std::span<const std::size_t>(&id, 1)).front());
      const auto heavier = std::lower_bound(
          pilot_order_.begin() + static_cast<std::ptrdiff_t>(pilot_next_) + 1, pilot_order_.end(), kPilotClimb * weight,
          [this](std::size_t unit, double wanted) { return unit_weight(engine_, unit) < wanted; });
      pilot_next_ = weight >= mean ? pilot_order_.size() : static_cast<std::size_t>(heavier - pilot_order_.begin());
    }
    pilot_position_ = pilot_position();
  }

  //! The pilot units timed, lightest first.
  const std::vector<TimedUnit>& pilots() const { return pilots_; }

  //! Strata 0 .. untimed() - 1 are left untimed: estimated, never sampled.
  std::size_t untimed() const { return untimed_; }
  void leave_untimed(std::size_t strata) { untimed_ = strata; }

  //! Whether stratum h's units were timed in parts (take_in_parts): it grows no further.
  bool in_parts(std::size_t h) const { return in_parts_[h]; }
  //! Units timed part by part, and the parts timed of them.
  std::size_t units_in_parts() const {
    std::size_t units = 0;
    for (const auto& band : spread_)
      for (const UnitSpread& unit : band) units += unit.parts_timed > 0 ? 1 : 0;
    return units;
  }
  std::size_t parts_timed() const {
    std::size_t parts = 0;
    for (const auto& band : spread_)
      for (const UnitSpread& unit : band) parts += unit.parts_timed;
    return parts;
  }

  //! The share of a unit's thread time that its shared parts take, by the units timed in parts
  //! that have any; kAssumedSharedShare before one has been.
  double shared_share() const {
    double shared = 0, whole = 0;
    for (std::size_t h = 0; h < strata_.size(); ++h)
      for (std::size_t i = 0; i < taken(h); ++i)
        if (spread_[h][i].shared_cpu > 0) {
          shared += spread_[h][i].shared_cpu;
          whole += taken_[h][i].cpu_seconds;
        }
    return whole > 0 ? std::min(1.0, shared / whole) : kAssumedSharedShare;
  }

  //! Times stratum h's next units, unit i on `parts[i]` of its parts drawn at random (drawn_parts),
  //! and files each under h with its time estimated from them (unit_from_parts), by each clock.
  void take_in_parts(UnitTimer& timer, std::size_t h, const std::vector<std::size_t>& parts) {
    const std::size_t first = taken(h);
    std::vector<UnitPart> drawn;
    for (std::size_t i = 0; i < parts.size(); ++i)
      for (const std::size_t part : drawn_parts(engine_, strata_[h].ids[first + i], parts[i]))
        drawn.push_back({strata_[h].ids[first + i], part});
    const std::vector<TimedPart> timed = timer.count_parts(drawn);
    for (std::size_t i = 0, next = 0; i < parts.size(); ++i) {
      const std::size_t id = strata_[h].ids[first + i];
      std::vector<double> cpu, wall;
      double prepare = 0, shared_cpu = 0, shared_wall = 0;
      for (; next < timed.size() && timed[next].part.id == id; ++next) {
        prepare += timed[next].prepare_seconds;
        if (engine_.part_is_shared(id, timed[next].part.part)) {
          shared_cpu += timed[next].cpu_seconds;
          shared_wall += timed[next].wall_seconds;
          continue;
        }
        cpu.push_back(timed[next].cpu_seconds);
        wall.push_back(timed[next].wall_seconds);
      }
      const double weight = unit_weight(engine_, id);
      const std::size_t all = drawable_parts(engine_, id);
      const Drawn by_cpu = unit_from_parts(weight, all, cpu, shared_cpu),
                  by_wall = unit_from_parts(weight, all, wall, shared_wall);
      const double scale = static_cast<double>(all) / static_cast<double>(cpu.size());
      taken_[h].push_back({{id, Tally{}, 0}, by_cpu.seconds, by_wall.seconds, prepare * scale});
      double counted = shared_cpu;
      for (const double seconds : cpu) counted += seconds;
      spread_[h].push_back({by_cpu.variance, by_wall.variance, counted, cpu.size(), shared_cpu});
    }
    in_parts_[h] = true;
  }

  //! Units each stratum would hold after growing the sample to `total` units, spread as sqrt(N_h)
  //! (the allocation that minimises the variance per second spent when strata carry equal weight
  //! and a unit's spread grows with its cost): never fewer than now, never more than the stratum;
  //! none in an untimed stratum.
  std::vector<std::size_t> targets(double total) const {
    double roots = 0;
    for (const Stratum& stratum : strata_) roots += std::sqrt(static_cast<double>(stratum.ids.size()));
    std::vector<std::size_t> wanted(strata_.size());
    for (std::size_t h = untimed_; h < strata_.size(); ++h) {
      if (in_parts_[h]) {  // a unit of such a band is beyond a round: it keeps its first units
        wanted[h] = taken(h);
        continue;
      }
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

  //! The wall time, preparation included, that the additions for `wanted` should take on one
  //! thread, at each stratum's own rate so far.
  double predicted_seconds(const std::vector<std::size_t>& wanted) const {
    double seconds = 0;
    for (std::size_t h = 0; h < strata_.size(); ++h)
      if (wanted[h] > taken(h)) seconds += spend_rate(h) * next_weight(h, wanted[h] - taken(h));
    return seconds;
  }

  //! The weight of stratum h's next `count` units.
  double next_weight(std::size_t h, std::size_t count) const {
    double weight = 0;
    for (std::size_t i = taken(h); i < std::min(taken(h) + count, strata_[h].ids.size()); ++i)
      weight += unit_weight(engine_, strata_[h].ids[i]);
    return weight;
  }

  //! The nearest stratum from h towards the cheaper end with units counted (h itself if it has):
  //! whose rates stand for h's.
  std::size_t rate_source(std::size_t h) const {
    std::size_t j = h;
    while (j + 1 < strata_.size() && taken(j) == 0) ++j;
    return j;
  }

  //! Stratum h's seconds per unit of weight by one of TimedUnit's clocks: its own sample's, or
  //! where untimed, the timed strata's carried to it.
  CarriedRate rate(std::size_t h, double TimedUnit::*clock) const {
    if (h >= untimed_) return {ratio(stratum_sample(h, clock)), 0};
    std::vector<double> positions, rates;
    for (std::size_t j = untimed_; j < strata_.size(); ++j) {
      const double r = ratio(stratum_sample(j, clock));
      if (r <= 0) continue;  // a stratum timed at 0 s has no logarithm, and says nothing of a trend
      positions.push_back(static_cast<double>(j));
      rates.push_back(r);
    }
    if (positions.empty()) return pilot_rate(h, clock);
    if (positions.size() >= 2 && engine_.costs_predict_time()) return level_rate(rates, kLeastRateStep);
    if (positions.size() >= 3 && priced_alike(strata_)) return level_rate(rates, kLeastRateStep);
    return carried_rate(positions, rates, static_cast<double>(h), kLeastRateStep);
  }

  //! Where no stratum is timed: from three pilot units on, their rates' trend against the log of
  //! their weight (a power law of time in weight), carried to stratum h's mean unit weight, from
  //! the heaviest kPilotFit of them, the nearest the strata; with fewer, the heaviest pilot's
  //! rate, placed among the strata by its weight (pilot_position).
  CarriedRate pilot_rate(std::size_t h, double TimedUnit::*clock) const {
    std::vector<double> logs, rates;
    for (std::size_t i = pilots_.size(); i-- > 0 && logs.size() < kPilotFit;) {
      if (!(pilots_[i].*clock > 0)) continue;
      const double weight = unit_weight(engine_, pilots_[i].unit.id);
      logs.push_back(std::log(weight));
      rates.push_back(pilots_[i].*clock / weight);
    }
    if (logs.empty()) return {0, 0};
    if (logs.size() < 3)
      return carried_rate({&pilot_position_, 1}, {&rates.front(), 1}, static_cast<double>(h), kLeastRateStep);
    const double mean = strata_[h].cost / static_cast<double>(strata_[h].ids.size());
    return carried_rate(logs, rates, std::log(mean), kLeastRateStep);
  }

  //! What stratum h's next `count` units should take on one thread, preparation included: at
  //! the spend rate of a timed stratum, or from the pilot as `guess` says (Guess).
  double next_units_seconds(std::size_t h, std::size_t count, Guess guess) const {
    if (taken(rate_source(h)) > 0) return spend_rate(h) * next_weight(h, count);
    double seconds = 0;
    for (std::size_t i = taken(h); i < std::min(taken(h) + count, strata_[h].ids.size()); ++i) {
      const double weight = unit_weight(engine_, strata_[h].ids[i]);
      seconds += guess == Guess::cautious ? pilot_step_seconds(weight) : pilot_level_seconds(weight);
    }
    return seconds;
  }

  //! Wall seconds per unit of weight that sampling stratum h costs, its preparation included: by
  //! its rate source, or the pilot where no stratum is timed.
  double spend_rate(std::size_t h) const {
    const std::size_t j = rate_source(h);
    if (taken(j) == 0) return pilot_spend_rate();
    double seconds = 0, weight = 0;
    for (const TimedUnit& unit : taken_[j]) {
      seconds += unit.cpu_seconds + unit.prepare_seconds;
      weight += unit_weight(engine_, unit.unit.id);
    }
    return weight > 0 ? seconds / weight : 0;
  }

  //! Counts the additions and files each under its stratum.
  void grow(UnitTimer& timer, const std::vector<std::size_t>& wanted) {
    const std::vector<std::size_t> ids = additions(wanted);
    std::vector<TimedUnit> timed = timer.count(ids);
    std::sort(timed.begin(), timed.end(), [](const TimedUnit& a, const TimedUnit& b) { return a.unit.id < b.unit.id; });
    for (std::size_t h = 0; h < strata_.size(); ++h)
      for (std::size_t i = taken(h); i < wanted[h]; ++i) {
        taken_[h].push_back(find(timed, strata_[h].ids[i]));
        spread_[h].push_back({0, 0, taken_[h].back().cpu_seconds, 0});
      }
  }

  //! The timed strata's estimate by one of TimedUnit's clocks: the stratified ratio estimate.
  Estimate timed_estimate(double TimedUnit::*clock) const {
    std::vector<StratumSample> samples;
    for (std::size_t h = untimed_; h < strata_.size(); ++h) samples.push_back(stratum_sample(h, clock));
    return stratified_ratio_estimate(samples);
  }

  //! The untimed strata's estimate: each at the rate carried to it, with that rate's error. The
  //! errors add up rather than in quadrature: one trend carried too far moves them all alike.
  Estimate untimed_estimate(double TimedUnit::*clock) const {
    Estimate estimate;
    for (std::size_t h = 0; h < untimed_; ++h) {
      const CarriedRate carried = rate(h, clock);
      estimate.total += carried.rate * strata_[h].cost;
      estimate.standard_error += carried.rate * strata_[h].cost * carried.relative_error;
    }
    return estimate;
  }

  //! Both together.
  Estimate estimate(double TimedUnit::*clock) const {
    const Estimate timed = timed_estimate(clock), untimed = untimed_estimate(clock);
    return {timed.total + untimed.total, std::hypot(timed.standard_error, untimed.standard_error)};
  }

  //! The thread time of some of the units (RunPlan::part_thread): every unit at its stratum's
  //! rate, measured or not, so that it is a prediction of what counting them takes.
  Estimate part_estimate(std::span<const std::size_t> ids) const {
    std::vector<std::size_t> stratum_of(engine_.unit_count());
    for (std::size_t h = 0; h < strata_.size(); ++h)
      for (const std::size_t id : strata_[h].ids) stratum_of[id] = h;
    std::vector<double> weight(strata_.size()), squares(strata_.size());
    for (const std::size_t id : ids) {
      const double x = unit_weight(engine_, id);
      weight[stratum_of[id]] += x;
      squares[stratum_of[id]] += x * x;
    }
    Estimate part;
    double variance = 0, carried_error = 0;
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      if (weight[h] == 0) continue;
      const CarriedRate r = rate(h, &TimedUnit::cpu_seconds);
      part.total += r.rate * weight[h];
      if (h < untimed_) {
        // As untimed_estimate: one trend carried too far moves every untimed band alike.
        carried_error += r.rate * weight[h] * r.relative_error;
        continue;
      }
      const StratumSample sample = stratum_sample(h, &TimedUnit::cpu_seconds);
      if (sample.drawn.size() < 2) continue;  // a band of one unit, counted: no spread to carry
      const Estimate band = stratum_estimate(sample);
      const double relative = band.total > 0 ? band.standard_error / band.total : 0;
      variance += std::pow(relative * r.rate * weight[h], 2);
      double scatter = 0;  // the units' rates about the band's, relative: (y/x) / r - 1
      for (const Drawn& unit : sample.drawn)
        if (unit.weight > 0 && r.rate > 0) scatter += std::pow(unit.seconds / unit.weight / r.rate - 1, 2);
      scatter /= static_cast<double>(sample.drawn.size() - 1);
      variance += scatter * r.rate * r.rate * squares[h];
    }
    part.standard_error = std::hypot(std::sqrt(variance), carried_error);
    return part;
  }

  //! Every unit's thread time: measured where counted, its stratum's rate times its weight
  //! elsewhere; in the engine's costliest-first order.
  std::vector<double> unit_seconds() const {
    std::vector<double> seconds(engine_.unit_count());
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      const double r = rate(h, &TimedUnit::cpu_seconds).rate;
      for (const std::size_t id : strata_[h].ids) seconds[id] = r * unit_weight(engine_, id);
      for (const TimedUnit& unit : taken_[h]) seconds[unit.unit.id] = unit.cpu_seconds;
    }
    std::vector<double> ordered;
    ordered.reserve(seconds.size());
    for (const std::size_t id : engine_.costliest_first()) ordered.push_back(seconds[id]);
    return ordered;
  }

  //! The journal's bytes: its header line, and per stratum the mean record line of its sample
  //! (of its rate source's, where untimed).
  std::uint64_t journal_bytes() const {
    double bytes = static_cast<double>(journal_header_line(engine_.header()).size());
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      const std::size_t j = rate_source(h);
      // A unit timed in parts has no counts of its own to write: the units timed whole stand for it.
      double lines = 0, whole = 0;
      for (std::size_t i = 0; i < taken(j); ++i) {
        if (spread_[j][i].parts_timed > 0) continue;
        lines += static_cast<double>(journal_record_line(engine_.header(), taken_[j][i].unit).size());
        whole += 1;
      }
      const double line = whole > 0
                              ? lines / whole
                              : static_cast<double>(journal_record_line(engine_.header(), pilots_.back().unit).size());
      bytes += line * static_cast<double>(strata_[h].ids.size());
    }
    return static_cast<std::uint64_t>(std::llround(bytes));
  }

  //! The thread time of what was counted: every unit timed whole, and the parts timed of others.
  double counted_seconds() const {
    double seconds = 0;
    for (const auto& units : spread_)
      for (const UnitSpread& unit : units) seconds += unit.counted_cpu;
    return seconds;
  }

  //! What each stratum measured and was estimated at.
  std::vector<BandPlan> bands() const {
    std::vector<BandPlan> bands;
    for (std::size_t h = 0; h < strata_.size(); ++h) {
      BandPlan band{strata_[h].ids.size(), taken(h), strata_[h].cost, 0, 0, 0, 0, h < untimed_};
      if (band.extrapolated) {
        const CarriedRate carried = rate(h, &TimedUnit::cpu_seconds);
        band.thread_seconds = carried.rate * strata_[h].cost;
        band.standard_error = band.thread_seconds * carried.relative_error;
      } else {
        const Estimate part = stratum_estimate(stratum_sample(h, &TimedUnit::cpu_seconds));
        band.thread_seconds = part.total;
        band.standard_error = part.standard_error;
      }
      for (std::size_t i = 0; i < taken(h); ++i) {
        band.prepare_seconds += taken_[h][i].prepare_seconds;
        band.counted_seconds += spread_[h][i].counted_cpu;
        band.parts_timed += spread_[h][i].parts_timed;
      }
      bands.push_back(band);
    }
    return bands;
  }

 private:
  static const TimedUnit& find(const std::vector<TimedUnit>& timed, std::size_t id) {
    return *std::lower_bound(timed.begin(), timed.end(), id,
                             [](const TimedUnit& unit, std::size_t wanted) { return unit.unit.id < wanted; });
  }

  StratumSample stratum_sample(std::size_t h, double TimedUnit::*clock) const {
    StratumSample sample{strata_[h].ids.size(), strata_[h].cost, {}};
    for (std::size_t i = 0; i < taken(h); ++i) {
      const TimedUnit& unit = taken_[h][i];
      const double variance =
          clock == &TimedUnit::wall_seconds ? spread_[h][i].wall_variance : spread_[h][i].cpu_variance;
      sample.drawn.push_back({unit_weight(engine_, unit.unit.id), unit.*clock, variance});
    }
    return sample;
  }

  // What the next pilot unit, of `weight`, may take: the last one's time times their weights'
  // ratio to the power 1.5. Time grows faster than the cost model's weight from one pilot unit to
  // the next (N = 26: 3.7 s for 1.4e14, 45 s for 5.7e14, which a linear prediction put at 16 s),
  // and a pilot that passes its budget costs the whole plan its budget; the square would stop
  // the pilot at the first gap in the light units' weights (N = 28: from 1.3e11 to 3.8e12).
  double pilot_step_seconds(double weight) const {
    const TimedUnit& last = pilots_.back();
    return (last.cpu_seconds + last.prepare_seconds) * std::pow(weight / unit_weight(engine_, last.unit.id), 1.5);
  }

  // What a unit of `weight` takes at the pilot's measured level: the heaviest pilot's
  // preparation, which does not grow with the weight, and its thread time per unit of weight,
  // carried by the cost model's weights. A level, as the timed bands' rates are carried where the
  // weights predict time; the power law of pilot_step_seconds, carried across the decades of weight
  // from the pilot's light units to a band's, put the least parts of N = 27's and 28's cheapest
  // band past any budget, and no band was timed.
  double pilot_level_seconds(double weight) const {
    const TimedUnit& last = pilots_.back();
    return last.prepare_seconds + last.cpu_seconds * weight / unit_weight(engine_, last.unit.id);
  }

  double pilot_spend_rate() const {
    return (pilots_.back().cpu_seconds + pilots_.back().prepare_seconds) / unit_weight(engine_, pilots_.back().unit.id);
  }

  // Where the pilot would lie among the strata, by its weight: the mean unit weight falls from
  // stratum to stratum by about the same factor, and a pilot lighter than the cheapest stratum's
  // mean lies as many strata beyond it as that factor takes to reach its weight; never nearer
  // than one beyond, as it is no random unit of that stratum.
  double pilot_position() const {
    const double last = static_cast<double>(strata_.size() - 1);
    const auto mean = [this](std::size_t h) { return strata_[h].cost / static_cast<double>(strata_[h].ids.size()); };
    const double fall = last > 0 ? std::log(mean(0) / mean(strata_.size() - 1)) / last : 0;
    const double beyond =
        fall > 0 ? std::log(mean(strata_.size() - 1) / unit_weight(engine_, pilots_.back().unit.id)) / fall : 0;
    return last + std::max(1.0, beyond);
  }

  // What a taken unit's times rest on: for one timed in parts, the variance of its estimated
  // times by each clock, the thread time of the parts counted, and how many (0: timed whole).
  struct UnitSpread {
    double cpu_variance = 0;
    double wall_variance = 0;
    double counted_cpu = 0;
    std::size_t parts_timed = 0;
    double shared_cpu = 0;  // of its shared parts (Engine::part_is_shared), timed whole
  };

  const Engine& engine_;
  std::vector<Stratum> strata_;
  std::vector<std::vector<TimedUnit>> taken_;    // per stratum, in draw order
  std::vector<std::vector<UnitSpread>> spread_;  // alongside taken_
  std::vector<bool> in_parts_;                   // per stratum: timed in parts (take_in_parts)
  std::size_t untimed_ = 0;
  std::vector<TimedUnit> pilots_;         // fly_pilot's, lightest first
  std::vector<std::size_t> pilot_order_;  // the cheapest stratum's ids, lightest first
  std::size_t pilot_next_ = 0;            // the next pilot's place in pilot_order_
  double pilot_position_ = 0;
};

// The wall time of counting on `workers`, from the sample's estimate of every unit.
double counting_seconds(const Sample& sample, std::size_t workers) {
  const std::vector<double> seconds = sample.unit_seconds();
  return list_schedule_makespan(seconds, workers);
}

// What stratum h's first units would take, prepared and counted on the sampling threads, at
// the spend rate of its rate source: the cheaper stratum's seconds per unit of weight, which
// errs long, costlier units taking less per unit of weight; or where none is timed, by the
// pilot, as its next step would be (N = 26: two units of the cheapest band took 90 s on a busy
// machine where the pilot's rate said under 50 s).
double first_units_seconds(const Sample& sample, std::size_t h, const PlanOptions& options, Guess guess) {
  const std::size_t count = std::min(kFirstPerStratum, sample.strata()[h].ids.size());
  const double parallel =
      static_cast<double>(std::min<std::size_t>(count, static_cast<std::size_t>(sampling_threads(options))));
  return sample.next_units_seconds(h, count, guess) / parallel;
}

// Bands h .. 0, whose first units whole would pass the budget, cheapest first: each band's first
// units timed on a random share of their drawable parts, that share what the budget left, split
// evenly over the bands left, affords, and at least kLeastParts parts a unit; exact parts, so
// that no rate is carried from a cheaper band. What a band's units take is predicted from the
// band below it, timed, or for the first band where none is, at the pilot's level
// (Guess::level): a misjudgement costs at most about that band's share of the budget. A unit's
// shared parts are timed whole whatever the share (Sample::take_in_parts), so they are paid
// first: the share is of the rest (Sample::shared_share). A band even whose least share would
// pass the budget (a unit of one part cannot be split) is left untimed, with every costlier one.
void time_in_parts(Sample& sample, UnitTimer& timer, const PlanOptions& options, double budget,
                   const SamplingClock& spending, std::size_t h) {
  const Engine& engine = sample.engine();
  for (std::size_t j = h + 1; j-- > 0;) {
    const Stratum& band = sample.strata()[j];
    const std::size_t first = std::min(kFirstPerStratum, band.ids.size());
    const double whole = first_units_seconds(sample, j, options, Guess::level);
    std::vector<std::size_t> drawable;  // of each first unit: its parts less its shared ones
    bool any_shared = false;
    for (std::size_t i = 0; i < first; ++i) {
      drawable.push_back(drawable_parts(engine, band.ids[i]));
      any_shared = any_shared || drawable.back() < engine.part_count(band.ids[i]);
    }
    const double shared = any_shared ? sample.shared_share() : 0;
    const double wanted =
        affordable_share(std::max(0.0, budget - spending.spent()) / static_cast<double>(j + 1), whole, shared);
    std::vector<std::size_t> parts;
    double most = 0;  // the largest share of a unit's drawable parts timed
    for (const std::size_t all : drawable) {
      const auto affordable = static_cast<std::size_t>(wanted * static_cast<double>(all));
      parts.push_back(std::min(all, std::max(kLeastParts, affordable)));
      most = std::max(most, static_cast<double>(parts.back()) / static_cast<double>(all));
    }
    if (spending.spent() + seconds_in_parts(whole, shared, most) > budget) {
      sample.leave_untimed(j + 1);
      return;
    }
    sample.take_in_parts(timer, j, parts);
  }
}

// The first units of every band, the cheapest band first, each band's predicted, preparation
// included, from what the band below it took (the cheapest band's from the pilot). A band that
// would pass the budget is timed in parts (time_in_parts), or where even they would, left untimed
// with every costlier one: at an N where one unit takes an hour the plan answers in its budget,
// from what it could time, rather than count for hours.
void first_round(Sample& sample, UnitTimer& timer, const PlanOptions& options, double most_budget,
                 const SamplingClock& spending) {
  const double budget = options.sample_seconds > 0 ? options.sample_seconds : most_budget;
  sample.fly_pilot(timer, kPilotShare * budget, spending);
  for (std::size_t h = sample.strata().size(); h-- > 0;) {
    if (spending.spent() + first_units_seconds(sample, h, options, Guess::cautious) > budget) {
      time_in_parts(sample, timer, options, budget, spending, h);
      return;
    }
    std::vector<std::size_t> wanted;
    for (std::size_t j = 0; j < sample.strata().size(); ++j)
      wanted.push_back(j == h ? std::min(kFirstPerStratum, sample.strata()[j].ids.size()) : sample.taken(j));
    sample.grow(timer, wanted);
  }
}

// The automatic budget: kBudgetShare of the counting's predicted wall time, within its bounds.
double automatic_budget(double counting_seconds, double most_budget) {
  return std::clamp(kBudgetShare * counting_seconds, kLeastBudget, most_budget);
}

// The automatic budget's bound: kMostBudget, or for a run the cost model prices past a day on
// `workers`, its share of that run, up to kMostLongRunBudget.
double most_budget(const Engine& engine, std::size_t workers) {
  if (!engine.costs_predict_time()) return kMostBudget;
  double seconds = 0;
  for (std::size_t id = 0; id < engine.unit_count(); ++id) seconds += 1e-9 * static_cast<double>(engine.cost(id));
  const double wall = seconds / static_cast<double>(std::max<std::size_t>(workers, 1));
  if (wall <= kLongRunSeconds) return kMostBudget;
  return std::clamp(kLongRunBudgetShare * wall, kMostBudget, kMostLongRunBudget);
}

// Grows the sample round by round until the bar is narrow, every unit is counted, or the next
// round would overrun the budget.
void sample_until_done(Sample& sample, UnitTimer& timer, const PlanOptions& options, std::size_t workers,
                       double most_budget, const SamplingClock& spending) {
  const double z = two_sided_z(options.confidence);
  first_round(sample, timer, options, most_budget, spending);
  while (!sample.whole()) {
    const Estimate thread = sample.estimate(&TimedUnit::cpu_seconds);
    if (z * thread.standard_error <= options.target_precision * thread.total) return;
    const double budget = options.sample_seconds > 0 ? options.sample_seconds
                                                     : automatic_budget(counting_seconds(sample, workers), most_budget);
    const double left = budget - spending.spent();
    bool grown = false;
    for (const double growth : kGrowths) {
      const std::vector<std::size_t> wanted = sample.targets(growth * static_cast<double>(sample.size()));
      if (sample.additions(wanted).empty()) return;  // every timed band counted whole
      if (sample.predicted_seconds(wanted) / sampling_threads(options) > left) continue;
      sample.grow(timer, wanted);
      grown = true;
      break;
    }
    if (!grown) return;
  }
}

// Rounded up to two significant digits: the budget a user would type.
double round_up_two_digits(double seconds) {
  if (seconds <= 0) return 0;
  const double unit = std::pow(10.0, std::floor(std::log10(seconds)) - 1);
  return std::ceil(seconds / unit - 1e-9) * unit;
}

// A sampling budget that would narrow the bar, and the bar it would narrow to. With untimed
// bands: what timing their first units would take on top of the time spent, after which their
// error is a sampling error like the timed bands' (at their relative error). Otherwise: the
// sampling error falls as the square root of the units counted, so (sampling error /
// repeatability)^2 times the time spent brings it down to the repeatability, which no sample
// narrows. No advice where that would not narrow the bar by a fifth.
void advise(const Sample& sample, const PlanOptions& options, double spent, RunPlan& plan) {
  const double z = two_sided_z(options.confidence);
  const Estimate timed = sample.timed_estimate(&TimedUnit::cpu_seconds);
  const Estimate untimed = sample.untimed_estimate(&TimedUnit::cpu_seconds);
  const double floor = options.repeatability * plan.thread.total;
  double seconds = 0, error = 0;
  if (sample.untimed() > 0) {
    seconds = spent;
    for (std::size_t h = 0; h < sample.untimed(); ++h) seconds += first_units_seconds(sample, h, options, Guess::level);
    const double relative = timed.total > 0 ? timed.standard_error / timed.total : kAssumedSamplingError;
    error = std::hypot(timed.standard_error, relative * untimed.total, floor);
  } else if (timed.standard_error > floor && floor > 0) {
    seconds = spent * std::pow(timed.standard_error / floor, 2);
    error = std::hypot(floor, floor);
  }
  if (z * error > 0.8 * plan.half_width) return;
  plan.advised_sample_seconds = round_up_two_digits(seconds);
  plan.advised_half_width = z * error;
}

}  // namespace

double slowdown_at_load(int threads, double busy_cores, int cpus) {
  cpus = std::max(cpus, 1);
  return std::max(1.0, (std::min(threads, cpus) + busy_cores) / cpus);
}

double counting_error_seconds(const RunPlan& plan) {
  const double relative = plan.thread.total > 0 ? plan.half_width / plan.thread.total : 0;
  const double busy = plan.busy_factor > kBusyFactor ? plan.busy_factor - 1 : 0;
  return plan.counting_seconds * (relative + busy);
}

int sampling_threads(const PlanOptions& options) { return std::min(options.threads, hardware_threads()); }

RunPlan plan_run(const Engine& engine, const PlanOptions& options) {
  check(options);
  RunArena arena(sampling_threads(options));
  return plan_run(engine, options, arena);
}

RunPlan plan_run(const Engine& engine, const PlanOptions& options, RunArena& arena) {
  check(options);
  const auto start = std::chrono::steady_clock::now();
  const SamplingClock spending(sampling_threads(options));
  const std::optional<CpuClocks> clocks_before = read_cpu_clocks();
  const std::size_t workers = static_cast<std::size_t>(options.threads) * static_cast<std::size_t>(options.ranks);
  Sample sample(engine, make_strata(engine, options.strata));
  UnitTimer timer(engine, arena);
  const double most = most_budget(engine, workers);
  sample_until_done(sample, timer, options, workers, most, spending);

  RunPlan plan;
  plan.units = engine.unit_count();
  plan.strata = sample.strata().size();
  plan.sampled_units = sample.size();
  plan.confidence = options.confidence;
  plan.extrapolated_bands = sample.untimed();
  plan.thread = sample.estimate(&TimedUnit::cpu_seconds);
  plan.journal_thread = sample.estimate(&TimedUnit::wall_seconds);
  const double z = two_sided_z(options.confidence);
  plan.half_width = z * stated_standard_error(plan.thread, options.repeatability);
  plan.journal_half_width = z * stated_standard_error(plan.journal_thread, options.repeatability);
  plan.sampled_share = plan.thread.total > 0 ? sample.counted_seconds() / plan.thread.total : 1;
  plan.units_in_parts = sample.units_in_parts();
  plan.parts_timed = sample.parts_timed();
  const std::vector<double> seconds = sample.unit_seconds();
  plan.largest_unit_seconds = seconds.empty() ? 0 : *std::max_element(seconds.begin(), seconds.end());
  plan.counting_seconds = list_schedule_makespan(seconds, workers);
  plan.efficiency =
      plan.counting_seconds > 0 ? plan.thread.total / (static_cast<double>(workers) * plan.counting_seconds) : 1;
  plan.counting_memory_bytes = engine.planned_memory_bytes(options.threads);
  plan.journal_bytes = sample.journal_bytes();
  plan.extrapolated_share =
      plan.thread.total > 0 ? sample.untimed_estimate(&TimedUnit::cpu_seconds).total / plan.thread.total : 0;
  plan.bands = sample.bands();
  for (const TimedUnit& unit : sample.pilots())
    plan.pilots.push_back({unit_weight(engine, unit.unit.id), unit.cpu_seconds, unit.prepare_seconds});
  plan.sample_seconds = seconds_since(start);
  if (const std::optional<CpuClocks> clocks_after = read_cpu_clocks(); clocks_before && clocks_after) {
    plan.busy_cores = other_processes_cores(*clocks_before, *clocks_after);
    plan.busy_cpus = clocks_after->cpus;
    plan.busy_factor = slowdown_at_load(options.threads, plan.busy_cores, plan.busy_cpus);
  }
  // The automatic budget is the one the last round had; the first round may have taken more, up
  // to its own bound, to time every band it could.
  plan.sample_budget_seconds =
      options.sample_seconds > 0
          ? options.sample_seconds
          : std::min(most, std::max(automatic_budget(plan.counting_seconds, most), plan.sample_seconds));
  advise(sample, options, plan.sample_seconds, plan);
  if (options.part) {
    plan.part_units = options.part->size();
    plan.part_thread = sample.part_estimate(*options.part);
    plan.part_half_width = z * stated_standard_error(plan.part_thread, options.repeatability);
  }
  return plan;
}

}  // namespace nqueens::plan
