#include "engine/setup_stop.hpp"

#include "nqueens/options.hpp"

namespace nqueens::detail {

namespace {

std::atomic<const std::atomic<bool>*> setup_stop{nullptr};
std::atomic<SetupListener> setup_listener{nullptr};

}  // namespace

SetupScope::SetupScope(const std::atomic<bool>* stop, SetupListener listener) {
  setup_stop.store(stop);
  setup_listener.store(listener);
}

SetupScope::~SetupScope() {
  setup_stop.store(nullptr);
  setup_listener.store(nullptr);
}

void check_setup_stop() {
  const std::atomic<bool>* stop = setup_stop.load(std::memory_order_relaxed);
  if (stop && stop->load(std::memory_order_relaxed)) throw Cancelled("the setup of the run was stopped");
}

void setup_phase(std::string_view name) {
  check_setup_stop();
  if (const SetupListener listener = setup_listener.load()) listener(name);
}

}  // namespace nqueens::detail
