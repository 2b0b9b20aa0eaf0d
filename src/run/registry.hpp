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
#include "nqueens/files/run_header.hpp"
#include "run/run_arena.hpp"
#include "run/run_request.hpp"

namespace nqueens {

//! The registry's list, which it hands the catalogue (engine/catalogue.hpp, registered_engines())
//! as the library loads. A static link of the library keeps this object by asking for this
//! symbol (--undefined=_ZN7nqueens15engine_registryEv, which the CMake package and pkg-config add).
std::span<const EngineDescription* const> engine_registry();

//! The engine `options.engine` names for n; `auto` resolves to the first registered engine that
//! is preferred for n and does not refuse it. Throws std::invalid_argument with the reason for an
//! unknown name or an engine that cannot count n with these options.
const EngineDescription& choose_engine(int n, const CountOptions& options);

//! The request's engine with its units, built in the run's arena (the join's tables and unit list
//! are parallel loops, so that --threads 1 means one thread from the first table on), which then
//! counts them.
std::unique_ptr<Engine> make_engine(const RunRequest& request, RunArena& arena);

//! make_engine in an arena of its own, for an engine that is only read (its header, its unit
//! count) or counted apart from the arena it was built in (tests, a recount).
std::unique_ptr<Engine> make_engine(const RunRequest& request);
//! make_engine of request_run(n, options), in an arena of its own.
std::unique_ptr<Engine> make_engine(int n, const CountOptions& options);

//! Makes the request's memory plan (EngineDescription::memory_plan) once and keeps it in the
//! request (RunRequest::memory_plan), which make_engine then builds the engine from; returns its
//! line for the log ("" when the engine has none). A request that carries its plan already is
//! left as it is. Throws std::invalid_argument when the budget is too small.
std::string plan_memory(RunRequest& request);

//! The line of the request's memory plan: the one it carries, or one made now and not kept.
std::string memory_plan(const RunRequest& request);

//! The options that make the run of `header` again: its engine and that engine's settings.
CountOptions options_of(const RunHeader& header);

}  // namespace nqueens
