// A stand-in for the CUDA driver (libcuda.so.1), for tests only: the calls the gpu engine makes
// (src/gpu/cuda_driver.cpp), on this CPU. Device memory is host memory, copies are memcpy, and a
// launch runs the kernel's host form at once (the build kernel nq_sort_sides: gpu/half_build.hpp's
// sort_sides_on_host; the plan's kernels: gpu/batch_plan.hpp; a matching kernel:
// gpu/tiles_on_host.hpp), so that the engine's buffers,
// batches, launches and errors run on machines without a GPU.
//
// Set by the environment:
//   NQUEENS_STAND_IN_DEVICES=N       devices it shows (default 1; 0: none)
//   NQUEENS_STAND_IN_FAIL=WHAT:K     the K-th call (from 1) of WHAT fails: alloc (cuMemAlloc:
//                                    out of memory), pinned (cuMemAllocHost: out of memory),
//                                    launch (cuLaunchKernel: launch failure)
//   NQUEENS_STAND_IN_SIGTERM_AT=K    the K-th launch sends the process SIGTERM before it counts
//   NQUEENS_STAND_IN_LAUNCHES=PATH   each launch appends its kernel's name, each copy to the
//                                    device "copy BYTES" and each copy back "back BYTES", a
//                                    line each, to PATH
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <utility>

#include <sys/types.h>
#include <unistd.h>

#include "gpu/batch_plan.hpp"
#include "gpu/cuda_api.hpp"
#include "gpu/half_build.hpp"
#include "gpu/job_tiles.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/plan_block.hpp"
#include "gpu/split_sample.hpp"
#include "gpu/tiles_on_host.hpp"

using namespace nqueens::gpu;  // NOLINT(google-build-using-namespace): the driver's types, as cuda.h names them

namespace {

int devices() {
  const char* text = std::getenv("NQUEENS_STAND_IN_DEVICES");
  return text ? std::atoi(text) : 1;
}

// Whether this call of `what` is the one NQUEENS_STAND_IN_FAIL names.
bool fails(const char* what, std::atomic<int>& calls) {
  const int call = ++calls;
  const char* text = std::getenv("NQUEENS_STAND_IN_FAIL");
  if (!text) return false;
  const std::string spec(text);
  const std::size_t colon = spec.find(':');
  return colon != std::string::npos && spec.substr(0, colon) == what && std::atoi(spec.c_str() + colon + 1) == call;
}

std::atomic<int> allocations{0}, pinned_allocations{0}, launches{0};

// A function handle: the build kernel, the pairings kernel, or a matching kernel's chunking,
// from its name (nq_match_w<width>_c<chunks>).
struct Function {
  enum class Kind : std::uint8_t {
    sort_sides,
    make_pairings,
    choose_splits,
    make_tiles,
    plan_row_sets,
    place_row_sets,
    write_plans,
    sum_row_sets,
    match
  } kind = Kind::match;
  Chunking chunking;
};

// A line for NQUEENS_STAND_IN_LAUNCHES's file, if it is set.
void log_line(const std::string& line) {
  const char* path = std::getenv("NQUEENS_STAND_IN_LAUNCHES");
  if (!path) return;
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  if (std::FILE* file = std::fopen(path, "a")) {
    std::fprintf(file, "%s\n", line.c_str());
    std::fclose(file);
  }
}

CUdevice checked_device(int index) { return index; }

// The plan's kernels (gpu/batch_plan.hpp, gpu/plan_block.hpp) by their host forms, the planning
// and placing ones on blocks of `block_threads`; false for any other kernel.
bool run_plan_kernel(Function::Kind kind, void** arguments, std::uint32_t block_threads) {
  using namespace nqueens::gpu;
  const auto pointer = [&](int i) { return reinterpret_cast<void*>(*static_cast<CUdeviceptr*>(arguments[i])); };
  const auto number = [&](int i) { return *static_cast<std::uint32_t*>(arguments[i]); };
  switch (kind) {
    case Function::Kind::plan_row_sets:
      log_line("nq_plan_row_sets");
      plan_row_sets_on_host(static_cast<const SideSort*>(pointer(0)), static_cast<const PlanRowSet*>(pointer(1)),
                            number(2), static_cast<const std::uint32_t*>(pointer(3)),
                            *static_cast<const PlanRule*>(arguments[4]), static_cast<std::uint32_t*>(pointer(5)),
                            static_cast<RowSetPlan*>(pointer(6)), HostBlock{block_threads});
      return true;
    case Function::Kind::place_row_sets:
      log_line("nq_place_row_sets");
      place_row_sets_on_host(static_cast<RowSetPlan*>(pointer(0)), static_cast<const PlanRowSet*>(pointer(1)),
                             number(2), static_cast<PlanTotals*>(pointer(3)), block_threads);
      return true;
    case Function::Kind::write_plans:
      log_line("nq_write_plans");
      write_plans_on_host(static_cast<const SideSort*>(pointer(0)), static_cast<const PlanRowSet*>(pointer(1)),
                          number(2), static_cast<const RowSetPlan*>(pointer(3)),
                          static_cast<const std::uint32_t*>(pointer(4)), static_cast<SideSort*>(pointer(5)),
                          static_cast<std::uint32_t*>(pointer(6)), static_cast<TileJob*>(pointer(7)),
                          static_cast<std::uint32_t*>(pointer(8)));
      return true;
    case Function::Kind::sum_row_sets:
      log_line("nq_sum_row_sets");
      sum_row_sets_on_host(static_cast<const RowSetPlan*>(pointer(0)), number(1),
                           static_cast<const std::uint64_t*>(pointer(2)), static_cast<RowSetResult*>(pointer(3)));
      return true;
    default: return false;
  }
}

}  // namespace

