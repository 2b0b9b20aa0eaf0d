// The gpu engine's matcher on a CUDA device (built_matcher.hpp): each counting thread owns one,
// reading the slice entries its device holds once for all its matchers (or, where the quarter
// table does not fit them, those it has sent itself), and for each of its two batches a stream
// and buffers in pinned host memory and on the device. The device builds every half it matches: the host sends
// recipes, and reads back the count pass's counters and each job's pairs.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <utility>

#include "gpu/built_matcher.hpp"
#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/match_fatbin.hpp"
#include "gpu/pairing_spec.hpp"

namespace nqueens::gpu {

namespace {

constexpr unsigned kBlockThreads = 256;  // the kernels' __launch_bounds__
// Blocks of the build kernel per multiprocessor: its 24 KiB of shared memory and 256 threads allow 8.
constexpr unsigned kSortBlocksPerMultiprocessor = 8;

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

// The slices a device holds once for its matchers (shared_slices.hpp) and their group index,
// sent on a stream of their own; called with the device's context current.
class DeviceSharedSlices final : public SharedSlices {
 public:
  using SharedSlices::SharedSlices;
  CUdeviceptr entries(int k) const {
    const std::lock_guard lock(mutex_);
    return buffers_.at(k).entries.pointer;
  }
  CUdeviceptr group_index(int k) const {
    const std::lock_guard lock(mutex_);
    return buffers_.at(k).index.pointer;
  }

 private:
  struct Table {
    DeviceBuffer entries, index;
  };

