#include "engine/thread_allowance.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "engine/memory_budget.hpp"
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
std::atomic<int> proven{0};

// Whether `bytes` of address space can still be mapped, tried by mapping them (no memory is
// touched, so none is used): what the limit leaves, measured rather than reckoned.
bool address_space_free(std::size_t bytes) {
  void* const probe = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (probe == MAP_FAILED) return false;
  ::munmap(probe, bytes);
  return true;
}

std::size_t tbb_stack_size() { return tbb::global_control::active_value(tbb::global_control::thread_stack_size); }

// What starting one thread of oneTBB's stack size maps, measured while it is alive; 0 when it
// cannot be told.
std::uint64_t one_thread_mapped() {
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  if (tbb_stack_size() > 0) pthread_attr_setstacksize(&attributes, tbb_stack_size());
  Gate gate;
  const std::uint64_t before = mapped_address_space();
  pthread_t thread;
  const bool started = pthread_create(&thread, &attributes, wait_at_gate, &gate) == 0;
  pthread_attr_destroy(&attributes);
  if (!started) return 0;
  const std::uint64_t alive = mapped_address_space();
  {
    const std::lock_guard<std::mutex> guard(gate.lock);
    gate.open = true;
  }
  gate.opened.notify_all();
  pthread_join(thread, nullptr);
  return before != 0 && alive > before ? alive - before : 0;
}

// What starting oneTBB maps: nothing more where it has started already (what it holds is mapped
// then, and counted in what is left). 0 when it cannot be told.
std::uint64_t library_mapped() {
  try {
    const std::uint64_t before = mapped_address_space();
    tbb::task_arena arena(1, 1);
    arena.initialize();
    const std::uint64_t after = mapped_address_space();
    return before != 0 && after > before ? after - before : 0;
  } catch (const std::exception&) {  // no room to start it: the estimate below
    return 0;
  }
}

// oneTBB's start maps about 7 MiB; under a low limit it is cut short (half of it, or nothing, is
// measured then), and a limit reckoned from that was refused again.
constexpr std::uint64_t kLibraryAtLeast = 8u << 20;

// What one thread and oneTBB's start map where it cannot be measured: the stack and a 64 KiB
// margin, and kLibraryAtLeast.
ThreadRoom reckoned_thread_room() { return {tbb_stack_size() + (64u << 10), kLibraryAtLeast}; }

ThreadRoom measure_thread_room() {
  ThreadRoom room{one_thread_mapped(), library_mapped()};
  if (room.per_thread == 0) room.per_thread = reckoned_thread_room().per_thread;
  if (room.library == 0 && mapped_address_space() == 0) room.library = reckoned_thread_room().library;
  return room;
}

}  // namespace

ThreadRoom measured_thread_room() {
  static const ThreadRoom room = measure_thread_room();
  return room;
}

namespace {

// Under `ulimit -v` it is the stacks and the thread library's own memory that do not fit: the
// message says how much they need, how much was left, and the thread count or the limit that
// would do, so that the setting changed is the right one and by enough.

// The limit, in KiB, that holds the program and `threads` threads: what it maps now beside their
// room, and never less than what it maps at its start under a limit that holds it
// (program_at_start) with oneTBB's whole start and their room beside it; a MiB to spare. Under a
// low limit the program had not yet mapped all it maps under a higher one (the unwinder's thread's
// stack, the rest of oneTBB's start), and the first limit named was refused again with a higher one.
std::uint64_t limit_kib_for_threads(int threads, std::uint64_t left) {
  struct rlimit limit {};
  getrlimit(RLIMIT_AS, &limit);
  const auto most = static_cast<std::uint64_t>(limit.rlim_cur);
  const std::uint64_t now = (most > left ? most - left : 0) + room_for_threads(threads);
  const ThreadRoom room = measured_thread_room();
  const std::uint64_t library = std::max(room.library, kLibraryAtLeast);
  const std::uint64_t from_start = program_at_start() + library + room_for_threads(threads) - room.library + library;
  return (std::max(now, from_start) + (1u << 20) + 1023) >> 10;
}

}  // namespace

std::uint64_t limit_kib_before_measuring(int threads) {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  // The stack of the thread the program starts and ends first (load_unwinder), and its guard.
  std::size_t first_thread = 0;
  pthread_attr_t defaults;
  if (pthread_getattr_default_np(&defaults) == 0) {
    pthread_attr_getstacksize(&defaults, &first_thread);
    pthread_attr_destroy(&defaults);
  }
  const ThreadRoom room = reckoned_thread_room();
  const std::uint64_t holds =
      static_cast<std::uint64_t>(limit.rlim_cur) + first_thread + 4096 + room.library + room_for_threads(threads, room);
  return (holds + (1u << 20) + 1023) >> 10;
}

namespace {

std::string address_space_refusal(int threads, int beside, std::uint64_t left, std::size_t stack) {
  const std::uint64_t need = room_for_threads(threads);
  const std::uint64_t raised_kib = limit_kib_for_threads(threads, left);
  // In --threads: an MPI rank's own thread is not one of them (-t 1 there is 2 threads).
  int fitting = threads - 1;
  while (fitting > beside && room_for_threads(fitting) > left) --fitting;
  fitting -= beside;
  return "cannot run " + std::to_string(threads) + " threads under " + address_space_limit_text() +
         ": they need about " + format_bytes(need) + " of address space (a stack of " + format_bytes(stack) +
         " each and the thread library's own) and " + format_bytes(left) + " is left; " +
         (fitting > 0 ? "give --threads " + std::to_string(fitting) + " or fewer, or raise the limit to ulimit -v " +
                            std::to_string(raised_kib)
                      : "raise the limit to ulimit -v " + std::to_string(raised_kib) + " or more");
}

}  // namespace

void prove_threads(int threads, int beside) {
  if (threads <= proven.load()) return;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  const std::size_t stack = tbb::global_control::active_value(tbb::global_control::thread_stack_size);
  if (stack > 0) pthread_attr_setstacksize(&attributes, stack);
  const std::uint64_t left = address_space_left();
  Gate gate;
  std::vector<pthread_t> started;
  int failure = 0;
  for (int i = 1; i < threads && failure == 0; ++i) {
    pthread_t thread;
    failure = pthread_create(&thread, &attributes, wait_at_gate, &gate);
    if (failure == 0) started.push_back(thread);
  }
  // The stacks are mapped now; the rest of the threads' room must be free beside them.
  const std::uint64_t rest = room_for_threads(threads) - static_cast<std::uint64_t>(started.size()) * stack;
  const bool room_left = failure == 0 && (left == 0 || address_space_free(rest));
  pthread_attr_destroy(&attributes);
  {
    const std::lock_guard<std::mutex> guard(gate.lock);
    gate.open = true;
  }
  gate.opened.notify_all();
  for (const pthread_t thread : started) pthread_join(thread, nullptr);
  if (left != 0 && (failure != 0 || !room_left))
    throw ThreadsUnavailable(address_space_refusal(threads, beside, left, stack));
  if (failure != 0)
    throw ThreadsUnavailable("cannot run " + std::to_string(threads) + " threads: the system started only " +
                             std::to_string(started.size() + 1) + " (" + std::strerror(failure) +
                             "); ask for fewer threads");
  int known = proven.load();
  while (known < threads && !proven.compare_exchange_weak(known, threads)) {
  }
}

int proven_threads() { return std::max(proven.load(), 1); }

}  // namespace detail

}  // namespace nqueens
