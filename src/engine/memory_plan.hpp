#pragma once
// An engine's memory plan for one run (EngineDescription::memory_plan): the line the log shows
// before anything is allocated, and what the engine worked out, which it then builds the run
// from. It is made once per run and carried in the run's request (RunRequest::memory_plan), so
// that the check before the count, the log line and the engine's construction read one plan: a
// join plan counts the placements of every quarter row set, half a minute at N = 26.
#include <cstdint>
#include <string>
#include <utility>

namespace nqueens {

class MemoryPlan {
 public:
  explicit MemoryPlan(std::string line) : line_(std::move(line)) {}
  MemoryPlan(const MemoryPlan&) = default;
  MemoryPlan& operator=(const MemoryPlan&) = default;
  MemoryPlan(MemoryPlan&&) = default;
  MemoryPlan& operator=(MemoryPlan&&) = default;
  //! An engine keeps its own figures in a class of its own (the join's: join/join_engine.hpp).
  virtual ~MemoryPlan() = default;

  //! What the run will hold under its budget, in one line for the log.
  const std::string& line() const { return line_; }

  //! The bytes of tables a run of this plan may leave alive for the run of `next`, the next N of
  //! the same command, which reads them again (engine/kept_tables.hpp): no more than `next` gives
  //! those tables of its own budget, so that both runs hold to their plans. 0: none are shared.
  virtual std::uint64_t hand_on_bytes(const MemoryPlan& next) const {
    (void)next;
    return 0;
  }

 private:
  std::string line_;
};

}  // namespace nqueens
