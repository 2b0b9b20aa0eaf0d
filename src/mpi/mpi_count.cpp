#include "mpi_count.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "dispenser.hpp"
#include "draw_policy.hpp"
#include "nqueens/files/journal.hpp"
#include "rank_arena.hpp"
#include "run/registry.hpp"
#include "run/run.hpp"
#include "shell/options/count_options.hpp"
#include "shell/progress/progress.hpp"
#include "shell/supervision/exit_codes.hpp"
#include "shell/supervision/signals.hpp"

namespace nqueens::mpi {

namespace {

// A step that may fail on one rank, as the exit code and the one line every rank then agrees on
// (agree_on_step): out of memory gets the --memory advice, anything else its own text.
struct StepOutcome {
  int code = shell::kOk;
  std::string message;
};

template <class Step>
StepOutcome run_step(Step&& step) {
  try {
    step();
    return {};
  } catch (const std::exception& error) {
    return {shell::kRuntime, shell::failure_text(error)};
  }
}

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
// spoken first: once a rank exits, mpirun starts ending the others (with SIGTERM, which a rank
// winding up ignores, then SIGKILL).
constexpr auto kLinger = std::chrono::milliseconds(200);
// Finished units travel to rank 0 in batches of at most this many units (256 KiB) ...
constexpr std::size_t kBatchUnits = 4096;
// ... and a batch waits at most this long to fill: a rank killed outright (kill -9, a node
// lost) loses at most this much of its finished units besides those it was counting. On
// SIGTERM a rank sends what waits at once.
constexpr auto kBatchAge = std::chrono::milliseconds(200);
// How often a main thread with nothing else to do looks at messages still on their way.
constexpr auto kShortPoll = std::chrono::milliseconds(1);
// How often a rank looks whether another rank failed (one atomic read on rank 0's window): a rank
// with units queued draws seldom, and must not count them once the job is ending.
constexpr auto kLookForFailure = std::chrono::milliseconds(100);

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
  //! Rank 0: takes in what the other ranks sent and shows progress. The others: send the batch
  //! waiting, once it is old enough.
  virtual void poll() {}
  //! The others: send the batch waiting, now. Rank 0: nothing (it records what it is given).
  virtual void flush() {}
  //! After this rank's last unit.
  virtual void finish() = 0;
  //! After a signal, once the units in flight had their grace (until `grace_end`): rank 0 saves
  //! what finished and says how to resume. The caller then ends the process.
  virtual void wind_up(int signal, Clock::time_point grace_end) = 0;
};

// Once a rank winds up after SIGINT or SIGTERM, further ones are ignored. mpirun answers the
// first rank to exit with SIGTERM to the others: a rank 0 that noticed the first signal a moment
// after the others (a busy machine) would otherwise die of it before saying what it saved. Its
// wind-up lasts under a second, and mpirun's SIGKILL still ends a rank that overstays.
void ignore_further_interrupts() {
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
}

[[noreturn]] void exit_interrupted(Role& role, int signal, Clock::time_point grace_end) {
  ignore_further_interrupts();
  role.wind_up(signal, grace_end);
  std::fflush(stdout);
  std::fflush(stderr);
  shell::remove_interrupt_leftovers();
  std::_Exit(shell::interrupted_exit_code(signal));
}

// Rank 0: every finished unit, its own or another rank's, goes to the ledger, the journal and
// the progress line. Only rank 0 writes the journal, so the file is the same one `nqueens
// count --checkpoint` writes, and a run may be resumed with any number of ranks, or none.
class Collector final : public Role {
 public:
  Collector(const World& world, Run& run, shell::Progress* progress, Clock::time_point start)
      : world_(world), run_(run), progress_(progress), start_(start) {}

  // A batch (another rank's message, or this rank's units since its last look) goes into the
  // ledger and the journal together: one write(2) for the whole batch.
  void deliver(const std::vector<UnitCount>& units) override {
    if (units.empty()) return;
    run_.record(std::span<const UnitCount>(units));
    if (progress_)
      for (const UnitCount& unit : units) progress_->unit_done(unit.id, unit.tally);
  }