  // Out of memory leaves the table to the matchers' own rooms, which each take less of it.
  bool reserve(int k, std::size_t entries) override {
    if (!stream_) check(cuda_driver()->create_stream(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    Table table;
    const std::size_t sizes[] = {std::max<std::size_t>(entries, 1) * sizeof(join::QuarterEntry),
                                 static_cast<std::size_t>(group_index_words(k)) * sizeof(std::uint32_t)};
    DeviceBuffer* buffers[] = {&table.entries, &table.index};
    for (std::size_t i = 0; i < 2; ++i) {
      const CUresult result = cuda_driver()->allocate(&buffers[i]->pointer, sizes[i]);
      if (result == CUDA_ERROR_OUT_OF_MEMORY) {
        table.entries.release();
        return false;
      }
      check(result, "allocating device memory for the quarter table (cuMemAlloc)");
      buffers[i]->bytes = sizes[i];
    }
    const std::lock_guard lock(mutex_);
    buffers_[k] = table;
    return true;
  }
  void send(int k, std::uint64_t first, std::span<const join::QuarterEntry> entries, std::uint64_t index_first,
            std::span<const std::uint32_t> starts) override {
    const CudaDriver& d = *cuda_driver();
    if (!entries.empty())
      check(d.copy_to_device(this->entries(k) + first * sizeof(join::QuarterEntry), entries.data(),
                             entries.size_bytes(), stream_),
            "copying slices to the device");
    check(d.copy_to_device(group_index(k) + index_first * sizeof(std::uint32_t), starts.data(), starts.size_bytes(),
                           stream_),
          "copying the slices' group index to the device");
    check(d.synchronize_stream(stream_), "copying slices to the device");
  }

  CUstream stream_ = nullptr;
  mutable std::mutex mutex_;  // guards buffers_, which matchers read while others add to it
  std::map<int, Table> buffers_;
};

// What every matcher on a device shares: its primary context, the kernels and their limits, and
// the slices it holds.
struct DeviceKernels {
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  int multiprocessors = 0;
  int shared_per_block = 0;  // the most a block may ask for (opt-in)
  int shared_per_multiprocessor = 0;
  std::map<std::pair<int, int>, CUfunction> functions;  // by (width, chunks)
  CUfunction sort_sides = nullptr;                      // nq_sort_sides
  CUfunction make_pairings = nullptr;                   // nq_make_pairings
  CUfunction make_tiles = nullptr;                      // nq_make_tiles
  std::mutex mutex;                                     // guards functions and the three above
  std::unique_ptr<DeviceSharedSlices> slices;
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
    std::size_t memory = 0;
    check(d.device_memory(&memory, device), "cuDeviceTotalMem");
    kernels.slices = std::make_unique<DeviceSharedSlices>(memory / kSharedSlicesShare / sizeof(join::QuarterEntry));
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

// `function` of `kernels`, looked up by `name` the first time.
CUfunction named_kernel(DeviceKernels& kernels, CUfunction& function, const char* name) {
  const std::lock_guard lock(kernels.mutex);
  if (!function) check(cuda_driver()->module_function(&function, kernels.module, name), "cuModuleGetFunction");
  return function;
}

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

// Arrays laid out one after another in a buffer, each from a 256-byte boundary.
class Layout {
 public:
  template <typename T>
  std::size_t add(std::span<const T> items) {
    const std::size_t at = bytes_;
    bytes_ += aligned(items.size_bytes());
    return at;
  }
  std::size_t add_bytes(std::size_t bytes) {
    const std::size_t at = bytes_;
    bytes_ += aligned(bytes);
    return at;
  }
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
};

class DeviceMatcher final : public BuiltMatcher {
 public:
  DeviceMatcher(std::size_t device, SplitRule rule)
      : BuiltMatcher(kBatchKeys, kDeviceEntries, rule, kernels_of(device).slices.get()), kernels_(kernels_of(device)) {
    enter();
    for (Buffers& buffers : buffers_)
      check(cuda_driver()->create_stream(&buffers.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }

  // Errors are left unreported here: a destructor must not throw, and the process is ending a
  // run that already failed or finished.
  ~DeviceMatcher() override {
    cuda_driver()->set_context(kernels_.context);
    for (Buffers& buffers : buffers_) {
      if (buffers.stream) cuda_driver()->synchronize_stream(buffers.stream);
      buffers.host.release();
      buffers.device_pairings.release();
      buffers.device_meta.release();
      buffers.device_keys.release();
      if (buffers.stream) cuda_driver()->destroy_stream(buffers.stream);
    }
    entries_.release();
  }

  DeviceMatcher(const DeviceMatcher&) = delete;
  DeviceMatcher& operator=(const DeviceMatcher&) = delete;

 private:
  struct Buffers {
    CUstream stream = nullptr;
    PinnedBuffer host;             // what is sent, then what comes back
    DeviceBuffer device_pairings;  // the batch's pairings, read by both passes
    DeviceBuffer device_meta, device_keys;
    const std::uint32_t* counters = nullptr;
    const std::uint64_t* counts = nullptr;  // in host, after what was sent
    std::size_t jobs = 0;
  };

  // A TBB worker may run other work between two calls: the context is made current each time.
  void enter() const { check(cuda_driver()->set_context(kernels_.context), "cuCtxSetCurrent"); }

  void reserve_entries(std::size_t entries) override {
    enter();
    entries_.reserve(entries * sizeof(join::QuarterEntry));
  }

  // Sends the staged entries, the count pass's sides and the pairings (or, where the device
  // holds the table's group index, the sides' descriptions, from which it makes the pairings);
  // zeroes the counters, runs the count pass and waits for its counters.
  std::span<const std::uint32_t> count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                                              std::span<const join::QuarterEntry> staged) override {
    enter();
    const CudaDriver& d = *cuda_driver();
    Buffers& b = buffers_[static_cast<std::size_t>(buffer)];
    const bool specs = reads_shared_entries();
    // The pairings have a device buffer of their own: the write pass may grow device_meta, which
    // frees it, and must still find the pairings this pass sent or made.
    const std::size_t pairings_bytes = aligned(batch.pairings().size_bytes());
    Layout meta;  // device_meta's layout, mirrored in host after the pairings
    const std::size_t sides_at = meta.add(batch.count_sides());
    const std::size_t specs_at = meta.add(specs ? batch.pairing_specs() : std::span<const PairingSpec>{});
    const std::size_t counters_at = meta.add_bytes(batch.counters() * sizeof(std::uint32_t));
    reserve_host(b, pairings_bytes + meta.bytes());
    auto* host_pairings = static_cast<unsigned char*>(b.host.pointer);
    unsigned char* host_meta = host_pairings + pairings_bytes;
    if (specs)
      copy_in(host_meta + specs_at, batch.pairing_specs());
    else
      copy_in(host_pairings, batch.pairings());
    copy_in(host_meta + sides_at, batch.count_sides());
    b.device_pairings.reserve(std::max<std::size_t>(pairings_bytes, 1));
    b.device_meta.reserve(std::max(meta.bytes(), kBatchKeys * kMetaBytesPerKey));
    if (!staged.empty()) {  // from pageable memory: the driver has taken the entries when the call returns
      check(d.copy_to_device(entries_.pointer + first * sizeof(join::QuarterEntry), staged.data(), staged.size_bytes(),
                             b.stream),
            "copying slices to the device");
    }
    if (!specs && pairings_bytes > 0) {  // else the pairings' room is the device's to fill
      check(d.copy_to_device(b.device_pairings.pointer, host_pairings, pairings_bytes, b.stream),
            "copying pairings to the device");
    }
    check(d.copy_to_device(b.device_meta.pointer, host_meta, counters_at, b.stream), "copying recipes to the device");
    if (specs) make_pairings(b, batch.pairing_specs().size(), b.device_meta.pointer + specs_at);
    const CUdeviceptr counters = b.device_meta.pointer + counters_at;
    check(d.set_bytes(counters, 0, batch.counters() * sizeof(std::uint32_t), b.stream), "cuMemsetD8Async");
    sort(b, batch.count_sides().size(), b.device_meta.pointer + sides_at, counters, 0);
    check(d.copy_to_host(host_meta + counters_at, counters, batch.counters() * sizeof(std::uint32_t), b.stream),
          "copying counters back");
    check(d.synchronize_stream(b.stream), "counting halves on the device");
    return {reinterpret_cast<const std::uint32_t*>(host_meta + counters_at), batch.counters()};
  }

  // Sends the write pass's sides and bucket starts, the jobs, tiles and query ranges; runs the
  // write pass and the matching, and asks for each job's pairs.
  void start(int buffer, const BuiltBatch& batch) override {
    enter();
    const CudaDriver& d = *cuda_driver();
    Buffers& b = buffers_[static_cast<std::size_t>(buffer)];
    const TileBatch& tiles = batch.tiles();
    Layout host;
    const std::size_t sides_at = host.add(batch.write_sides());
    const std::size_t next_at = host.add(batch.write_next());
    const std::size_t jobs_at = host.add(tiles.jobs());
    const std::size_t firsts_at = host.add(tiles.tile_firsts());
    const std::size_t starts_at = host.add(tiles.starts());
    const std::size_t tiles_at = host.add(tiles.tiles());  // made on the device: room, not sent
    const std::size_t counts_at = host.add_bytes(tiles.jobs().size() * sizeof(std::uint64_t));
    reserve_host(b, counts_at + tiles.jobs().size() * sizeof(std::uint64_t));
    auto* bytes = static_cast<unsigned char*>(b.host.pointer);
    copy_in(bytes + sides_at, batch.write_sides());
    copy_in(bytes + next_at, batch.write_next());
    copy_in(bytes + jobs_at, tiles.jobs());
    copy_in(bytes + firsts_at, tiles.tile_firsts());
    copy_in(bytes + starts_at, tiles.starts());
    b.device_meta.reserve(counts_at + tiles.jobs().size() * sizeof(std::uint64_t));
    b.device_keys.reserve(std::max<std::size_t>(tiles.key_count(), 1) * sizeof(std::uint64_t));
    const CUdeviceptr meta = b.device_meta.pointer;
    check(d.copy_to_device(meta, bytes, tiles_at, b.stream), "copying jobs to the device");
    const CUdeviceptr counts = meta + counts_at;
    check(d.set_bytes(counts, 0, tiles.jobs().size() * sizeof(std::uint64_t), b.stream), "cuMemsetD8Async");
    sort(b, batch.write_sides().size(), meta + sides_at, meta + next_at, b.device_keys.pointer);
    if (!tiles.tiles().empty()) {
      make_tiles(b, tiles.jobs().size(), meta + jobs_at, meta + firsts_at, meta + starts_at, meta + tiles_at);
      match_tiles(b, tiles, meta + jobs_at, meta + tiles_at, meta + starts_at, counts);
    }
    check(d.copy_to_host(bytes + counts_at, counts, tiles.jobs().size() * sizeof(std::uint64_t), b.stream),
          "copying counts back");
    b.counts = reinterpret_cast<const std::uint64_t*>(bytes + counts_at);
    b.jobs = tiles.jobs().size();
  }

  std::span<const std::uint64_t> wait(int buffer) override {
    enter();
    const Buffers& b = buffers_[static_cast<std::size_t>(buffer)];
    check(cuda_driver()->synchronize_stream(b.stream), "counting on the device");
    return {b.counts, b.jobs};
  }

  void reserve_host(Buffers& b, std::size_t bytes) const {
    b.host.reserve(std::max(bytes, kBatchKeys * kMetaBytesPerKey));
  }

  template <typename T>
  static void copy_in(unsigned char* to, std::span<const T> items) {
    if (!items.empty()) std::memcpy(to, items.data(), items.size_bytes());
  }

  // nq_make_pairings over `spec_count` sides, into the batch's pairings.
  void make_pairings(Buffers& b, std::size_t spec_count, CUdeviceptr specs) {
    if (spec_count == 0) return;
    auto count = static_cast<std::uint32_t>(spec_count);
    CUdeviceptr index = kernels_.slices->group_index(shared_k());
    CUdeviceptr pairings = b.device_pairings.pointer;
    const unsigned grid = (count + kBlockThreads - 1) / kBlockThreads;
    void* arguments[] = {&specs, &count, &index, &pairings};
    check(cuda_driver()->launch(named_kernel(kernels_, kernels_.make_pairings, "nq_make_pairings"), grid, 1, 1,
                                kBlockThreads, 1, 1, 0, b.stream, arguments, nullptr),
          "launching the pairings kernel");
  }

  // nq_make_tiles over `job_count` jobs, into `tiles`.
  void make_tiles(Buffers& b, std::size_t job_count, CUdeviceptr jobs, CUdeviceptr firsts, CUdeviceptr starts,
                  CUdeviceptr tiles) {
    auto count = static_cast<std::uint32_t>(job_count);
    const unsigned grid = (count + kBlockThreads - 1) / kBlockThreads;
    void* arguments[] = {&jobs, &count, &firsts, &starts, &tiles};
    check(cuda_driver()->launch(named_kernel(kernels_, kernels_.make_tiles, "nq_make_tiles"), grid, 1, 1, kBlockThreads,
                                1, 1, 0, b.stream, arguments, nullptr),
          "launching the tiles kernel");
  }

  // nq_sort_sides over `side_count` sides: counting into `next` (keys 0) or writing keys.
  void sort(Buffers& b, std::size_t side_count, CUdeviceptr sides, CUdeviceptr next, CUdeviceptr keys) {
    if (side_count == 0) return;
    auto count = static_cast<std::uint32_t>(side_count);
    CUdeviceptr pairings = b.device_pairings.pointer;
    CUdeviceptr entries = reads_shared_entries() ? kernels_.slices->entries(shared_k()) : entries_.pointer;
    const unsigned grid =
        std::min<unsigned>(count, static_cast<unsigned>(kernels_.multiprocessors) * kSortBlocksPerMultiprocessor);
    void* arguments[] = {&sides, &count, &pairings, &entries, &next, &keys};
    check(cuda_driver()->launch(named_kernel(kernels_, kernels_.sort_sides, "nq_sort_sides"), grid, 1, 1, kBlockThreads,
                                1, 1, 0, b.stream, arguments, nullptr),
          "launching the build kernel");
  }

  void match_tiles(Buffers& b, const TileBatch& batch, CUdeviceptr jobs, CUdeviceptr tiles, CUdeviceptr starts,
                   CUdeviceptr counts) {
    CUdeviceptr keys = b.device_keys.pointer;
    const Chunking chunking = chunking_for(batch.key_bits(), static_cast<std::uint32_t>(kernels_.shared_per_block));
    const unsigned shared = chunking.shared_words() * 4;
    // Blocks per multiprocessor as its shared memory allows (1 KiB a block is the system's).
    const unsigned resident = std::clamp(static_cast<unsigned>(kernels_.shared_per_multiprocessor) / (shared + 1024),
                                         1u, 2048u / kBlockThreads);
    auto tile_count = static_cast<std::uint32_t>(batch.tiles().size());
    const unsigned grid = std::min<unsigned>(tile_count, static_cast<unsigned>(kernels_.multiprocessors) * resident);
    void* arguments[] = {&keys, &jobs, &tiles, &starts, &tile_count, &counts};
    check(cuda_driver()->launch(kernel_for(kernels_, chunking), grid, 1, 1, kBlockThreads, 1, 1, shared, b.stream,
                                arguments, nullptr),
          "launching the matching kernel");
  }

  DeviceKernels& kernels_;
  DeviceBuffer entries_;  // the slices this matcher sent, where the shared ones cannot hold the table
  std::array<Buffers, 2> buffers_;
};

}  // namespace

std::uint64_t matcher_bytes() { return 2 * kBatchKeys * kMetaBytesPerKey; }

TableHome quarter_table_home(std::size_t device, int k) {
  DeviceKernels& kernels = kernels_of(device);
  check(cuda_driver()->set_context(kernels.context), "cuCtxSetCurrent");
  return kernels.slices->home(k);
}

std::unique_ptr<join::PairMatcher> make_device_matcher(std::size_t device, SplitRule rule) {
  return std::make_unique<DeviceMatcher>(device, rule);
}

}  // namespace nqueens::gpu
