#pragma once
// The stratified ratio estimate of a run's total time from a sample of its units (Cochran,
// Sampling Techniques, 3rd ed., sections 5A.14 and 6.11, the "separate" ratio estimate). In each
// stratum h of N_h units whose weights (estimated costs) sum to X_h, a simple random sample of
// n_h units with times y_i and weights x_i gives the ratio r_h = sum y / sum x, and the stratum's
// time is estimated as r_h X_h. Its variance is estimated from the residuals e_i = y_i - r_h x_i:
//
//   v_h = N_h^2 (1 - n_h / N_h) s_h^2 / n_h,   s_h^2 = sum e_i^2 / (n_h - 1),
//
// and the total's variance is the sum of the v_h (strata are sampled independently). A stratum
// counted whole contributes its exact time and no variance.
//
// A unit too costly to time whole may be timed in parts (section 10.2's two-stage sampling): m of
// its M exact parts drawn at random, its time estimated as M times their mean, with the variance
// w_i = M^2 (1 - m / M) s_w^2 / m from the parts' spread s_w^2. Its stratum's variance then gains
// the second stage's term (N_h / n_h) sum w_i (Cochran 10.8, the ratio form), and a stratum
// whose every unit was drawn, the sum of the w_i.
#include <cstddef>
#include <span>
#include <vector>

namespace nqueens::plan {

//! One counted unit of a stratum: its weight and its measured time, or where timed in parts, the
//! estimate of its time and that estimate's variance (0 for a unit timed whole).
struct Drawn {
  double weight = 0;
  double seconds = 0;
  double variance = 0;
};

//! A unit's time from `parts_timed.size()` of its `parts` parts, drawn at random: parts x their
//! mean, with the variance as above, plus `shared_seconds`, the time of the parts it always
//! times (Engine::part_is_shared, not among `parts`). Throws std::invalid_argument for no part,
//! more parts than the unit has, or one part of several (its spread is unknown).
Drawn unit_from_parts(double weight, std::size_t parts, std::span<const double> parts_timed, double shared_seconds = 0);

//! The share of their drawable parts that units taking `whole` seconds can be timed on in
//! `seconds`, where their shared parts, `shared_share` of their time, are timed whole whatever
//! the share: (seconds / whole - shared_share) / (1 - shared_share), within [0, 1]; 1 for units
//! that take no time, 0 for units all shared.
double affordable_share(double seconds, double whole, double shared_share);

//! What timing units of `whole` seconds on `share` of their drawable parts takes, their shared
//! parts whole: whole x (shared_share + (1 - shared_share) x share).
inline double seconds_in_parts(double whole, double shared_share, double share) {
  return whole * (shared_share + (1 - shared_share) * share);
}

struct StratumSample {
  std::size_t units = 0;     //!< N_h
  double weight = 0;         //!< X_h, the weights of all its units
  std::vector<Drawn> drawn;  //!< the units counted (a simple random sample of them)
};

struct Estimate {
  double total = 0;           //!< estimated total seconds
  double standard_error = 0;  //!< sqrt of the estimated variance
};

//! r_h: seconds per unit of weight in a stratum's sample (0 for an empty sample).
double ratio(const StratumSample& stratum);

//! One stratum's estimate, r_h X_h with its standard error. Throws std::invalid_argument when no
//! unit is counted, or one unit of several (its spread is unknown).
Estimate stratum_estimate(const StratumSample& stratum);

//! The estimate over every stratum. Throws std::invalid_argument when a stratum has no unit
//! counted, or one unit counted of several (its spread is unknown).
Estimate stratified_ratio_estimate(std::span<const StratumSample> strata);

//! A rate carried to a stratum none of whose units could be timed.
struct CarriedRate {
  double rate = 0;            //!< seconds per unit of weight
  double relative_error = 0;  //!< its relative standard error
};

//! The rate of the stratum at `position`, carried from the timed strata at `positions` (distinct)
//! whose rates are `rates` (positive). From three timed strata on, the least-squares line through
//! the logarithms of the rates against the positions, and its prediction error there: the scatter
//! of the rates about the line, widened with the distance from the timed strata's centre, and at
//! least `least_step` (a log). With fewer, the nearest timed stratum's rate, off by `least_step`
//! (or the step between the two timed strata per position, when larger) per position carried.
//! The relative error is e^(log error) - 1. Throws std::invalid_argument for no timed stratum.
CarriedRate carried_rate(std::span<const double> positions, std::span<const double> rates, double position,
                         double least_step);

//! The rate of an untimed stratum where the cost model prices every unit alike, so that the
//! strata's order says nothing of their rates (a trend through them would be carried from an
//! accident of the units' numbering): the geometric mean of the timed strata's `rates` (at least
//! two, positive), with the scatter about it as the prediction error, at least `least_step`.
//! Throws std::invalid_argument for fewer than two rates.
CarriedRate level_rate(std::span<const double> rates, double least_step);

//! The standard error a plan states: the sampling error and, in quadrature, `repeatability` (a
//! share of the total): the same units timed twice never take quite the same time, and a sample
//! that missed a disturbed unit (an interrupt, caches shared with another job) cannot see that.
double stated_standard_error(const Estimate& estimate, double repeatability);

//! z such that a normal variable lies within z standard deviations of its mean with this
//! probability (0.95 -> 1.96). Throws std::invalid_argument outside 0 < confidence < 1.
double two_sided_z(double confidence);

}  // namespace nqueens::plan