  // Messages are received without blocking: a batch is large (up to 256 KiB), and a blocking
  // receive would spin until the sender, whose main thread sleeps between looks, had pushed it
  // all through. Each look matches what has arrived and takes in what has completed.
  void poll() override {
    int arrived = 0;
    MPI_Message message;
    MPI_Status status;
    while (MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, world_.comm(), &arrived, &message, &status) == MPI_SUCCESS &&
           arrived) {
      int words = 0;
      MPI_Get_count(&status, MPI_UINT64_T, &words);
      Incoming& in = incoming_.emplace_back();
      in.source = status.MPI_SOURCE;
      in.done = status.MPI_TAG == kDoneTag;
      in.words.resize(static_cast<std::size_t>(words));
      MPI_Imrecv(in.words.data(), words, MPI_UINT64_T, &message, &in.request);
    }
    std::erase_if(incoming_, [this](Incoming& in) {
      int complete = 0;
      MPI_Test(&in.request, &complete, MPI_STATUS_IGNORE);
      if (complete) take_in(in);
      return complete != 0;
    });
    if (progress_) progress_->tick();
  }

  // Rank 0's own units are done; the others' keep arriving until each rank says it is done. A
  // rank's last message is matched after all its others (MPI keeps their order), so once every
  // rank has said so and nothing is on its way, every unit is in.
  void finish() override {
    while (ranks_done_ < world_.size() - 1 || !incoming_.empty()) {
      if (const int signal = shell::interrupt_signal()) exit_interrupted(*this, signal, Clock::now());
      poll();
      std::this_thread::sleep_for(kShortPoll);
    }
    if (progress_) progress_->finish();
  }

  // What the other ranks finished in their grace period reaches rank 0 shortly after it: they
  // send at the end of their grace and leave kLinger after it; rank 0 listens for half of that.
  void wind_up(int signal, Clock::time_point grace_end) override {
    for (const Clock::time_point until = grace_end + kLinger / 2; Clock::now() < until;) {
      poll();
      std::this_thread::sleep_for(kShortPoll);
    }
    poll();
    if (progress_) progress_->finish();
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    shell::report_interrupt("nqueens-mpi", signal, seconds, run_);
  }

 private:
  //! A message matched, its receive under way. The buffer's memory stays put when the vector
  //! that holds it moves.
  struct Incoming {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<std::uint64_t> words;
    int source = 0;
    bool done = false;  //!< the rank's last message
  };

  void take_in(const Incoming& in) {
    if (in.done) {
      ++ranks_done_;
      return;
    }
    if (in.words.size() % kRecordWords != 0)
      throw std::runtime_error(
          fmt::format("rank {} sent a message of {} words, not whole unit records", in.source, in.words.size()));
    std::vector<UnitCount> units;
    units.reserve(in.words.size() / kRecordWords);
    for (std::size_t at = 0; at < in.words.size(); at += kRecordWords) units.push_back(decode(&in.words[at]));
    deliver(units);
  }

  const World& world_;
  Run& run_;
  shell::Progress* progress_;
  Clock::time_point start_;         //!< the whole run's start, for the interrupt message
  int ranks_done_ = 0;              //!< other ranks that have sent their last unit
  std::vector<Incoming> incoming_;  //!< in the order matched
};

// Every other rank: finished units wait in a batch, which goes to rank 0 as one message when it
// holds kBatchUnits units or its first unit has waited kBatchAge; then a last, empty message
// says this rank is done. MPI keeps messages between two ranks in order, so the last one
// arrives after every unit.
class Courier final : public Role {
 public:
  Courier(const World& world, std::chrono::microseconds latency) : world_(world), latency_(latency) {}

  void deliver(const std::vector<UnitCount>& units) override {
    for (const UnitCount& unit : units) {
      if (waiting_ == 0) since_ = Clock::now();
      encode(unit, words_);
      if (++waiting_ == kBatchUnits) flush();
    }
  }

  void poll() override {
    if (waiting_ > 0 && Clock::now() - since_ >= kBatchAge) flush();
    std::erase_if(sending_, [](Outgoing& out) {
      int complete = 0;
      MPI_Test(&out.request, &complete, MPI_STATUS_IGNORE);
      return complete != 0;
    });
  }

  // Sent without blocking: the send completes over this rank's later looks, while rank 0 takes
  // it in over its own, and neither spins waiting for the other.
  void flush() override {
    if (waiting_ == 0) return;
    if (latency_.count() > 0) std::this_thread::sleep_for(latency_);
    Outgoing& out = sending_.emplace_back();
    out.words.swap(words_);
    MPI_Isend(out.words.data(), static_cast<int>(out.words.size()), MPI_UINT64_T, 0, kUnitsTag, world_.comm(),
              &out.request);
    waiting_ = 0;
  }

  void finish() override {
    flush();
    MPI_Send(nullptr, 0, MPI_UINT64_T, 0, kDoneTag, world_.comm());
    drain(Clock::time_point::max());
  }

