#pragma once
// How much a rank draws from the dispenser: sized by estimated work, not by units. The shared
// list is costliest first by the engine's estimate, and every rank holds it, so a rank knows the
// estimated cost of any run of positions. It keeps about one draw's worth waiting ahead of its
// threads and draws again when less waits:
//
//   a draw's worth = min(threads x kPerThread of estimated time, remaining / (kShare x ranks))
//
// The first term keeps the threads busy for milliseconds between draws whatever the unit size
// (24 us units of the join at N = 19 or seconds of the DFS at N = 20), so draws and their
// network round trips stay few. Estimated cost turns into time at the rate this rank measured on
// the units it finished (a decaying average of microseconds per cost; until its first unit
// finishes, a draw is one unit per thread). The second term is guided self-scheduling: near the
// end of the list the draws shrink to a share of what is left, down to single units, so the
// last ones spread over every rank instead of queueing behind one.
//
// A draw's positions are chosen from where this rank last saw the counter: other ranks may have
// drawn since, but the list only gets cheaper further on, so the draw costs at most its worth.
// No MPI here: the policy is plain arithmetic, tested on its own (tests/mpi/test_draw_policy.cpp, through the
// nqueens_mpi_policy library).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nqueens::mpi {

class DrawPolicy {
 public:
  //! Estimated time of work a draw holds per thread of the rank.
  static constexpr std::chrono::microseconds kPerThread{20000};
  //! Guided self-scheduling: a draw takes at most remaining / (kShare x ranks).
  static constexpr double kShare = 2.0;

  //! `costs`: the estimated cost of each position of the shared list, non-increasing. Every
  //! unit is taken to cost at least 1 (an estimate of 0 still takes time).
  DrawPolicy(std::span<const std::uint64_t> costs, int ranks, int threads);

  //! Estimated cost of positions [begin, end) (end clamped to the list).
  double cost(std::uint64_t begin, std::uint64_t end) const;

  //! What to keep waiting ahead of the threads, in estimated cost, as of list position `at`:
  //! the rank draws while less waits, and one draw takes at most this much.
  double worth(std::uint64_t at) const;

  //! How many positions a draw from `at` takes: as many as fit in `worth` by the costs from
  //! `at` on, and at least 1.
  std::uint64_t positions(std::uint64_t at, double worth) const;

  //! A unit of estimated cost `cost` (as given to the constructor) took `microseconds`.
  void learn(std::uint64_t cost, std::uint64_t microseconds);

  //! Microseconds per unit of estimated cost, as learnt; 0 before the first unit.
  double rate() const { return cost_seen_ > 0 ? micros_seen_ / cost_seen_ : 0.0; }

 private:
  std::vector<double> prefix_;  //!< prefix_[i]: estimated cost of positions [0, i)
  int ranks_;
  int threads_;
  double micros_seen_ = 0;  //!< decaying sums of the units learnt
  double cost_seen_ = 0;
};

}  // namespace nqueens::mpi
