#pragma once
// The engine registry: the list of engines (registry.cpp, the one place that names them all)
// and what the run does with it, choosing an engine for N and building its units. What the
// engines say of themselves is the catalogue (engine/catalogue.hpp).
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "engine/catalogue.hpp"
#include "nqueens/count.hpp"
#include "nqueens/run_header.hpp"

namespace nqueens {

//! The engine `options.engine` names for n; `auto` resolves to the first registered engine that
//! is preferred for n and does not refuse it. Throws std::invalid_argument with the reason for an
//! unknown name or an engine that cannot count n with these options.
const EngineDescription& choose_engine(int n, const CountOptions& options);

//! choose_engine, then its units, built on `options.threads` threads (the join's tables and unit
//! list are parallel loops, so that --threads 1 means one thread from the first table on).
std::unique_ptr<Engine> make_engine(int n, const CountOptions& options);

//! The chosen engine's memory_plan for n ("" when it has none): log it before make_engine.
//! Throws std::invalid_argument as choose_engine does, and when the budget is too small.
std::string memory_plan(int n, const CountOptions& options);

//! The options that make the run of `header` again: its engine, symmetry and split depth.
CountOptions options_of(const RunHeader& header);

}  // namespace nqueens
