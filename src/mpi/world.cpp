#include "world.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>

#include "files/echo.hpp"

namespace nqueens::mpi {

World::World(int& argc, char**& argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_FUNNELED)
    abort_job(*this, "the MPI library does not support threads (MPI_THREAD_FUNNELED); nqueens-mpi needs it", 3);
}

World::~World() { MPI_Finalize(); }

void broadcast(const World& world, int& value) { MPI_Bcast(&value, 1, MPI_INT, 0, world.comm()); }

void broadcast(const World& world, std::uint64_t& value) { MPI_Bcast(&value, 1, MPI_UINT64_T, 0, world.comm()); }

void broadcast(const World& world, std::vector<std::uint64_t>& values) {
  std::uint64_t size = values.size();
  broadcast(world, size);
  values.resize(size);
  // MPI counts are ints: send in slices, so no unit list is too long (N = 32 at depth 4 has
  // about a million units, far below the limit, but the limit should not be the reason).
  constexpr std::uint64_t kSlice = 1u << 28;
  for (std::uint64_t at = 0; at < size; at += kSlice)
    MPI_Bcast(values.data() + at, static_cast<int>(std::min(kSlice, size - at)), MPI_UINT64_T, 0, world.comm());
}

void abort_job(const World& world, const std::string& message, int code) {
  std::fflush(stdout);
  fmt::print(stderr, "nqueens-mpi: error: rank {}: {}\n", world.rank(), nqueens::detail::one_line(message));
  std::fflush(stderr);
  MPI_Abort(world.comm(), code);
  std::_Exit(code);  // MPI_Abort does not return; this only tells the compiler so
}

}  // namespace nqueens::mpi
