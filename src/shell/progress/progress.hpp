#pragma once
// Progress of one count on stderr: a status line redrawn in place when stderr is a terminal
// (fitted to its width, redrawn at once when the window is resized), otherwise one timestamped
// log line every few seconds (batch jobs keep their logs readable). On a terminal where another
// process draws its status too (shared_terminal.hpp), a line every few seconds, as in a log.
//
// Workers report each finished unit with three relaxed atomic adds; everything else (the
// clock, formatting, writing) happens on the thread that calls tick(). Nothing is touched per
// search node, so progress costs nothing measurable on the hot path.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "shell/progress/eta.hpp"
#include "shell/progress/status_line.hpp"

namespace nqueens::shell {

struct ProgressOptions {
  bool enabled = true;
  double interval_seconds = 60;  //!< between log lines when stderr is not a terminal
  std::string part;              //!< the part of the run counted ("shard 2/4"), named on every line
  //! The threads of this process that count: the ETA runs on their CPU time (eta.hpp). 0: the
  //! wall clock, for a progress of work counted elsewhere too (nqueens-mpi's rank 0 shows every rank's).
  int threads = 0;
};

class Progress {
 public:
  //! `todo`: the units this run will count; `done`: the units already counted (a journal's).
  Progress(const Engine& engine, const std::vector<std::size_t>& todo, const std::vector<std::size_t>& done,
           const ProgressOptions& options);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  //! One unit finished. Thread-safe, lock-free.
  void unit_done(std::size_t id, const Tally& tally);

  //! Draws or logs the status if it is due. Call from one thread, a few times a second. Never
  //! throws: progress is not worth a count.
  void tick() noexcept;

  //! Erases the status line, if one is drawn.
  void finish() noexcept;

  //! What the line shows now; advances the ETA's smoothing.
  ProgressSnapshot snapshot();
  //! What it shows after `elapsed_seconds` by the wall clock in which the process took
  //! `cpu_seconds` of CPU time, both since it was made (snapshot() reads the clocks).
  ProgressSnapshot snapshot_at(double elapsed_seconds, double cpu_seconds);

 private:
  int n_;
  std::string part_;
  const Engine& engine_;          //!< its costs weigh the units done against those left
  std::size_t units_total_ = 0;   //!< units of this run, counted before or now
  std::size_t units_before_ = 0;  //!< of which counted before this process started
  std::uint64_t cost_total_ = 0;
  std::uint64_t cost_before_ = 0;
  bool terminal_ = false;  //!< the status is drawn in place (a terminal no other status is drawn on)
  std::chrono::steady_clock::duration period_;
  std::chrono::steady_clock::duration line_period_;  //!< between lines on a terminal shared with another status
  int threads_ = 0;                                  //!< ProgressOptions::threads
  std::chrono::steady_clock::time_point start_;
  double cpu_start_ = 0;  //!< the process's CPU seconds when it was made: the setup's are not the count's
  std::chrono::steady_clock::time_point next_;
  bool drawn_ = false;
  EtaSmoother eta_;

  std::atomic<std::size_t> units_done_{0};
  std::atomic<std::uint64_t> cost_done_{0};
  std::atomic<std::uint64_t> solutions_{0};
};

//! A run's setup on stderr, in the same two forms: "setting up N=27: estimating unit costs" on
//! the status line, or a log line every interval, so that minutes of tables being built are not
//! minutes of silence. The engine names its phases as they start (setup_stop.hpp) on the
//! thread that runs the setup; the status is drawn by the thread that watches it.
class SetupStatus {
 public:
  SetupStatus(int n, const ProgressOptions& options);
  ~SetupStatus();
  SetupStatus(const SetupStatus&) = delete;
  SetupStatus& operator=(const SetupStatus&) = delete;

  //! The listener of setup_stop.hpp: the phase that starts now (also a debug log line).
  static void enter_phase(std::string_view phase);

  //! Draws or logs the status if it is due. Never throws.
  void tick() noexcept;

 private:
  int n_;
  std::string part_;
  bool terminal_ = false;  //!< as Progress's
  std::chrono::steady_clock::duration period_;
  std::chrono::steady_clock::duration line_period_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
  bool drawn_ = false;
};

//! Makes SIGWINCH set a flag that the next tick() reads, to redraw at the new width at once.
//! Installed by the first Progress on a terminal.
void watch_window_size();

}  // namespace nqueens::shell
