#include "rank_arena.hpp"

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "run/schedule.hpp"

namespace nqueens::mpi {

// The run's arena reserves no slot for the main thread (RunArena::Caller::stays_apart): all its
// slots go to TBB workers; the main thread only sleeps and polls, and takes no core from them.
RankArena::RankArena(const Engine& engine, RunArena& arena)
    : engine_(engine), threads_(arena.threads()), counters_(engine), arena_(arena) {}

RankArena::~RankArena() {
  stop();
  std::unique_lock<std::mutex> lock(lock_);
  changed_.wait(lock, [this] { return runners_ == 0; });
}

void RankArena::submit(std::span<const std::size_t> ids, double cost) {
  bool start = false;
  {
    const std::lock_guard<std::mutex> guard(lock_);
    queue_.push_back({{ids.begin(), ids.end()}, cost});
    waiting_cost_ += cost;
    in_flight_ += ids.size();
    start = runners_ < threads_;
    if (start) ++runners_;
  }
  if (start) arena_.arena().enqueue([this] { run(); });
}

// ---- runs on a TBB worker ------------------------------------------------------------------
// A runner takes batches from the queue, first in first out, until it is empty: one task per
// thread rather than per batch, and one lock per batch, taken between two batches. An enqueued task
// must not throw (TBB would terminate): a unit's exception is kept for the main thread, which
// rethrows it from take_finished().
void RankArena::run() {
  std::unique_lock<std::mutex> lock(lock_);
  while (!queue_.empty()) {
    const Queued next = std::move(queue_.front());
    queue_.pop_front();
    waiting_cost_ = queue_.empty() ? 0 : waiting_cost_ - next.cost;  // no rounding left behind
    const bool skip = stopped_ || error_;
    const bool out_of_memory = !skip && fail_at_ > started_ && fail_at_ <= started_ + next.ids.size();
    if (!skip) started_ += next.ids.size();
    // The main thread sleeps until the queue runs low; it draws while this batch runs.
    if (hungry_locked()) changed_.notify_all();
    lock.unlock();
    std::vector<UnitCount> done;
    std::exception_ptr error;
    if (!skip) {
      try {
        if (out_of_memory) throw std::bad_alloc();
        for (const std::size_t id : next.ids)
          if (id >= engine_.unit_count()) throw std::out_of_range("unit " + std::to_string(id) + " is not in the run");
        count_timed_batch(engine_, counters_.local(), next.ids, done);
      } catch (...) {
        error = std::current_exception();
      }
    }
    lock.lock();
    if (!skip && !error) finished_.insert(finished_.end(), done.begin(), done.end());
    if (error && !error_) error_ = error;
    in_flight_ -= next.ids.size();
    if (in_flight_ == 0 || error_) changed_.notify_all();
  }
  --runners_;
  if (runners_ == 0) changed_.notify_all();
}

bool RankArena::hungry_locked() const { return low_water_ && (queue_.empty() || waiting_cost_ < *low_water_); }

bool RankArena::hungry() const {
  const std::lock_guard<std::mutex> guard(lock_);
  return hungry_locked();
}

void RankArena::set_low_water(std::optional<double> cost) {
  const std::lock_guard<std::mutex> guard(lock_);
  low_water_ = cost;
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
  changed_.wait_for(lock, timeout, [this] { return hungry_locked() || error_ || in_flight_ == 0; });
}

void RankArena::fail_as_out_of_memory_at(std::size_t unit) {
  const std::lock_guard<std::mutex> guard(lock_);
  fail_at_ = unit;
}

void RankArena::stop() {
  const std::lock_guard<std::mutex> guard(lock_);
  stopped_ = true;
  low_water_.reset();
}

}  // namespace nqueens::mpi
