// The gpu engine (docs/algorithm.md, "The gpu engine"): the join's units, split, enumerated
// and scheduled on the host exactly as the join engine does, with each row set's pairs counted on
// a CUDA device. Its counts are the join's, unit by unit; its files name it, as every engine's do.
#include <atomic>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "engine/catalogue.hpp"
#include "engine/memory_budget.hpp"
#include "gpu/device_memory.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/kernel_architectures.hpp"
#include "gpu/slot_split.hpp"
#include "join/join_engine.hpp"

namespace nqueens {

namespace {

constexpr const char* kName = "gpu";

// Measured on one H100 against the join on its machine's 16 cores (docs/data/long-runs.md, "The gpu
// engine"): about even at N = 19 (1.5 s each), 2.8x at N = 20; below, the device's start and the
// per-batch waits cost more than the pairs it takes off the cores.
constexpr int kFasterFrom = 20;

// NQUEENS_GPU_SPLIT_BITS=0..8 caps the slot split (gpu/slot_split.hpp; 0: none), for measuring
// it against the same build (docs/data/long-runs.md, "The gpu engine").
int split_bits() {
  const char* text = std::getenv("NQUEENS_GPU_SPLIT_BITS");
  if (text == nullptr || *text == '\0') return gpu::kMaxSplitBits;
  const std::string value(text);
  if (value.size() != 1 || value[0] < '0' || value[0] > '0' + gpu::kMaxSplitBits)
    throw std::invalid_argument("NQUEENS_GPU_SPLIT_BITS must be 0 to " + std::to_string(gpu::kMaxSplitBits) +
                                ", not '" + value.substr(0, 20) + "'");
  return value[0] - '0';
}

// The host budget less the pinned buffers the threads' matchers take; throws when that leaves
// nothing for the join's own plan.
RunRequest host_request(const RunRequest& request) {
  const std::uint64_t budget = request.memory_bytes;
  const std::uint64_t pinned = static_cast<std::uint64_t>(request.threads) * gpu::matcher_bytes();
  if (budget <= pinned)
    throw std::invalid_argument("the gpu engine cannot count N=" + std::to_string(request.n) + ": a budget of " +
                                format_bytes(budget) + " is less than the " + format_bytes(pinned) +
                                " of pinned buffers its threads take (" + format_bytes(gpu::matcher_bytes()) +
                                " each)");
  RunRequest host = request;
  host.memory_bytes = budget - pinned;
  host.options.memory_bytes = host.memory_bytes;
  return host;
}

// The counting threads a device feeds: threads take the devices in turn.
std::uint64_t threads_per_device(std::uint64_t threads) {
  const std::uint64_t devices = gpu::devices().list.size();
  return (threads + devices - 1) / devices;
}

// Each device holds the quarter table once (where it fits its share) and the buffers of the
// threads that feed it.
std::string device_memory_problem(int n, const CountOptions& options) {
  // A refusal is asked of options as given (choose_engine), where 0 threads means every core.
  const std::uint64_t threads = static_cast<std::uint64_t>(resolve_threads(options.threads));
  for (const gpu::DeviceInfo& device : gpu::devices().list) {
    const std::uint64_t needed =
        gpu::plan_device_memory(n, device.memory_bytes).total_bytes(threads_per_device(threads));
    if (needed > device.memory_bytes / 2)
      return "too little device memory: " + std::to_string(threads) + " threads need " + format_bytes(needed) + " on " +
             device.name + ", more than half of its " + format_bytes(device.memory_bytes) + " (give fewer --threads)";
  }
  return "";
}

// A device whose compute capability none of the built kernels serves (older than sm_75, or
// a newer major version than this build's machine code with no PTX it can compile), or a build
// made without nvcc, which holds none.
std::string kernel_problem() {
  const gpu::BuiltKernels& built = gpu::built_kernels();
  const bool none = built.machine_code.empty() && built.ptx == 0;
  for (const gpu::DeviceInfo& device : gpu::devices().list)
    if (device.kernel.empty())
      return "this build has no kernel for " + device.name + " (compute capability " + std::to_string(device.major) +
             "." + std::to_string(device.minor) + "): it holds " +
             (none ? std::string("none (nvcc was not found when it was built)") : gpu::built_kernels_text(built));
  return "";
}

std::string refusal(int n, const CountOptions& options) {
  if (const std::string& why = gpu::devices().problem; !why.empty()) return why;
  if (std::string why = kernel_problem(); !why.empty()) return why;
  if (std::string why = join_engine_description().refusal(n, options); !why.empty()) return why;
  return device_memory_problem(n, options);
}

bool preferred_for(int n, const CountOptions& /*options*/) {
  return n >= kFasterFrom && !gpu::devices().list.empty() && kernel_problem().empty();
}

std::string device_plan(const RunRequest& request) {
  const gpu::Devices& found = gpu::devices();
  const gpu::DeviceInfo& first = found.list.front();
  const gpu::DeviceMemoryPlan plan = gpu::plan_device_memory(request.n, first.memory_bytes);
  const auto threads = static_cast<std::uint64_t>(request.threads);
  return "; on " + std::to_string(found.list.size()) + " device(s) " + first.name + ": " +
         format_bytes(gpu::matcher_bytes()) + " of pinned host memory per thread x " + std::to_string(threads) +
         "; on each device up to " + format_bytes(plan.total_bytes(threads_per_device(threads))) +
         (plan.table_shared ? ": the quarter table's entries once (" + format_bytes(plan.table_bytes) + ") and "
                            : ": ") +
         format_bytes(plan.matcher_bytes) + " per thread" + (plan.table_shared ? "" : ", each with its own slices");
}

// Where each device keeps the run's quarter table, decided before the run so that the log says
// it (a device out of memory for it leaves it to the threads' own rooms).
std::string table_homes(int n) {
  std::string text;
  for (std::size_t device = 0; device < gpu::devices().list.size(); ++device)
    text += std::string(device == 0 ? "" : "; ") + "device " + std::to_string(device) + ": the quarter table " +
            gpu::table_home_text(gpu::quarter_table_home(device, n / 2));
  return text;
}

std::unique_ptr<Engine> make(const RunRequest& request) {
  join::JoinVariant variant;
  variant.engine = kName;
  // Threads take the devices in turn: several devices in one process, one share of threads each.
  auto next = std::make_shared<std::atomic<std::size_t>>(0);
  gpu::SplitRule rule;
  rule.max_bits = split_bits();
  variant.make_matcher = [next, rule] {
    return gpu::make_device_matcher(next->fetch_add(1) % gpu::devices().list.size(), rule);
  };
  variant.describe = "pairs counted on " + gpu::devices_text() + "; " + table_homes(request.n);
  variant.matcher_bytes = gpu::matcher_bytes();
  return make_join_engine(host_request(request), std::move(variant));
}

// Its host's plan is the join's under the budget the pinned buffers leave: make() builds the
// join from it (host_request carries it along).
std::shared_ptr<const MemoryPlan> gpu_memory_plan(const RunRequest& request) {
  const join::JoinMemory host = join::plan_memory(host_request(request), kName);
  return std::make_shared<const join::JoinMemoryPlan>(
      std::string(kName) + " engine: host " + host.describe() + device_plan(request), host);
}

// `version`'s line: the devices, the kernel each runs, and every architecture built in.
std::string devices_and_kernels() {
  return gpu::devices_text() + "; kernels: " + gpu::built_kernels_text(gpu::built_kernels());
}

}  // namespace

const EngineDescription& gpu_engine_description() {
  static const EngineDescription description{
      .name = kName,
      .summary = "the join with its pairs counted on an NVIDIA GPU: the same units and counts",
      .refusal = refusal,
      .preferred_for = preferred_for,
      .make = make,
      .header_problem = join::header_problem,
      .partial_runs_report_unique = false,
      .yardstick = false,
      .cpu_path_key = "gpu_devices",
      .cpu_path = devices_and_kernels,
      .memory_plan = gpu_memory_plan,
      .path_seen_by = "this machine",
      .shares_units_of = "join",
  };
  return description;
}

}  // namespace nqueens
