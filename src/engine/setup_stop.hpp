#pragma once
// Stopping a run's setup (an engine's unit list, cost estimates, orders) part-way. The setup runs
// in parallel loops on the engine's arena, far from the driver that catches a signal; the driver
// names a flag here for the setup's duration, and every loop of parallel_each.hpp reads it
// between indices and throws Cancelled once it is set. Phases are announced to a listener (the
// program logs them), so that a long setup is not a silent wait.
#include <atomic>
#include <string_view>

namespace nqueens::detail {

//! Called with each setup phase's name as it starts, on the thread that runs the setup.
using SetupListener = void (*)(std::string_view phase);

//! For its lifetime, `stop` (may be null) stops the setup and `listener` (may be null) hears
//! its phases. One at a time: the setup of one run.
class SetupScope {
 public:
  SetupScope(const std::atomic<bool>* stop, SetupListener listener);
  ~SetupScope();
  SetupScope(const SetupScope&) = delete;
  SetupScope& operator=(const SetupScope&) = delete;
};

//! Throws Cancelled when the current setup was asked to stop.
void check_setup_stop();

//! Tells the listener that the phase `name` starts (and checks for a stop).
void setup_phase(std::string_view name);

}  // namespace nqueens::detail
