#pragma once
// The MPI job as one process sees it: MPI started with MPI_THREAD_FUNNELED (only the main
// thread calls MPI; the TBB threads that count never do), this process's rank, the job's size,
// and the few collective helpers the count needs.
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace nqueens::mpi {

class World {
 public:
  //! MPI_Init_thread. Ends the job if the library cannot give MPI_THREAD_FUNNELED.
  World(int& argc, char**& argv);
  //! MPI_Finalize: only on a normal exit; a failing rank ends the job with abort_job instead.
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }
  //! The ranks of this job on this rank's machine (MPI_COMM_TYPE_SHARED): they share its memory.
  int ranks_on_this_node() const;  //!< rank 0 keeps the journal and prints the results
  MPI_Comm comm() const { return MPI_COMM_WORLD; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

//! Rank 0's value, on every rank. Collective; a rank that waits for the others sleeps (see
//! quiet_barrier).
void broadcast(const World& world, int& value);
void broadcast(const World& world, std::uint64_t& value);
void broadcast(const World& world, std::vector<std::uint64_t>& values);

//! Every rank's `value`, by rank, on rank 0 (empty elsewhere). Collective; sleeps while it waits.
std::vector<std::uint64_t> gather(const World& world, std::uint64_t value);

//! MPI_Barrier that sleeps while it waits, instead of spinning on a core that another rank's
//! threads may need. Collective.
void quiet_barrier(const World& world);

//! Ends the whole job from one rank: one line `nqueens-mpi: error: rank R: <message>` on
//! stderr, then MPI_Abort, which makes mpirun (or srun) end every other rank, so a rank that
//! fails never leaves the others waiting on it.
[[noreturn]] void abort_job(const World& world, const std::string& message, int code);

//! A failure rank 0 found and told every rank about (a journal of another run, say): every
//! rank ends normally with `code`, and only rank 0 prints the message.
struct AgreedExit : std::runtime_error {
  AgreedExit(int exit_code, const std::string& message) : std::runtime_error(message), code(exit_code) {}
  int code;
};

//! The verdict of a step every rank took on its own (building N's engine, say): when a rank
//! failed (`code` not 0 there), every rank throws AgreedExit with the code of the lowest rank
//! that failed and its message, which that rank sends to rank 0 to print ("rank R: ..."). So a
//! rank that ran out of memory ends the job in one line from rank 0, without an abort. Collective.
void agree_on_step(const World& world, int code, const std::string& message);

//! What the lowest rank with something to say (`said` not empty there) said, on rank 0; "" when
//! no rank said anything, and on every other rank. Collective.
std::string first_said(const World& world, const std::string& said);

}  // namespace nqueens::mpi