extern "C" {

// Tells the engine this driver runs the kernels' host form (gpu/cuda_driver.hpp).
int nqueens_stand_in_host_form = 1;

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  switch (error) {
    case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory (stand-in driver)"; break;
    case CUDA_ERROR_LAUNCH_FAILED: *text = "unspecified launch failure (stand-in driver)"; break;
    case CUDA_ERROR_NOT_FOUND: *text = "named symbol not found (stand-in driver)"; break;
    case CUDA_ERROR_INVALID_DEVICE: *text = "invalid device ordinal (stand-in driver)"; break;
    default: *text = "error (stand-in driver)";
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  *count = devices();
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int index) {
  if (index < 0 || index >= devices()) return CUDA_ERROR_INVALID_DEVICE;
  *device = checked_device(index);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  std::snprintf(name, static_cast<std::size_t>(length), "Stand-in GPU %d", device);
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(std::size_t* bytes, CUdevice) {
  *bytes = std::size_t{16} << 30;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 4; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 227 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *value = 228 * 1024; break;
    default: *value = 0;
  }
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  *context = reinterpret_cast<CUcontext>(static_cast<std::uintptr_t>(device) + 1);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  *module = reinterpret_cast<CUmodule>(const_cast<void*>(image));
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule, const char* name) {
  for (const auto& [known, kind] : {std::pair{"nq_sort_sides", Function::Kind::sort_sides},
                                    std::pair{"nq_make_pairings", Function::Kind::make_pairings},
                                    std::pair{"nq_choose_splits", Function::Kind::choose_splits},
                                    std::pair{"nq_make_tiles", Function::Kind::make_tiles},
                                    std::pair{"nq_plan_row_sets", Function::Kind::plan_row_sets},
                                    std::pair{"nq_place_row_sets", Function::Kind::place_row_sets},
                                    std::pair{"nq_write_plans", Function::Kind::write_plans},
                                    std::pair{"nq_sum_row_sets", Function::Kind::sum_row_sets}})
    if (std::strcmp(name, known) == 0) {
      *function = reinterpret_cast<CUfunction>(new Function{kind, {}});  // lives as long as the process
      return CUDA_SUCCESS;
    }
  int width = 0, chunks = 0;
  if (std::sscanf(name, "nq_match_w%d_c%d", &width, &chunks) != 2) return CUDA_ERROR_NOT_FOUND;
  *function = reinterpret_cast<CUfunction>(
      new Function{Function::Kind::match, {width, chunks}});  // lives as long as the process
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }

CUresult cuMemGetInfo_v2(std::size_t* free, std::size_t* total) {
  *total = std::size_t{16} << 30;
  *free = *total;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, std::size_t bytes) {
  if (fails("alloc", allocations)) return CUDA_ERROR_OUT_OF_MEMORY;
  void* memory = std::malloc(bytes);
  if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void*>(pointer));
  return CUDA_SUCCESS;
}

CUresult cuMemAllocHost_v2(void** pointer, std::size_t bytes) {
  if (fails("pinned", pinned_allocations)) return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = std::malloc(bytes);
  return *pointer ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void* pointer) {
  std::free(pointer);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, std::size_t bytes, CUstream) {
  log_line("copy " + std::to_string(bytes));
  if (bytes) std::memcpy(reinterpret_cast<void*>(to), from, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, std::size_t bytes, CUstream) {
  log_line("back " + std::to_string(bytes));
  if (bytes) std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, std::size_t bytes, CUstream) {
  if (bytes) std::memset(reinterpret_cast<void*>(to), value, bytes);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream* stream, unsigned int) {
  static std::atomic<std::uintptr_t> next{1};
  *stream = reinterpret_cast<CUstream>(next++);
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }

CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }

