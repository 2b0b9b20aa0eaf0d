#include "engine/thread_allowance.hpp"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "system/memory_limit.hpp"

namespace nqueens {

int resolve_threads(int requested) {
  if (requested < 0 || requested > kMaxThreads)
    throw std::invalid_argument("thread count must be between 1 and " + std::to_string(kMaxThreads) + ", got " +
                                std::to_string(requested));
  return requested == 0 ? hardware_threads() : requested;
}

namespace detail {

namespace {

// Probe threads wait here until every one has started, so that they exist together as a run's
// workers would; then they all end.
struct Gate {
  std::mutex lock;
  std::condition_variable opened;
  bool open = false;
};

// Where a probe thread leaves its allocation, so that the compiler keeps it.
std::atomic<void*> allocation_sink{nullptr};

void* wait_at_gate(void* argument) {
  Gate& gate = *static_cast<Gate*>(argument);
  // Allocate as a worker would: the C library gives a new thread its own heap arena (up to eight
  // per core), whose reserved memory counts against a limit like the stacks do.
  allocation_sink.store(std::malloc(64));
  std::free(allocation_sink.exchange(nullptr));
  std::unique_lock<std::mutex> guard(gate.lock);
  gate.opened.wait(guard, [&gate] { return gate.open; });
  return nullptr;
}

// The largest count proven so far in this process: proving costs a thread start each.
std::atomic<int> proven{1};

}  // namespace

void prove_threads(int threads) {
  if (threads <= proven.load()) return;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  const std::size_t stack = tbb::global_control::active_value(tbb::global_control::thread_stack_size);
  if (stack > 0) pthread_attr_setstacksize(&attributes, stack);
  Gate gate;
  std::vector<pthread_t> started;
  int failure = 0;
  for (int i = 1; i < threads && failure == 0; ++i) {
    pthread_t thread;
    failure = pthread_create(&thread, &attributes, wait_at_gate, &gate);
    if (failure == 0) started.push_back(thread);
  }
  pthread_attr_destroy(&attributes);
  {
    const std::lock_guard<std::mutex> guard(gate.lock);
    gate.open = true;
  }
  gate.opened.notify_all();
  for (const pthread_t thread : started) pthread_join(thread, nullptr);
  if (failure != 0) {
    // Under `ulimit -v` it is the stacks that do not fit: say so, so that the limit raised is the right one.
    const std::string limit = address_space_limit_text();
    throw ThreadsUnavailable("cannot run " + std::to_string(threads) + " threads: the system started only " +
                             std::to_string(started.size() + 1) + " (" + std::strerror(failure) +
                             (limit.empty() ? "" : ", their stacks under " + limit) + "); ask for fewer threads" +
                             (limit.empty() ? "" : " or raise the limit"));
  }
  int known = proven.load();
  while (known < threads && !proven.compare_exchange_weak(known, threads)) {
  }
}

}  // namespace detail

}  // namespace nqueens
