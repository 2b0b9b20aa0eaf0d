#include "rank_arena.hpp"

#include <stdexcept>
#include <string>

#include "run/schedule.hpp"

namespace nqueens::mpi {

// The arena reserves no slot for the main thread (second argument 0): all `threads` slots go
// to TBB workers. TBB keeps one thread fewer than the allowed parallelism as workers, counting
// the main thread as the last one, so the allowance is threads + 1; the main thread only sleeps
// and polls, and takes no core from them.
RankArena::RankArena(const Engine& engine, int threads)
    : engine_(engine), counters_(engine), workers_(threads + 1), arena_(threads, 0) {}

RankArena::~RankArena() {
  stop();
  std::unique_lock<std::mutex> lock(lock_);
  changed_.wait(lock, [this] { return in_flight_ == 0; });
}

void RankArena::submit(std::size_t id) {
  {
    const std::lock_guard<std::mutex> guard(lock_);
    ++waiting_;
    ++in_flight_;
  }
  arena_.enqueue([this, id] { run(id); });
}

// ---- runs on a TBB worker ------------------------------------------------------------------
// An enqueued task must not throw (TBB would terminate): a unit's exception is kept for the
// main thread, which rethrows it from take_finished().
void RankArena::run(std::size_t id) {
  bool skip = false;
  {
    const std::lock_guard<std::mutex> guard(lock_);
    --waiting_;
    skip = stopped_ || error_;
  }
  UnitCount done{id, {}};
  std::exception_ptr error;
  if (!skip) {
    try {
      if (id >= engine_.unit_count()) throw std::out_of_range("unit " + std::to_string(id) + " is not in the run");
      const auto start = std::chrono::steady_clock::now();
      done.tally = counters_.local().count(id);
      done.microseconds = microseconds_since(start);
    } catch (...) {
      error = std::current_exception();
    }
  }
  const std::lock_guard<std::mutex> guard(lock_);
  if (!skip && !error) finished_.push_back(done);
  if (error && !error_) error_ = error;
  --in_flight_;
  changed_.notify_all();
}

std::size_t RankArena::waiting() const {
  const std::lock_guard<std::mutex> guard(lock_);
  return waiting_;
}

std::size_t RankArena::in_flight() const {
  const std::lock_guard<std::mutex> guard(lock_);
  return in_flight_;
}

std::vector<UnitCount> RankArena::take_finished() {
  const std::lock_guard<std::mutex> guard(lock_);
  if (error_) std::rethrow_exception(error_);
  std::vector<UnitCount> taken;
  taken.swap(finished_);
  return taken;
}

void RankArena::wait(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(lock_);
  // Wakes on any change; the caller looks again at what it needs.
  changed_.wait_for(lock, timeout, [this] { return !finished_.empty() || error_ || in_flight_ == 0; });
}

void RankArena::stop() {
  const std::lock_guard<std::mutex> guard(lock_);
  stopped_ = true;
}

}  // namespace nqueens::mpi
