#include "world.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "text/echo.hpp"

namespace nqueens::mpi {

int World::ranks_on_this_node() const {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int ranks = 1;
  MPI_Comm_size(node, &ranks);
  MPI_Comm_free(&node);
  return ranks;
}

World::World(int& argc, char**& argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_FUNNELED)
    abort_job(*this, "the MPI library does not support threads (MPI_THREAD_FUNNELED); nqueens-mpi needs it", 3);
}

World::~World() { MPI_Finalize(); }

namespace {

// Waits for a non-blocking collective asleep: a blocking one spins on its core until the
// slowest rank arrives (rank 0 opening a journal, another rank finishing its last unit), and on
// a node whose cores all count, that core is taken from a counting thread. Looks again after
// 50 us, then less and less often, down to once a millisecond.
void wait_asleep(MPI_Request& request) {
  auto nap = std::chrono::microseconds(50);
  for (int complete = 0; MPI_Test(&request, &complete, MPI_STATUS_IGNORE) == MPI_SUCCESS && !complete;) {
    std::this_thread::sleep_for(nap);
    nap = std::min<std::chrono::microseconds>(2 * nap, std::chrono::milliseconds(1));
  }
}

void broadcast_asleep(const World& world, void* data, int count, MPI_Datatype type) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibcast(data, count, type, 0, world.comm(), &request);
  wait_asleep(request);
}

}  // namespace

void broadcast(const World& world, int& value) { broadcast_asleep(world, &value, 1, MPI_INT); }

void broadcast(const World& world, std::uint64_t& value) { broadcast_asleep(world, &value, 1, MPI_UINT64_T); }

std::vector<std::uint64_t> gather(const World& world, std::uint64_t value) {
  std::vector<std::uint64_t> values(world.root() ? static_cast<std::size_t>(world.size()) : 0);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Igather(&value, 1, MPI_UINT64_T, values.data(), 1, MPI_UINT64_T, 0, world.comm(), &request);
  wait_asleep(request);
  return values;
}

void quiet_barrier(const World& world) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(world.comm(), &request);
  wait_asleep(request);
}

void broadcast(const World& world, std::vector<std::uint64_t>& values) {
  std::uint64_t size = values.size();
  broadcast(world, size);
  values.resize(size);
  // MPI counts are ints: send in slices, so no unit list is too long (N = 32 at depth 4 has
  // about a million units, far below the limit, but the limit should not be the reason).
  constexpr std::uint64_t kSlice = 1u << 28;
  for (std::uint64_t at = 0; at < size; at += kSlice)
    broadcast_asleep(world, values.data() + at, static_cast<int>(std::min(kSlice, size - at)), MPI_UINT64_T);
}

namespace {

// The lowest rank whose `code` is not 0 and its code, on every rank; rank -1 when none.
std::pair<int, int> lowest_failed(const World& world, int code) {
  const std::vector<std::uint64_t> codes = gather(world, static_cast<std::uint64_t>(code));
  int failed = -1;
  for (std::size_t rank = 0; rank < codes.size() && failed < 0; ++rank)
    if (codes[rank] != 0) failed = static_cast<int>(rank);
  broadcast(world, failed);
  if (failed < 0) return {failed, 0};
  int agreed = world.root() ? static_cast<int>(codes[static_cast<std::size_t>(failed)]) : 0;
  broadcast(world, agreed);
  return {failed, agreed};
}

// `text` of rank `from`, on rank 0 (and on `from`); elsewhere `text` as it was.
std::string sent_to_root(const World& world, int from, std::string text) {
  if (from != 0 && world.rank() == from) {
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, 0, world.comm());
  } else if (from != 0 && world.root()) {
    MPI_Status status;
    MPI_Probe(from, 0, world.comm(), &status);
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    text.assign(static_cast<std::size_t>(length), '\0');
    MPI_Recv(text.data(), length, MPI_CHAR, from, 0, world.comm(), MPI_STATUS_IGNORE);
  }
  return text;
}

}  // namespace

void agree_on_step(const World& world, int code, const std::string& message) {
  const auto [failed, agreed] = lowest_failed(world, code);
  if (failed < 0) return;
  throw AgreedExit(agreed, "rank " + std::to_string(failed) + ": " + sent_to_root(world, failed, message));
}

std::string first_said(const World& world, const std::string& said) {
  const int first = lowest_failed(world, said.empty() ? 0 : 1).first;
  if (first < 0) return "";
  const std::string text = sent_to_root(world, first, said);
  return world.root() ? text : std::string();
}

void abort_job(const World& world, const std::string& message, int code) {
  std::fflush(stdout);
  fmt::print(stderr, "nqueens-mpi: error: rank {}: {}\n", world.rank(), nqueens::detail::one_line(message));
  std::fflush(stderr);
  // mpirun ends the job's ranks with SIGTERM, then SIGKILL: a rank that is ending anyway must
  // not hold on to a signal its handler would only note for a count that will never resume.
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGINT, SIG_DFL);
  MPI_Abort(world.comm(), code);
  std::_Exit(code);  // MPI_Abort does not return; this only tells the compiler so
}

}  // namespace nqueens::mpi
