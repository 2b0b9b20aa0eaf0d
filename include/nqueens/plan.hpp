#pragma once
// What a count will cost before it runs, in one call: `nqueens plan` for programs. A plan builds
// the run's units, counts a sample of them drawn across the engine's cost model on the run's
// thread count, and estimates the whole run's thread time with an error bar, its wall time on
// threads x ranks workers, its memory and its checkpoint journal. docs/usage.md ("nqueens plan")
// says how the sample is drawn and what the bar covers.
#include <cstddef>
#include <cstdint>
#include <string>

#include "nqueens/count.hpp"
#include "nqueens/export.hpp"

namespace nqueens {

//! What plan_count() plans: the count, and how long and how surely to sample it.
struct CountPlanOptions {
  //! The count to plan: engine and its settings, threads per process (0: every hardware
  //! thread) and memory budget, as count() takes them. Its checkpoint, observers and stop flag
  //! are not used.
  CountOptions count{};
  int ranks = 1;  //!< processes counting at once (MPI ranks, shards run together)
  //! Of the ranks, those that share one node's memory: what CountPlan::slurm_mem asks for.
  int ranks_per_node = 1;
  //! The sampling budget in wall seconds; 0: 2 % of the predicted run, 3 s to a minute.
  double sample_seconds = 0;
  double confidence = 0.95;  //!< of the error bars, in (0, 1)
};

//! A count's plan: its estimated cost, from a sample of its units on this machine.
struct CountPlan {
  int n = 0;                      //!< the board size
  std::string engine;             //!< the engine the count would use (never "auto")
  int threads = 0;                //!< per process
  int ranks = 0;                  //!< processes counting at once
  std::size_t units = 0;          //!< the run's work units
  std::size_t sampled_units = 0;  //!< units the plan counted
  //! The run's thread time: the sum of every unit's CPU time on its thread, on this machine.
  double thread_seconds = 0;
  //! The half-width of thread_seconds' error bar: the truth lies in thread_seconds +-
  //! thread_error with about the probability `confidence`.
  double thread_error = 0;
  double confidence = 0;    //!< of the error bar
  double wall_seconds = 0;  //!< counting on threads x ranks workers, costliest units first
  //! The half-width of wall_seconds' bar: the thread time's, widened to cover busy_factor when
  //! the machine was busy (past 1.1), as `nqueens plan` says it.
  double wall_error = 0;
  //! Other processes' use of this machine's CPUs while the plan sampled, in cores: wall_seconds
  //! holds on cores of the count's own.
  double busy_cores = 0;
  //! How much longer counting takes on this machine at that load, at least 1.
  double busy_factor = 1;
  std::uint64_t memory_bytes = 0;  //!< what one process's count will hold
  //! What the process held before the engine was built (its code, libraries and heap).
  std::uint64_t program_memory_bytes = 0;
  //! The `--memory` to give the count: memory_bytes rounded up to a MiB ("9936M"). A budget is
  //! what the count may hold; the program's own memory comes on top.
  std::string count_memory;
  int ranks_per_node = 1;  //!< as CountPlanOptions::ranks_per_node
  //! A node's memory for ranks_per_node processes of program and count memory each, with a
  //! margin for what a budget leaves out (10 % and 64 MiB), rounded up to a MiB.
  std::uint64_t node_memory_bytes = 0;
  std::string slurm_mem;              //!< Slurm's `--mem` for such a node ("10993M")
  std::uint64_t journal_bytes = 0;    //!< a whole run's checkpoint journal
  double sample_seconds = 0;          //!< the wall time the sampling took
  double advised_sample_seconds = 0;  //!< a budget that would narrow the bar much; 0: none would
};

//! Plans the count of n with `options`: what `nqueens plan` says. Throws std::invalid_argument
//! for what count() refuses (an engine that cannot count n, a budget too small) and for options
//! out of range.
NQUEENS_EXPORT CountPlan plan_count(int n, const CountPlanOptions& options = {});

}  // namespace nqueens
