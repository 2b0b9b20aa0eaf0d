#include "dispenser.hpp"

#include <algorithm>

namespace nqueens::mpi {

Dispenser::Dispenser(const World& world, std::uint64_t size) : size_(size) {
  std::uint64_t* counter = nullptr;
  const MPI_Aint bytes = world.root() ? sizeof(std::uint64_t) : 0;
  MPI_Win_allocate(bytes, sizeof(std::uint64_t), MPI_INFO_NULL, world.comm(), &counter, &window_);
  if (world.root()) {
    // Window memory starts undefined. A local store must sit in an access epoch to be seen by
    // the other ranks' atomics under MPI's separate memory model; the barrier orders it before
    // any draw.
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, window_);
    *counter = 0;
    MPI_Win_unlock(0, window_);
  }
  MPI_Barrier(world.comm());
  // One passive-target epoch for the dispenser's life: draws then cost one atomic and a flush.
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
}

Block Dispenser::draw(std::uint64_t want) {
  std::uint64_t first = 0;
  MPI_Fetch_and_op(&want, &first, MPI_UINT64_T, 0, 0, MPI_SUM, window_);
  MPI_Win_flush(0, window_);
  seen_ = first + want;
  if (first >= size_) return {};
  return {first, std::min(first + want, size_)};
}

void Dispenser::mark_failed() {
  if (failed()) return;
  std::uint64_t mark = kFailedMark, before = 0;
  MPI_Fetch_and_op(&mark, &before, MPI_UINT64_T, 0, 0, MPI_SUM, window_);
  MPI_Win_flush(0, window_);
  seen_ = before + mark;
}

bool Dispenser::look() {
  std::uint64_t now = 0;
  MPI_Fetch_and_op(nullptr, &now, MPI_UINT64_T, 0, 0, MPI_NO_OP, window_);
  MPI_Win_flush(0, window_);
  seen_ = std::max(seen_, now);
  return failed();
}

void Dispenser::close() {
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
}

}  // namespace nqueens::mpi
