#pragma once
// The unit dispenser: one counter in an MPI window on rank 0, advanced by every rank with
// MPI_Fetch_and_op. The counter is a position in a list every rank holds (the run's unit ids,
// costliest first), so a draw is one atomic add on rank 0's memory: no rank answers requests,
// and no rank waits for another to hand it work.
//
//   Dispenser dispenser(world, todo.size());
//   for (Block block = dispenser.draw(4); !block.empty(); block = dispenser.draw(4)) ...
//   dispenser.close();
#include <cstdint>

#include "world.hpp"

namespace nqueens::mpi {

//! Positions [begin, end) of the shared list.
struct Block {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool empty() const { return begin >= end; }
};

class Dispenser {
 public:
  //! Collective: every rank constructs it with the same `size` (positions 0..size-1).
  Dispenser(const World& world, std::uint64_t size);
  //! Frees nothing: a dispenser that was not closed belongs to a job that is being aborted,
  //! and a collective call from a destructor would wait forever for the failed rank.
  ~Dispenser() = default;
  Dispenser(const Dispenser&) = delete;
  Dispenser& operator=(const Dispenser&) = delete;

  //! The next `want` positions (fewer at the end); empty once all are handed out.
  Block draw(std::uint64_t want);

  //! Positions not yet handed out, as of this rank's last draw (others may have drawn since).
  std::uint64_t remaining() const { return seen_ < size_ ? size_ - seen_ : 0; }
  //! The counter as of this rank's last draw: the next draw starts there or further on.
  std::uint64_t position() const { return seen_; }

  //! Ends the drawing for every rank: a rank that failed moves the counter far past the end, so
  //! the next draw or look of any rank finds nothing left and failed() true.
  void mark_failed();
  //! Reads the counter without drawing: true when a rank marked the job failed. A rank with
  //! enough units queued draws seldom; it looks now and then instead.
  bool look();
  bool failed() const { return seen_ >= kFailedMark; }

  //! Collective: frees the window once every rank is done drawing.
  void close();

 private:
  //! Past any list's length (N = 32 has about a million units), and far from overflowing.
  static constexpr std::uint64_t kFailedMark = std::uint64_t{1} << 62;

  MPI_Win window_ = MPI_WIN_NULL;
  std::uint64_t size_ = 0;
  std::uint64_t seen_ = 0;  //!< the counter after this rank's last draw
};

}  // namespace nqueens::mpi
