#pragma once
// How long a run's units keep a number of workers busy when each free worker takes the next unit
// of a list: the schedule of the program's dispensers (threads take units costliest first, MPI
// ranks draw from a shared list in that order), with no time for taking or reporting a unit.
#include <cstddef>
#include <span>

namespace nqueens::plan {

//! The time the last worker finishes when `workers` (at least 1) start together and each takes
//! the next of `seconds` (in list order) whenever it is free. Never less than the longest unit,
//! nor than the sum over the workers.
double list_schedule_makespan(std::span<const double> seconds, std::size_t workers);

}  // namespace nqueens::plan
