#include "mpi_count.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "dispenser.hpp"
#include "nqueens/journal.hpp"
#include "rank_arena.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "shell/exit_codes.hpp"
#include "shell/progress.hpp"
#include "shell/signals.hpp"

namespace nqueens::mpi {

namespace {

using Clock = std::chrono::steady_clock;

// How long a main thread sleeps between looks at MPI, signals and progress when none of its
// own units finishes. Rank 0 answers the other ranks' messages within this time (and, on
// networks without hardware atomics, lets their draws on its window progress); 200 looks a
// second cost nothing next to the search.
constexpr auto kPoll = std::chrono::milliseconds(5);
// After SIGINT or SIGTERM, units in flight get this long to finish and reach the journal.
// Shorter than `nqueens count`'s second: mpirun follows its SIGTERM with SIGKILL soon after.
constexpr auto kGrace = std::chrono::milliseconds(500);
// Then the other ranks wait this much longer before they exit, so that rank 0 has saved and
// spoken first: once a rank exits, mpirun starts ending the others, and a second SIGTERM ends a
// rank at once (the handler is one-shot, see signals.hpp).
constexpr auto kLinger = std::chrono::milliseconds(200);

enum Tag : int { kUnitsTag = 1, kDoneTag = 2 };

// ---- finished units on the wire --------------------------------------------------------------
// A unit travels as 8 uint64 words (id, total, orbits of 1/2/4/8, nodes, microseconds), so a
// batch is one MPI_UINT64_T array: no derived datatype, no padding, the same on every node.
// Tallies are 64-bit per unit (see kernel.hpp); only rank 0 sums them, in 128 bits. A rank
// times every unit it counts.
constexpr std::size_t kRecordWords = 8;

void encode(const UnitCount& unit, std::vector<std::uint64_t>& words) {
  words.push_back(static_cast<std::uint64_t>(unit.id));
  words.push_back(unit.tally.total);
  words.insert(words.end(), unit.tally.orbits.begin(), unit.tally.orbits.end());
  words.push_back(unit.tally.nodes);
  words.push_back(unit.microseconds);
}

UnitCount decode(const std::uint64_t* words) {
  UnitCount unit;
  unit.id = static_cast<std::size_t>(words[0]);
  unit.tally.total = words[1];
  std::copy(words + 2, words + 6, unit.tally.orbits.begin());
  unit.tally.nodes = words[6];
  unit.microseconds = words[7];
  return unit;
}

// ---- what a rank does with the units it finished ---------------------------------------------

class Role {
 public:
  virtual ~Role() = default;
  virtual void deliver(const std::vector<UnitCount>& units) = 0;
  //! Rank 0: takes in what the other ranks sent and shows progress. The others: nothing.
  virtual void poll() {}
  //! After this rank's last unit.
  virtual void finish() = 0;
  //! After a signal, once the units in flight had their grace (until `grace_end`): rank 0 saves
  //! what finished and says how to resume. The caller then ends the process.
  virtual void wind_up(int signal, Clock::time_point grace_end) = 0;
};

[[noreturn]] void exit_interrupted(Role& role, int signal, Clock::time_point grace_end) {
  role.wind_up(signal, grace_end);
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(shell::interrupted_exit_code(signal));
}

// Rank 0: every finished unit, its own or another rank's, goes to the ledger, the journal and
// the progress line. Only rank 0 writes the journal, so the file is the same one `nqueens
// count --checkpoint` writes, and a run may be resumed with any number of ranks, or none.
class Collector final : public Role {
 public:
  Collector(const World& world, Run& run, shell::Progress* progress, Clock::time_point start)
      : world_(world), run_(run), progress_(progress), start_(start) {}

  void deliver(const std::vector<UnitCount>& units) override {
    for (const UnitCount& unit : units) {
      run_.record(unit);
      if (progress_) progress_->unit_done(unit.id, unit.tally);
    }
  }

  void poll() override {
    int arrived = 0;
    MPI_Status status;
    while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, world_.comm(), &arrived, &status) == MPI_SUCCESS && arrived)
      receive(status);
    if (progress_) progress_->tick();
  }

  // Rank 0's own units are done; the others' keep arriving until each rank says it is done.
  void finish() override {
    while (ranks_done_ < world_.size() - 1) {
      if (const int signal = shell::interrupt_signal()) exit_interrupted(*this, signal, Clock::now());
      poll();
      std::this_thread::sleep_for(kPoll);
    }
    if (progress_) progress_->finish();
  }

