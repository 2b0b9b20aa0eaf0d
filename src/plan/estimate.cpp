#include "plan/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace nqueens::plan {

double ratio(const StratumSample& stratum) {
  double seconds = 0, weight = 0;
  for (const Drawn& unit : stratum.drawn) {
    seconds += unit.seconds;
    weight += unit.weight;
  }
  return weight > 0 ? seconds / weight : 0;
}

Drawn unit_from_parts(double weight, std::size_t parts, std::span<const double> parts_timed, double shared_seconds) {
  const std::size_t m = parts_timed.size();
  if (m == 0 || m > parts) throw std::invalid_argument("a unit's time from parts needs 1 to all of its parts");
  if (m < 2 && m < parts) throw std::invalid_argument("a unit timed in parts needs two parts to measure their spread");
  double mean = 0;
  for (const double seconds : parts_timed) mean += seconds / static_cast<double>(m);
  const double whole = static_cast<double>(parts);
  if (m == parts) return {weight, shared_seconds + whole * mean, 0};
  double squares = 0;
  for (const double seconds : parts_timed) squares += std::pow(seconds - mean, 2);
  const double taken = static_cast<double>(m);
  return {weight, shared_seconds + whole * mean, whole * whole * (1 - taken / whole) * (squares / (taken - 1)) / taken};
}

double affordable_share(double seconds, double whole, double shared_share) {
  if (!(whole > 0)) return 1;
  if (!(shared_share < 1)) return 0;
  return std::clamp((seconds / whole - shared_share) / (1 - shared_share), 0.0, 1.0);
}

Estimate stratum_estimate(const StratumSample& stratum) {
  const std::size_t n = stratum.drawn.size();
  if (n == 0) throw std::invalid_argument("a stratum of " + std::to_string(stratum.units) + " units has no sample");
  const double r = ratio(stratum);
  double within = 0;  // the second stage's: the drawn units' own variances, where timed in parts
  for (const Drawn& unit : stratum.drawn) within += unit.variance;
  if (n >= stratum.units) {  // counted whole: its time is known, but for the parts' sampling
    double seconds = 0;
    for (const Drawn& unit : stratum.drawn) seconds += unit.seconds;
    return {seconds, std::sqrt(within)};
  }
  if (n < 2) throw std::invalid_argument("a stratum needs two units counted to measure its spread");
  double squares = 0;
  for (const Drawn& unit : stratum.drawn) squares += std::pow(unit.seconds - r * unit.weight, 2);
  const double units = static_cast<double>(stratum.units);
  const double sampled = static_cast<double>(n);
  const double variance =
      units * units * (1 - sampled / units) * (squares / (sampled - 1)) / sampled + units / sampled * within;
  return {r * stratum.weight, std::sqrt(variance)};
}

Estimate stratified_ratio_estimate(std::span<const StratumSample> strata) {
  double total = 0, variance = 0;
  for (const StratumSample& stratum : strata) {
    const Estimate part = stratum_estimate(stratum);
    total += part.total;
    variance += part.standard_error * part.standard_error;
  }
  return {total, std::sqrt(variance)};
}

namespace {

// Fewer than three timed strata show no scatter about a line: the nearest one's rate, with an
// error of a step per position carried.
CarriedRate nearest_rate(std::span<const double> positions, std::span<const double> rates, double position,
                         double least_step) {
  std::size_t nearest = 0;
  for (std::size_t i = 1; i < positions.size(); ++i)
    if (std::abs(positions[i] - position) < std::abs(positions[nearest] - position)) nearest = i;
  double step = least_step;
  if (positions.size() == 2)
    step = std::max(step, std::abs(std::log(rates[1] / rates[0]) / (positions[1] - positions[0])));
  return {rates[nearest], std::expm1(step * std::abs(positions[nearest] - position))};
}

}  // namespace

CarriedRate carried_rate(std::span<const double> positions, std::span<const double> rates, double position,
                         double least_step) {
  if (positions.empty() || positions.size() != rates.size())
    throw std::invalid_argument("a rate is carried from at least one timed stratum");
  if (positions.size() < 3) return nearest_rate(positions, rates, position, least_step);
  const double n = static_cast<double>(positions.size());
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    mean_x += positions[i] / n;
    mean_y += std::log(rates[i]) / n;
  }
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    sxx += std::pow(positions[i] - mean_x, 2);
    sxy += (positions[i] - mean_x) * (std::log(rates[i]) - mean_y);
  }
  const double slope = sxy / sxx;
  double squares = 0;
  for (std::size_t i = 0; i < positions.size(); ++i)
    squares += std::pow(std::log(rates[i]) - mean_y - slope * (positions[i] - mean_x), 2);
  const double scatter = std::sqrt(squares / (n - 2));
  const double log_error = scatter * std::sqrt(1 + 1 / n + std::pow(position - mean_x, 2) / sxx);
  return {std::exp(mean_y + slope * (position - mean_x)), std::expm1(std::max(log_error, least_step))};
}

CarriedRate level_rate(std::span<const double> rates, double least_step) {
  if (rates.size() < 2) throw std::invalid_argument("a level rate is carried from at least two timed strata");
  const double n = static_cast<double>(rates.size());
  double mean = 0;
  for (const double rate : rates) mean += std::log(rate) / n;
  double squares = 0;
  for (const double rate : rates) squares += std::pow(std::log(rate) - mean, 2);
  const double log_error = std::sqrt(squares / (n - 1)) * std::sqrt(1 + 1 / n);
  return {std::exp(mean), std::expm1(std::max(log_error, least_step))};
}

double stated_standard_error(const Estimate& estimate, double repeatability) {
  return std::hypot(estimate.standard_error, repeatability * estimate.total);
}

double two_sided_z(double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("a confidence level is between 0 and 1, not " + std::to_string(confidence));
  // Bisection on erf: P(|Z| < z) = erf(z / sqrt 2), increasing in z; 200 halvings of [0, 40]
  // are far below double precision.
  double low = 0, high = 40;
  for (int step = 0; step < 200; ++step) {
    const double middle = (low + high) / 2;
    (std::erf(middle / std::sqrt(2.0)) < confidence ? low : high) = middle;
  }
  return (low + high) / 2;
}

}  // namespace nqueens::plan
