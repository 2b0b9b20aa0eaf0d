#include "plan/estimate.hpp"

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

namespace {

Estimate stratum_estimate(const StratumSample& stratum) {
  const std::size_t n = stratum.drawn.size();
  if (n == 0) throw std::invalid_argument("a stratum of " + std::to_string(stratum.units) + " units has no sample");
  const double r = ratio(stratum);
  if (n >= stratum.units) {  // counted whole: its time is known
    double seconds = 0;
    for (const Drawn& unit : stratum.drawn) seconds += unit.seconds;
    return {seconds, 0};
  }
  if (n < 2) throw std::invalid_argument("a stratum needs two units counted to measure its spread");
  double squares = 0;
  for (const Drawn& unit : stratum.drawn) squares += std::pow(unit.seconds - r * unit.weight, 2);
  const double units = static_cast<double>(stratum.units);
  const double sampled = static_cast<double>(n);
  const double variance = units * units * (1 - sampled / units) * (squares / (sampled - 1)) / sampled;
  return {r * stratum.weight, std::sqrt(variance)};
}

}  // namespace

Estimate stratified_ratio_estimate(std::span<const StratumSample> strata) {
  double total = 0, variance = 0;
  for (const StratumSample& stratum : strata) {
    const Estimate part = stratum_estimate(stratum);
    total += part.total;
    variance += part.standard_error * part.standard_error;
  }
  return {total, std::sqrt(variance)};
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