  void wind_up(int signal, Clock::time_point) override {
    poll();  // what the other ranks finished in their grace period
    if (progress_) progress_->finish();
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    shell::report_interrupt("nqueens-mpi", signal, seconds, run_);
  }

 private:
  void receive(const MPI_Status& status) {
    int words = 0;
    MPI_Get_count(&status, MPI_UINT64_T, &words);
    std::vector<std::uint64_t> buffer(static_cast<std::size_t>(words));
    MPI_Recv(buffer.data(), words, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG, world_.comm(), MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kDoneTag) {
      ++ranks_done_;
      return;
    }
    if (buffer.size() % kRecordWords != 0)
      throw std::runtime_error(
          fmt::format("rank {} sent a message of {} words, not whole unit records", status.MPI_SOURCE, buffer.size()));
    std::vector<UnitCount> units;
    for (std::size_t at = 0; at < buffer.size(); at += kRecordWords) units.push_back(decode(&buffer[at]));
    deliver(units);
  }

  const World& world_;
  Run& run_;
  shell::Progress* progress_;
  Clock::time_point start_;  //!< the whole run's start, for the interrupt message
  int ranks_done_ = 0;       //!< other ranks that have sent their last unit
};

// Every other rank: finished units go to rank 0 in one message per batch, then a last, empty
// message says this rank is done. MPI keeps messages between two ranks in order, so the last
// one arrives after every unit.
class Courier final : public Role {
 public:
  explicit Courier(const World& world) : world_(world) {}

  void deliver(const std::vector<UnitCount>& units) override {
    if (units.empty()) return;
    std::vector<std::uint64_t> words;
    words.reserve(units.size() * kRecordWords);
    for (const UnitCount& unit : units) encode(unit, words);
    MPI_Send(words.data(), static_cast<int>(words.size()), MPI_UINT64_T, 0, kUnitsTag, world_.comm());
  }

  void finish() override { MPI_Send(nullptr, 0, MPI_UINT64_T, 0, kDoneTag, world_.comm()); }

  // Rank 0 tells the user; this rank leaves quietly, after it.
  void wind_up(int, Clock::time_point grace_end) override { std::this_thread::sleep_until(grace_end + kLinger); }

 private:
  const World& world_;
};

// ---- one rank's loop ---------------------------------------------------------------------------

// How many list positions to draw at once. A rank keeps its `threads` units running and up to
// as many again waiting behind them (about 2 x threads in hand): when a thread finishes, its
// next unit is already there, so no thread waits on the network, while little work sits in one
// rank's hands where an idle rank cannot take it. Near the end the draw shrinks to a share of
// what is left, 1 / (2 x ranks), down to single units, so the last units (the cheapest: the
// list is costliest first) spread over every rank instead of queueing behind one.
std::uint64_t draw_size(std::uint64_t remaining, std::size_t waiting, int ranks, int threads) {
  const std::uint64_t room = static_cast<std::uint64_t>(threads) - waiting;
  const std::uint64_t share = remaining / (2 * static_cast<std::uint64_t>(ranks));
  return std::max<std::uint64_t>(1, std::min(room, share));
}

// Stops drawing, gives the units running their grace, passes on what finished, and ends the
// process (rank 0 after saving and saying how to resume).
[[noreturn]] void stop_on_signal(int signal, RankArena& arena, Role& role) {
  arena.stop();
  const Clock::time_point deadline = Clock::now() + kGrace;
  while (arena.in_flight() > 0 && Clock::now() < deadline) {
    role.deliver(arena.take_finished());
    role.poll();
    arena.wait(kPoll);
  }
  role.deliver(arena.take_finished());
  exit_interrupted(role, signal, deadline);
}

// Keeps the arena fed from the dispenser and passes finished units on, until the list is drawn
// dry and this rank's last unit is done. Returns how many units this rank counted.
std::size_t feed(const World& world, Dispenser& dispenser, RankArena& arena, const std::vector<std::uint64_t>& todo,
                 Role& role, int threads) {
  bool drawn_dry = todo.empty();
  std::size_t counted = 0;
  for (;;) {
    if (const int signal = shell::interrupt_signal()) stop_on_signal(signal, arena, role);
    for (std::size_t waiting = arena.waiting(); !drawn_dry && waiting < static_cast<std::size_t>(threads);
         waiting = arena.waiting()) {
      const Block block = dispenser.draw(draw_size(dispenser.remaining(), waiting, world.size(), threads));
      drawn_dry = block.empty();
      for (std::uint64_t at = block.begin; at < block.end; ++at) arena.submit(static_cast<std::size_t>(todo[at]));
    }
    // Looked at before the finished units are taken, so none can finish unseen in between.
    const bool idle = drawn_dry && arena.in_flight() == 0;
    const std::vector<UnitCount> finished = arena.take_finished();
    counted += finished.size();
    role.deliver(finished);
    role.poll();
    if (idle) return counted;
    arena.wait(kPoll);
  }
}

