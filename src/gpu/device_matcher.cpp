// The gpu engine's matcher on a CUDA device: each counting thread owns one, with a stream and
// two batches' buffers in pinned host memory and on the device (a build with CUDA).
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/match_fatbin.hpp"
#include "gpu/tiled_matcher.hpp"

namespace nqueens::gpu {

namespace {

constexpr unsigned kBlockThreads = 256;  // the kernels' __launch_bounds__
// Room for a batch's jobs and tiles: a job has at least one tile, and small jobs are the rule.
constexpr std::size_t kMetaBytesPerKey = 4;

// What every matcher on a device shares: its primary context, the kernels and their limits.
struct DeviceKernels {
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  int multiprocessors = 0;
  int shared_per_block = 0;  // the most a block may ask for (opt-in)
  int shared_per_multiprocessor = 0;
  std::map<std::pair<int, int>, CUfunction> functions;  // by (width, chunks)
  std::mutex mutex;                                     // guards functions
};

DeviceKernels& kernels_of(std::size_t index) {
  static std::mutex mutex;
  static std::map<std::size_t, DeviceKernels> all;
  const std::lock_guard lock(mutex);
  auto [it, made] = all.try_emplace(index);
  DeviceKernels& kernels = it->second;
  if (!made) return kernels;
  const CudaDriver& d = *cuda_driver();
  try {
    CUdevice device = 0;
    check(d.device_get(&device, static_cast<int>(index)), "cuDeviceGet");
    check(d.primary_context(&kernels.context, device), "cuDevicePrimaryCtxRetain");
    check(d.set_context(kernels.context), "cuCtxSetCurrent");
    check(d.load_module(&kernels.module, kMatchFatbin), "loading the kernels (cuModuleLoadData)");
    check(d.device_attribute(&kernels.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
          "cuDeviceGetAttribute");
    check(d.device_attribute(&kernels.shared_per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
          "cuDeviceGetAttribute");
    check(d.device_attribute(&kernels.shared_per_multiprocessor,
                             CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, device),
          "cuDeviceGetAttribute");
  } catch (...) {
    all.erase(it);
    throw;
  }
  return kernels;
}

CUfunction kernel_for(DeviceKernels& kernels, Chunking chunking) {
  const std::lock_guard lock(kernels.mutex);
  CUfunction& function = kernels.functions[{chunking.width, chunking.chunks}];
  if (function) return function;
  const CudaDriver& d = *cuda_driver();
  char name[64];
  std::snprintf(name, sizeof name, "nq_match_w%d_c%d", chunking.width, chunking.chunks);
  check(d.module_function(&function, kernels.module, name), "cuModuleGetFunction");
  check(d.function_attribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(chunking.shared_words() * 4)),
        "cuFuncSetAttribute");
  return function;
}

// A device allocation that grows and is freed with its owner.
struct DeviceBuffer {
  CUdeviceptr pointer = 0;
  std::size_t bytes = 0;
  void reserve(std::size_t wanted) {
    if (wanted <= bytes) return;
    release();
    check(cuda_driver()->allocate(&pointer, wanted), "allocating device memory (cuMemAlloc)");
    bytes = wanted;
  }
  void release() {
    if (pointer) cuda_driver()->release(pointer);
    pointer = 0;
    bytes = 0;
  }
};

// Pinned host memory, so that copies run while the thread goes on.
struct PinnedBuffer {
  void* pointer = nullptr;
  std::size_t bytes = 0;
  void reserve(std::size_t wanted) {
    if (wanted <= bytes) return;
    release();
    check(cuda_driver()->allocate_pinned(&pointer, wanted), "allocating pinned host memory (cuMemAllocHost)");
    bytes = wanted;
  }
  void release() {
    if (pointer) cuda_driver()->release_pinned(pointer);
    pointer = nullptr;
    bytes = 0;
  }
};

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

class DeviceMatcher final : public TiledMatcher {
 public:
  DeviceMatcher(std::size_t device, SplitRule rule) : TiledMatcher(kBatchKeys, rule), kernels_(kernels_of(device)) {
    enter();
    check(cuda_driver()->create_stream(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }

  // Errors are left unreported here: a destructor must not throw, and the process is ending a
  // run that already failed or finished.
  ~DeviceMatcher() override {
    cuda_driver()->set_context(kernels_.context);
    if (stream_) cuda_driver()->synchronize_stream(stream_);
    for (Buffers& buffers : buffers_) {
      buffers.host_keys.release();
      buffers.host_meta.release();
      buffers.device_keys.release();
      buffers.device_meta.release();
    }
    if (stream_) cuda_driver()->destroy_stream(stream_);
  }

  DeviceMatcher(const DeviceMatcher&) = delete;
  DeviceMatcher& operator=(const DeviceMatcher&) = delete;

 private:
  struct Buffers {
    PinnedBuffer host_keys, host_meta;  // meta: jobs, tiles, then the counts that come back
    DeviceBuffer device_keys, device_meta;
    const std::uint64_t* counts = nullptr;  // in host_meta, after the jobs and tiles
    std::size_t jobs = 0;
  };

  // A TBB worker may run other work between two calls: the context is made current each time.
  void enter() const { check(cuda_driver()->set_context(kernels_.context), "cuCtxSetCurrent"); }

  std::span<std::uint64_t> key_storage(int buffer, std::size_t keys) override {
    enter();
    Buffers& buffers = buffers_[static_cast<std::size_t>(buffer)];
    buffers.host_keys.reserve(keys * sizeof(std::uint64_t));
    buffers.device_keys.reserve(keys * sizeof(std::uint64_t));
    return {static_cast<std::uint64_t*>(buffers.host_keys.pointer), keys};
  }

  void start(int buffer, const TileBatch& batch) override {
    enter();
    const CudaDriver& d = *cuda_driver();
    Buffers& buffers = buffers_[static_cast<std::size_t>(buffer)];
    // The meta buffer holds the jobs, the tiles, the query ranges' starts, then the counts.
    const std::size_t jobs_bytes = aligned(batch.jobs().size_bytes());
    const std::size_t tiles_bytes = aligned(batch.tiles().size_bytes());
    const std::size_t starts_bytes = aligned(batch.starts().size_bytes());
    const std::size_t sent_bytes = jobs_bytes + tiles_bytes + starts_bytes;
    const std::size_t counts_bytes = batch.jobs().size() * sizeof(std::uint64_t);
    buffers.host_meta.reserve(std::max(sent_bytes + counts_bytes, kBatchKeys * kMetaBytesPerKey));
    buffers.device_meta.reserve(buffers.host_meta.bytes);
    auto* meta = static_cast<unsigned char*>(buffers.host_meta.pointer);
    std::memcpy(meta, batch.jobs().data(), batch.jobs().size_bytes());
    std::memcpy(meta + jobs_bytes, batch.tiles().data(), batch.tiles().size_bytes());
    std::memcpy(meta + jobs_bytes + tiles_bytes, batch.starts().data(), batch.starts().size_bytes());
    const CUdeviceptr device_meta = buffers.device_meta.pointer;
    check(d.copy_to_device(buffers.device_keys.pointer, batch.keys().data(), batch.keys().size_bytes(), stream_),
          "copying keys to the device");
    check(d.copy_to_device(device_meta, meta, sent_bytes, stream_), "copying tiles to the device");
    const CUdeviceptr counts = device_meta + sent_bytes;
    check(d.set_bytes(counts, 0, counts_bytes, stream_), "cuMemsetD8Async");
    launch(batch, buffers.device_keys.pointer, device_meta, counts);
    check(d.copy_to_host(meta + sent_bytes, counts, counts_bytes, stream_), "copying counts back");
    buffers.counts = reinterpret_cast<const std::uint64_t*>(meta + sent_bytes);
    buffers.jobs = batch.jobs().size();
  }

  void launch(const TileBatch& batch, CUdeviceptr keys, CUdeviceptr meta, CUdeviceptr counts) {
    CUdeviceptr jobs = meta, tiles = jobs + aligned(batch.jobs().size_bytes());
    CUdeviceptr starts = tiles + aligned(batch.tiles().size_bytes());
    const Chunking chunking = chunking_for(batch.key_bits(), static_cast<std::uint32_t>(kernels_.shared_per_block));
    const unsigned shared = chunking.shared_words() * 4;
    // Blocks per multiprocessor as its shared memory allows (1 KiB a block is the system's).
    const unsigned resident = std::clamp(static_cast<unsigned>(kernels_.shared_per_multiprocessor) / (shared + 1024),
                                         1u, 2048u / kBlockThreads);
    auto tile_count = static_cast<std::uint32_t>(batch.tiles().size());
    const unsigned grid = std::min<unsigned>(tile_count, static_cast<unsigned>(kernels_.multiprocessors) * resident);
    void* arguments[] = {&keys, &jobs, &tiles, &starts, &tile_count, &counts};
    check(cuda_driver()->launch(kernel_for(kernels_, chunking), grid, 1, 1, kBlockThreads, 1, 1, shared, stream_,
                                arguments, nullptr),
          "launching the matching kernel");
  }

  std::span<const std::uint64_t> wait(int buffer) override {
    enter();
    check(cuda_driver()->synchronize_stream(stream_), "counting on the device");
    const Buffers& buffers = buffers_[static_cast<std::size_t>(buffer)];
    return {buffers.counts, buffers.jobs};
  }

  DeviceKernels& kernels_;
  CUstream stream_ = nullptr;
  std::array<Buffers, 2> buffers_;
};

}  // namespace

std::uint64_t matcher_bytes() { return 2 * (kBatchKeys * sizeof(std::uint64_t) + kBatchKeys * kMetaBytesPerKey); }

std::unique_ptr<join::PairMatcher> make_device_matcher(std::size_t device, SplitRule rule) {
  return std::make_unique<DeviceMatcher>(device, rule);
}

}  // namespace nqueens::gpu