  // Rank 0 tells the user; this rank leaves quietly, after it.
  void wind_up(int, Clock::time_point grace_end) override {
    flush();
    drain(grace_end + kLinger);
    std::this_thread::sleep_until(grace_end + kLinger);
  }

 private:
  struct Outgoing {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<std::uint64_t> words;  //!< its memory stays put when the vector that holds it moves
  };

  // Until every send has completed (or `until`), looking every kShortPoll.
  void drain(Clock::time_point until) {
    for (poll(); !sending_.empty() && Clock::now() < until; poll()) std::this_thread::sleep_for(kShortPoll);
  }

  const World& world_;
  std::chrono::microseconds latency_;  //!< emulated (NQUEENS_MPI_LATENCY_US), before each send
  std::vector<std::uint64_t> words_;   //!< the batch, encoded
  std::size_t waiting_ = 0;            //!< units in it
  Clock::time_point since_;            //!< when its first unit came
  std::vector<Outgoing> sending_;      //!< batches on their way
};

// ---- one rank's loop ---------------------------------------------------------------------------

// Stops drawing, gives the units running their grace, passes on what finished, and ends the
// process (rank 0 after saving and saying how to resume).
[[noreturn]] void stop_on_signal(int signal, RankArena& arena, Role& role) {
  ignore_further_interrupts();
  arena.stop();
  const Clock::time_point deadline = Clock::now() + kGrace;
  while (arena.in_flight() > 0 && Clock::now() < deadline) {
    role.deliver(arena.take_finished());
    role.flush();
    role.poll();
    arena.wait(kPoll);
  }
  role.deliver(arena.take_finished());
  role.flush();
  exit_interrupted(role, signal, deadline);
}

// Hands the arena a drawn block of the to-do list in the batches the engine counts together
// (Engine::batch_starts): the block is a run of the execution order, as a batch is.
void submit_batches(const Engine& engine, RankArena& arena, const std::vector<std::uint64_t>& todo, const Block& block,
                    const DrawPolicy& policy) {
  std::vector<std::size_t> ids;
  for (std::uint64_t at = block.begin; at < block.end; ++at) ids.push_back(static_cast<std::size_t>(todo[at]));
  std::vector<std::size_t> starts = engine.batch_starts(ids);
  if (starts.empty())
    for (std::size_t i = 0; i < ids.size(); ++i) starts.push_back(i);
  for (std::size_t b = 0; b < starts.size(); ++b) {
    const std::size_t first = starts[b], last = b + 1 < starts.size() ? starts[b + 1] : ids.size();
    arena.submit(std::span(ids).subspan(first, last - first), policy.cost(block.begin + first, block.begin + last));
  }
}

// Keeps the arena fed from the dispenser and passes finished units on, until the list is drawn
// dry and this rank's last unit is done. Returns how many units this rank counted. The main
// thread sleeps until the arena's queue runs low (draw_policy.hpp) or kPoll passes: it does not
// wake for every unit that finishes, which at the join's grain (tens of microseconds) would take
// a core's worth of wake-ups from the threads that count.
std::size_t feed(const World& world, const Engine& engine, Dispenser& dispenser, RankArena& arena,
                 const std::vector<std::uint64_t>& todo, Role& role, int threads, std::chrono::microseconds latency) {
  std::vector<std::uint64_t> costs(todo.size());
  for (std::size_t at = 0; at < todo.size(); ++at) costs[at] = engine.cost(static_cast<std::size_t>(todo[at]));
  DrawPolicy policy(costs, world.size(), threads);
  bool drawn_dry = todo.empty();
  std::size_t counted = 0;
  Clock::time_point next_look = Clock::now() + kLookForFailure;
  for (;;) {
    if (const int signal = shell::interrupt_signal()) stop_on_signal(signal, arena, role);
    // Another rank failed: what is queued here is dropped, the units running finish and are
    // passed on as usual (they reach the journal), and the job ends once every rank is done.
    if (!dispenser.failed() && Clock::now() >= next_look) {
      next_look = Clock::now() + kLookForFailure;
      dispenser.look();
    }
    if (dispenser.failed()) {
      drawn_dry = true;
      arena.stop();
    }
    while (!drawn_dry) {
      const double worth = policy.worth(dispenser.position());
      arena.set_low_water(worth);
      if (!arena.hungry()) break;
      if (latency.count() > 0) std::this_thread::sleep_for(latency);
      const Block block = dispenser.draw(policy.positions(dispenser.position(), worth));
      submit_batches(engine, arena, todo, block, policy);
      // The counter only grows: once it has passed the end, nothing is left for anyone.
      drawn_dry = block.empty() || dispenser.remaining() == 0;
    }
    if (drawn_dry) arena.set_low_water(std::nullopt);
    // Looked at before the finished units are taken, so none can finish unseen in between.
    const bool idle = drawn_dry && arena.in_flight() == 0;
    const std::vector<UnitCount> finished = arena.take_finished();
    for (const UnitCount& unit : finished) policy.learn(engine.cost(unit.id), unit.microseconds);
    counted += finished.size();
    role.deliver(finished);
    role.poll();
    if (idle) return counted;
    arena.wait(kPoll);
  }
}