// What every rank runs once the list is known.
void run_rank(const World& world, const Engine& engine, const std::vector<std::uint64_t>& todo, Role& role,
              int threads) {
  Dispenser dispenser(world, todo.size());
  RankArena arena(engine, threads);
  std::size_t counted = 0;
  // Caught here, while the arena still exists: unwinding it would wait for the units running
  // (minutes at large N), and a rank that fails must end the job at once.
  try {
    counted = feed(world, dispenser, arena, todo, role, threads);
    role.finish();
  } catch (const std::exception& error) {
    abort_job(world, error.what(), shell::kRuntime);
  }
  dispenser.close();
  spdlog::info("N={}: counted {} of {} units on this rank", engine.n(), counted, todo.size());
}

// ---- setting up one N ----------------------------------------------------------------------------

// Every rank splits the board itself. Ranks built from different sources could list different
// units; the fingerprint catches that before a single unit is counted.
void check_same_plan(const World& world, const Engine& engine) {
  const std::uint64_t mine = engine.header().fingerprint;
  std::uint64_t root = mine;
  broadcast(world, root);
  if (root != mine)
    throw std::runtime_error(
        fmt::format("the unit list here (fingerprint {}) differs from rank 0's ({}): "
                    "every rank must run the same nqueens-mpi build",
                    fingerprint_hex(mine), fingerprint_hex(root)));
}

// Rank 0 opens the run (the units asked for, the journal), and every rank learns whether that
// worked: a unit list that does not fit the run, a journal of another run or a damaged one end
// every rank the same way, with rank 0's message, instead of leaving the others waiting in the
// next collective call. Rank 0's engine moves into its run; the other ranks keep theirs.
std::unique_ptr<Run> open_agreed(const World& world, std::unique_ptr<Engine>& engine,
                                 const shell::RunSettings& settings) {
  int code = shell::kOk;
  std::string message;
  std::unique_ptr<Run> run;
  if (world.root()) {
    try {
      run = shell::open_run(std::move(engine), settings);
    } catch (const std::invalid_argument& bad) {  // a unit list or a journal of another run: bad input
      code = shell::kUsage;
      message = bad.what();
    } catch (const std::exception& failure) {
      code = shell::kRuntime;
      message = failure.what();
    }
  }
  broadcast(world, code);
  if (code != shell::kOk) throw AgreedExit(code, message);
  return run;
}

shell::RunOutcome count_as_root(const World& world, Run& run, int threads, const shell::RunSettings& settings,
                                Clock::time_point start) {
  // The ids still to count, costliest first: the list every rank draws positions in.
  std::vector<std::uint64_t> todo(run.todo().begin(), run.todo().end());
  broadcast(world, todo);
  if (!todo.empty()) {
    std::unique_ptr<shell::Progress> progress;
    if (settings.progress.enabled)
      progress = std::make_unique<shell::Progress>(run.engine(), run.todo(), run.done(), settings.progress);
    Collector collector(world, run, progress.get(), settings.run_start);
    run_rank(world, run.engine(), todo, collector, threads);
  }
  return shell::outcome_of(run, settings, threads, start);
}

void count_as_worker(const World& world, const Engine& engine, int threads) {
  std::vector<std::uint64_t> todo;
  broadcast(world, todo);
  if (todo.empty()) return;
  Courier courier(world);
  run_rank(world, engine, todo, courier, threads);
}

}  // namespace

std::optional<shell::RunOutcome> count_distributed(const World& world, int n, const CountOptions& options,
                                                   const shell::RunSettings& session) {
  const Clock::time_point start = Clock::now();
  const int threads = resolve_threads(options.threads);
  std::unique_ptr<Engine> engine = make_engine(n, options);
  check_same_plan(world, *engine);
  const std::unique_ptr<Run> run = open_agreed(world, engine, session);
  if (!world.root()) {
    count_as_worker(world, *engine, threads);
    return std::nullopt;
  }
  return count_as_root(world, *run, threads, session, start);
}

}  // namespace nqueens::mpi