// The kernels' arguments: nq_sort_sides takes sides, side count, pairings, entries, next, keys
// (0: count only); nq_make_pairings specs, spec count, group index, pairings; nq_choose_splits
// sides, row sets, row set count, pairings, entries, plan rule; nq_make_tiles
// jobs, job count, tile firsts, starts, tiles; the plan's kernels as gpu/batch_plan.hpp's host
// forms take them; nq_match_* keys, jobs, tiles, starts, tile count, pairs.
CUresult cuLaunchKernel(CUfunction function, unsigned int, unsigned int, unsigned int, unsigned int block_x,
                        unsigned int, unsigned int, unsigned int, CUstream, void** arguments, void**) {
  if (fails("launch", launches)) return CUDA_ERROR_LAUNCH_FAILED;
  // To the process, as a kill from outside: raise() would send it to this thread alone, which
  // (a counting thread) blocks it for the thread that watches for stop signals.
  if (const char* at = std::getenv("NQUEENS_STAND_IN_SIGTERM_AT"); at && std::atoi(at) == launches.load())
    kill(getpid(), SIGTERM);
  const auto pointer = [&](int i) { return reinterpret_cast<void*>(*static_cast<CUdeviceptr*>(arguments[i])); };
  const Function::Kind kind = reinterpret_cast<Function*>(function)->kind;
  if (kind == Function::Kind::make_pairings) {
    log_line("nq_make_pairings");
    nqueens::gpu::make_pairings_on_host(
        static_cast<const nqueens::gpu::PairingSpec*>(pointer(0)), *static_cast<std::uint32_t*>(arguments[1]),
        static_cast<const std::uint32_t*>(pointer(2)), static_cast<nqueens::gpu::SetPairing*>(pointer(3)));
    return CUDA_SUCCESS;
  }
  if (kind == Function::Kind::choose_splits) {
    log_line("nq_choose_splits");
    nqueens::gpu::choose_splits_on_host(
        static_cast<nqueens::gpu::SideSort*>(pointer(0)), static_cast<const nqueens::gpu::PlanRowSet*>(pointer(1)),
        *static_cast<std::uint32_t*>(arguments[2]), static_cast<const nqueens::gpu::SetPairing*>(pointer(3)),
        static_cast<const nqueens::join::QuarterEntry*>(pointer(4)),
        *static_cast<const nqueens::gpu::PlanRule*>(arguments[5]));
    return CUDA_SUCCESS;
  }
  if (kind == Function::Kind::make_tiles) {
    log_line("nq_make_tiles");
    nqueens::gpu::make_tiles_on_host(
        static_cast<const nqueens::gpu::TileJob*>(pointer(0)), *static_cast<std::uint32_t*>(arguments[1]),
        static_cast<const std::uint32_t*>(pointer(2)), static_cast<const std::uint32_t*>(pointer(3)),
        static_cast<nqueens::gpu::MatchTile*>(pointer(4)));
    return CUDA_SUCCESS;
  }
  if (run_plan_kernel(kind, arguments, block_x)) return CUDA_SUCCESS;
  if (kind == Function::Kind::sort_sides) {
    log_line("nq_sort_sides");
    nqueens::gpu::sort_sides_on_host(
        static_cast<const nqueens::gpu::SideSort*>(pointer(0)), *static_cast<std::uint32_t*>(arguments[1]),
        static_cast<const nqueens::gpu::SetPairing*>(pointer(2)),
        static_cast<const nqueens::join::QuarterEntry*>(pointer(3)), static_cast<std::uint32_t*>(pointer(4)),
        static_cast<std::uint64_t*>(pointer(5)), block_x);
    return CUDA_SUCCESS;
  }
  log_line("nq_match");
  nqueens::gpu::match_tiles_on_host(
      static_cast<const std::uint64_t*>(pointer(0)), static_cast<const nqueens::gpu::TileJob*>(pointer(1)),
      static_cast<const nqueens::gpu::MatchTile*>(pointer(2)), static_cast<const std::uint32_t*>(pointer(3)),
      *static_cast<std::uint32_t*>(arguments[4]), reinterpret_cast<Function*>(function)->chunking,
      static_cast<std::uint64_t*>(pointer(5)), block_x);
  return CUDA_SUCCESS;
}

}  // extern "C"