// This rank failed (a unit ran out of memory, say). The other ranks learn it from the dispenser
// and stop drawing; this one drops what it queued, lets the units it runs end, and then says it is
// done as usual (rank 0 goes on taking in the others' units), so that every rank reaches the
// agreement that ends the job in one line from rank 0, without MPI's abort.
void wind_down_failed_rank(Dispenser& dispenser, RankArena& arena, Role& role) {
  dispenser.mark_failed();
  arena.stop();
  while (arena.in_flight() > 0) {
    role.poll();
    std::this_thread::sleep_for(kPoll);
  }
  role.finish();
}

// What every rank runs once the list is known.
void run_rank(const World& world, const Engine& engine, const std::vector<std::uint64_t>& todo, Role& role,
              RunArena& run_arena, std::chrono::microseconds latency) {
  const int threads = run_arena.threads();
  const std::size_t failing_unit = out_of_memory_test_unit(world.rank());
  Dispenser dispenser(world, todo.size());
  RankArena arena(engine, run_arena);
  if (failing_unit > 0) arena.fail_as_out_of_memory_at(failing_unit);
  std::size_t counted = 0;
  const auto [code, message] = run_step([&] {
    counted = feed(world, engine, dispenser, arena, todo, role, threads, latency);
    role.finish();
  });
  if (code != shell::kOk) {
    // Rank 0 failing to write its journal fails again here: then only MPI's abort is left.
    try {
      wind_down_failed_rank(dispenser, arena, role);
    } catch (const std::exception&) {
      abort_job(world, message, code);
    }
  }
  quiet_barrier(world);  // the ranks that finish first wait asleep, not spinning in MPI_Win_free
  dispenser.close();
  agree_on_step(world, code, message);
  spdlog::info("N={}: counted {} of {} units on this rank", engine.n(), counted, todo.size());
}

// ---- setting up one N ----------------------------------------------------------------------------

// Every rank builds N's engine itself, and any rank may find its memory or its address-space
// limit too small for that: every rank learns the verdict (agree_on_step), so the job ends in
// one line from rank 0 with the way on, rather than MPI's abort.
std::unique_ptr<Engine> build_engine(const World& world, const RunRequest& request, RunArena& arena) {
  std::unique_ptr<Engine> engine;
  // The rank's main thread stays out of the count (rank_arena.hpp): it builds the engine in the
  // arena as `nqueens count` does, and then only hands units in.
  const StepOutcome built = run_step([&] { engine = make_engine(request, arena); });
  agree_on_step(world, built.code, built.message);
  return engine;
}

// Every rank splits the board itself. Ranks built from different sources could list different
// units; the fingerprint catches that before a single unit is counted.
// A rank that differs says so to rank 0 (agree_on_step), which ends the job in one line.
void check_same_plan(const World& world, const Engine& engine) {
  const std::uint64_t mine = engine.header().fingerprint;
  std::uint64_t root = mine;
  broadcast(world, root);
  const bool same = root == mine;
  agree_on_step(world, same ? shell::kOk : shell::kRuntime,
                same ? std::string()
                     : fmt::format("the unit list here (fingerprint {}) differs from rank 0's ({}): "
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
      out_of_memory_test_step(world.rank(), "open");
      run = shell::open_run(std::move(engine), settings);
    } catch (const std::invalid_argument& bad) {  // a unit list or a journal of another run: bad input
      code = shell::kUsage;
      message = bad.what();
    } catch (const std::exception& failure) {
      code = shell::kRuntime;
      message = shell::failure_text(failure);
    }
  }
  broadcast(world, code);
  if (code != shell::kOk) throw AgreedExit(code, message);
  return run;
}

shell::RunOutcome count_as_root(const World& world, Run& run, RunArena& arena, const shell::RunSettings& settings,
                                Clock::time_point start) {
  // The ids still to count, costliest first: the list every rank draws positions in.
  std::vector<std::uint64_t> todo(run.todo().begin(), run.todo().end());
  broadcast(world, todo);
  if (!todo.empty()) {
    std::unique_ptr<shell::Progress> progress;
    if (settings.progress.enabled)
      progress = std::make_unique<shell::Progress>(run.engine(), run.todo(), run.done(), settings.progress);
    Collector collector(world, run, progress.get(), settings.run_start);
    run_rank(world, run.engine(), todo, collector, arena, emulated_latency());
  }
  return shell::outcome_of(run, settings, arena.threads(), start);
}

