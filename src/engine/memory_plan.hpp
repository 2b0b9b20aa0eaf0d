#pragma once
// An engine's memory plan for one run (EngineDescription::memory_plan): the line the log shows
// before anything is allocated, and what the engine worked out, which it then builds the run
// from. It is made once per run and carried in the run's request (RunRequest::memory_plan), so
// that the check before the count, the log line and the engine's construction read one plan: a
// join plan counts the placements of every quarter row set, half a minute at N = 26.
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

 private:
  std::string line_;
};

}  // namespace nqueens
