#pragma once
// The strata `plan` samples from: a run's units cut into bands of its cost model. Units sorted
// costliest first are cut where the running cost passes each 1/k of the total, so every band
// holds about the same share of the estimated work (a few costly units in the first bands, many
// cheap ones in the last), and a unit costlier than a whole share is a band of its own. Within a
// band the units are put in a fixed pseudo-random order (a hash of the run's fingerprint and
// the id): its first m units are a simple random sample of m, the same for every run of the
// same units, and a larger sample extends a smaller one.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/engine.hpp"

namespace nqueens::plan {

struct Stratum {
  std::vector<std::size_t> ids;  //!< the band's units, in draw order
  double cost = 0;               //!< the sum of their sampling weights (unit_weight)
};

//! A unit's weight for the ratio estimate: its estimated cost plus one, so that a unit the
//! model prices at 0 still stands for some time.
inline double unit_weight(const Engine& engine, std::size_t id) { return static_cast<double>(engine.cost(id)) + 1; }

//! At most `bands` strata (fewer when units are few or one unit outweighs several shares),
//! none empty, together holding every unit once. Throws std::invalid_argument when bands is 0.
std::vector<Stratum> make_strata(const Engine& engine, std::size_t bands);

//! Unit `id`'s parts that a sample draws from: those not shared by the others (Engine::part_is_shared).
std::size_t drawable_parts(const Engine& engine, std::size_t id);

//! Unit `id`'s shared parts (Engine::part_is_shared), then the first `count` of the others, all
//! of them where it has fewer, in a fixed pseudo-random order of its own: a simple random sample
//! of them, the same in every plan of the run.
std::vector<std::size_t> drawn_parts(const Engine& engine, std::size_t id, std::size_t count);

//! Whether the cost model gives every unit of the strata the same weight (the reference engine's
//! does): then their order is the units' numbering, not their cost.
bool priced_alike(std::span<const Stratum> strata);

}  // namespace nqueens::plan
