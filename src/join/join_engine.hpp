#pragma once
// The half-board join engine for n, as the registry's `join` makes it, on the threads and under
// the memory budget of `options`. Throws std::invalid_argument with the reason when it cannot
// count n (join::unsupported_reason) or the budget is too small (join_memory.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "engine/catalogue.hpp"
#include "engine/engine.hpp"
#include "engine/memory_plan.hpp"
#include "join/join_memory.hpp"
#include "join/join_plan.hpp"
#include "join/pair_matcher.hpp"

namespace nqueens {

namespace join {

//! What an engine built on the join changes of its runs: the same units and per-unit counts, their
//! pairs counted elsewhere (the gpu engine's device), under its own name.
struct JoinVariant {
  std::string engine = "join";  //!< the name run headers and results give
  //! One per worker thread, for its JoinCounter (`elsewhere`); empty: the join's own matcher.
  std::function<std::unique_ptr<PairMatcher>()> make_matcher{};
  std::string describe{};           //!< what the log line adds about the matchers
  std::uint64_t matcher_bytes = 0;  //!< host memory each matcher holds, for the memory plan
};

//! Why no join run can have `header` (join_engine_description().header_problem), whatever engine
//! name it carries: for an engine built on the join.
std::string header_problem(const RunHeader& header);

//! The memory of the join run of `request` on its threads and under its budget. Throws
//! std::invalid_argument ("the <engine> engine cannot count N=...") when the budget is too small.
JoinMemory plan_memory(const RunRequest& request, const std::string& engine = "join");

//! The join's memory plan as a request carries it (EngineDescription::memory_plan): the line for
//! the log and the figures make_join_engine builds the run from, so that they are worked out once.
class JoinMemoryPlan final : public MemoryPlan {
 public:
  JoinMemoryPlan(std::string line, const JoinMemory& memory) : MemoryPlan(std::move(line)), memory_(memory) {}
  const JoinMemory& memory() const { return memory_; }
  //! The slices of N = 2k serve 2k + 1 and back, where neither run's carry quadrant keys: as
  //! many as both caches hold.
  std::uint64_t hand_on_bytes(const MemoryPlan& next) const override;

 private:
  JoinMemory memory_;
};

//! The fingerprint a join run's header carries: its units, the rotation unit after them and what
//! a unit's count means (its pairs weighted by the diagonal fold).
std::uint64_t run_fingerprint(const JoinPlan& plan);

//! The units of the run of `header` (a join run, or one of an engine that shares its units)
//! counted by search (join/unit_search.hpp): the join's independent recount path. Throws
//! std::invalid_argument when `header` is no join run's (its unit count or fingerprint).
std::unique_ptr<Engine> make_search_engine(const RunHeader& header);

}  // namespace join

//! The join's registry entry: an engine built on the join takes its refusals from it.
const EngineDescription& join_engine_description();

//! The join run of `request` (its threads and budget resolved), its pairs counted by `variant`'s
//! matchers. Throws std::invalid_argument when N is outside the join's reach or the budget is too
//! small for it.
std::unique_ptr<Engine> make_join_engine(const RunRequest& request, join::JoinVariant variant = {});
//! A join run built apart from any run (tests, the device model): the threads and budget of
//! `options` resolved here, 0 meaning every core and the default budget.
std::unique_ptr<Engine> make_join_engine(int n, const CountOptions& options = {}, join::JoinVariant variant = {});

}  // namespace nqueens