void count_as_worker(const World& world, const Engine& engine, RunArena& arena) {
  std::vector<std::uint64_t> todo;
  broadcast(world, todo);
  if (todo.empty()) return;
  const std::chrono::microseconds latency = emulated_latency();
  Courier courier(world, latency);
  run_rank(world, engine, todo, courier, arena, latency);
}

}  // namespace

std::chrono::microseconds emulated_latency() {
  const char* text = std::getenv("NQUEENS_MPI_LATENCY_US");
  if (text == nullptr || *text == '\0') return {};
  const char* end = text + std::strlen(text);
  std::uint32_t microseconds = 0;
  const auto [stop, error] = std::from_chars(text, end, microseconds);
  if (error != std::errc{} || stop != end || microseconds > 1'000'000)
    throw std::invalid_argument(fmt::format(
        "NQUEENS_MPI_LATENCY_US is '{}': a whole number of microseconds from 0 to 1000000 (a test setting)", text));
  return std::chrono::microseconds(microseconds);
}

std::size_t out_of_memory_test_unit(int rank_here) {
  const char* text = std::getenv("NQUEENS_MPI_OUT_OF_MEMORY_AT");
  if (text == nullptr || *text == '\0') return 0;
  const char* end = text + std::strlen(text);
  int rank = -1;
  std::size_t unit = 0;
  const auto [colon, rank_error] = std::from_chars(text, end, rank);
  std::from_chars_result unit_read{colon, std::errc::invalid_argument};
  if (colon < end && *colon == ':') unit_read = std::from_chars(colon + 1, end, unit);
  if (rank_error != std::errc{} || unit_read.ec != std::errc{} || unit_read.ptr != end || rank < 0 || unit == 0)
    throw std::invalid_argument(
        fmt::format("NQUEENS_MPI_OUT_OF_MEMORY_AT is '{}': RANK:UNIT, the rank and its unit (from 1) that runs "
                    "out of memory (a test setting)",
                    text));
  return rank == rank_here ? unit : 0;
}

void out_of_memory_test_step(int rank_here, std::string_view step) {
  const char* text = std::getenv("NQUEENS_MPI_OUT_OF_MEMORY_IN");
  if (text == nullptr || *text == '\0') return;
  const std::string_view setting(text);
  const std::size_t colon = setting.find(':');
  const std::string_view number = setting.substr(0, colon), named = setting.substr(std::min(colon + 1, setting.size()));
  const std::string_view steps[] = {"parse", "prepare", "check", "open", "output"};
  int rank = -1;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), rank);
  if (colon == std::string_view::npos || error != std::errc{} || end != number.data() + number.size() || rank < 0 ||
      std::find(std::begin(steps), std::end(steps), named) == std::end(steps))
    throw std::invalid_argument(
        fmt::format("NQUEENS_MPI_OUT_OF_MEMORY_IN is '{}': RANK:STEP, the rank that runs out of memory as it "
                    "starts STEP (parse, prepare, check, open or output; a test setting)",
                    text));
  if (rank == rank_here && named == step) throw std::bad_alloc();
}

std::unique_ptr<RunArena> rank_arena(const World& world, int threads) {
  std::unique_ptr<RunArena> arena;
  const StepOutcome made =
      run_step([&] { arena = std::make_unique<RunArena>(threads, RunArena::Caller::stays_apart); });
  agree_on_step(world, made.code, made.message);
  return arena;
}

std::optional<shell::RunOutcome> count_distributed(const World& world, const RunRequest& request,
                                                   const shell::RunSettings& session, RunArena& arena) {
  const Clock::time_point start = Clock::now();
  if (world.root()) {
    shell::log_resumed_engine(request, session);
    // The plan the request carries, made when the command was prepared.
    if (const std::string memory = memory_plan(request); !memory.empty()) spdlog::info("N={}: {}", request.n, memory);
  }
  std::unique_ptr<Engine> engine = build_engine(world, request, arena);
  check_same_plan(world, *engine);
  const std::unique_ptr<Run> run = open_agreed(world, engine, session);
  if (!world.root()) {
    count_as_worker(world, *engine, arena);
    return std::nullopt;
  }
  return count_as_root(world, *run, arena, session, start);
}

}  // namespace nqueens::mpi
