// The gpu engine's matcher on a CUDA device (built_matcher.hpp): each counting thread owns one,
// reading the slice entries its device holds once for all its matchers (or, where the quarter
// table does not fit them, those it has sent itself), and for each of its two batches a stream
// and buffers in pinned host memory and on the device. The device builds every half it matches and
// plans each batch itself (batch_plan.hpp): the host sends recipes and row sets, and reads back
// each plan's totals and each row set's pairs and halves.
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

#include "gpu/batch_plan.hpp"
#include "gpu/built_matcher.hpp"
#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/match_fatbin.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/plan_block.hpp"
#include "gpu/split_sample.hpp"

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
  CUfunction choose_splits = nullptr;                   // nq_choose_splits
  CUfunction plan_row_sets = nullptr, place_row_sets = nullptr, write_plans = nullptr,
             sum_row_sets = nullptr;  // the plan's (batch_plan.hpp)
  std::mutex mutex;                   // guards functions and the kernels above
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
      buffers.device_work.release();
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
    DeviceBuffer device_work;  // the write pass's jobs, tiles and counts
    // Where the count pass left the batch's sides, descriptions, rooms and plans in device_meta.
    std::size_t sides_at = 0, row_sets_at = 0, starts_at = 0, plans_at = 0, write_sides_at = 0, write_next_at = 0;
    std::uint32_t row_sets = 0;
  };

  // A TBB worker may run other work between two calls: the context is made current each time.
  void enter() const { check(cuda_driver()->set_context(kernels_.context), "cuCtxSetCurrent"); }

  void reserve_entries(std::size_t entries) override {
    enter();
    entries_.reserve(entries * sizeof(join::QuarterEntry));
  }

  // Sends the staged entries, the count pass's sides and the pairings (or, where the device
  // holds the table's group index, the sides' descriptions, from which it makes the pairings)
  // and the row sets' descriptions; zeroes the counters, runs the count pass and the plan, and
  // waits for the plan's totals. What the plan leaves in device_meta (its rooms and each row
  // set's plan) is read again by the write pass.
  PlanTotals count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                          std::span<const join::QuarterEntry> staged) override {
    enter();
    const CudaDriver& d = *cuda_driver();
    Buffers& b = buffers_[static_cast<std::size_t>(buffer)];
    const bool specs = reads_shared_entries();
    // The pairings have a device buffer of their own, read by both passes.
    const std::size_t pairings_bytes = aligned(batch.pairings().size_bytes());
    Layout meta;  // device_meta's layout: what is sent (mirrored in host after the pairings), then rooms
    b.sides_at = meta.add(batch.count_sides());
    b.row_sets_at = meta.add(batch.row_sets());
    const std::size_t specs_at = meta.add(specs ? batch.pairing_specs() : std::span<const PairingSpec>{});
    const std::size_t sent = meta.bytes();
    const std::size_t totals_at = meta.add_bytes(sizeof(PlanTotals));
    const std::size_t counters_at = meta.add_bytes(batch.counters() * sizeof(std::uint32_t));
    b.starts_at = meta.add_bytes(batch.start_words() * sizeof(std::uint32_t));
    b.plans_at = meta.add_bytes(batch.row_sets().size() * sizeof(RowSetPlan));
    b.write_sides_at = meta.add_bytes(batch.count_sides().size_bytes());
    b.write_next_at = meta.add_bytes(batch.write_counters() * sizeof(std::uint32_t));
    reserve_host(b, pairings_bytes + totals_at + sizeof(PlanTotals));
    auto* host_pairings = static_cast<unsigned char*>(b.host.pointer);
    unsigned char* host_meta = host_pairings + pairings_bytes;
    if (specs)
      copy_in(host_meta + specs_at, batch.pairing_specs());
    else
      copy_in(host_pairings, batch.pairings());
    copy_in(host_meta + b.sides_at, batch.count_sides());
    copy_in(host_meta + b.row_sets_at, batch.row_sets());
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
    const CUdeviceptr m = b.device_meta.pointer;
    check(d.copy_to_device(m, host_meta, sent, b.stream), "copying recipes to the device");
    if (specs) make_pairings(b, batch.pairing_specs().size(), m + specs_at);
    b.row_sets = static_cast<std::uint32_t>(batch.row_sets().size());
    PlanRule rule = batch.plan_rule();
    CUdeviceptr sides = m + b.sides_at, row_sets = m + b.row_sets_at, counters = m + counters_at,
                starts = m + b.starts_at, plans = m + b.plans_at, totals = m + totals_at;
    CUdeviceptr pairings = b.device_pairings.pointer, entries = device_entries();
    void* choose_arguments[] = {&sides, &row_sets, &b.row_sets, &pairings, &entries, &rule};
    if (b.row_sets != 0)  // a block a row set
      check(cuda_driver()->launch(named_kernel(kernels_, kernels_.choose_splits, "nq_choose_splits"), b.row_sets, 1, 1,
                                  kChooseThreads, 1, 1, 0, b.stream, choose_arguments, nullptr),
            "launching the split-choosing kernel");
    check(d.set_bytes(m + counters_at, 0, batch.counters() * sizeof(std::uint32_t), b.stream), "cuMemsetD8Async");
    sort(b, batch.count_sides().size(), m + b.sides_at, m + counters_at, 0);
    void* plan_arguments[] = {&sides, &row_sets, &b.row_sets, &counters, &rule, &starts, &plans};
    if (b.row_sets != 0)  // a block a row set
      check(cuda_driver()->launch(named_kernel(kernels_, kernels_.plan_row_sets, "nq_plan_row_sets"), b.row_sets, 1, 1,
                                  kPlanThreads, 1, 1, 0, b.stream, plan_arguments, nullptr),
            "launching the plan kernels");
    void* place_arguments[] = {&plans, &row_sets, &b.row_sets, &totals};
    check(cuda_driver()->launch(named_kernel(kernels_, kernels_.place_row_sets, "nq_place_row_sets"), 1, 1, 1,
                                kPlaceThreads, 1, 1, 0, b.stream, place_arguments, nullptr),
          "launching the placing kernel");
    check(d.copy_to_host(host_meta + totals_at, totals, sizeof(PlanTotals), b.stream),
          "copying the plan's totals back");
    check(d.synchronize_stream(b.stream), "counting halves on the device");
    PlanTotals planned;
    std::memcpy(&planned, host_meta + totals_at, sizeof planned);
    return planned;
  }

  // Writes the plan's sides and jobs on the device, runs the write pass, cuts the tiles, matches,
  // sums each row set's pairs and asks for them.
  void start(int buffer, const BuiltBatch& batch, const PlanTotals& totals) override {
    enter();
    const CudaDriver& d = *cuda_driver();
    Buffers& b = buffers_[static_cast<std::size_t>(buffer)];
    Layout work;  // device_work's layout
    const std::size_t jobs_at = work.add_bytes(std::size_t{totals.jobs} * sizeof(TileJob));
    const std::size_t firsts_at = work.add_bytes(std::size_t{totals.jobs} * sizeof(std::uint32_t));
    const std::size_t tiles_at = work.add_bytes(std::size_t{totals.tiles} * sizeof(MatchTile));
    const std::size_t counts_at = work.add_bytes(std::size_t{totals.jobs} * sizeof(std::uint64_t));
    const std::size_t results_at = work.add_bytes(batch.row_sets().size() * sizeof(RowSetResult));
    reserve_host(b, batch.row_sets().size() * sizeof(RowSetResult));
    b.device_work.reserve(std::max<std::size_t>(work.bytes(), 1));
    b.device_keys.reserve(std::max<std::uint64_t>(totals.keys, 1) * sizeof(std::uint64_t));
    const CUdeviceptr m = b.device_meta.pointer, w = b.device_work.pointer;
    CUdeviceptr count_sides = m + b.sides_at, row_sets = m + b.row_sets_at, plans = m + b.plans_at,
                starts = m + b.starts_at, write_sides = m + b.write_sides_at, write_next = m + b.write_next_at,
                jobs = w + jobs_at, firsts = w + firsts_at, counts = w + counts_at, results = w + results_at;
    void* write_arguments[] = {&count_sides, &row_sets,   &b.row_sets, &plans, &starts,
                               &write_sides, &write_next, &jobs,       &firsts};
    launch_per_row_set(b, kernels_.write_plans, "nq_write_plans", write_arguments);
    check(d.set_bytes(counts, 0, std::size_t{totals.jobs} * sizeof(std::uint64_t), b.stream), "cuMemsetD8Async");
    sort(b, batch.count_sides().size(), write_sides, write_next, b.device_keys.pointer);
    if (totals.tiles != 0) {
      make_tiles(b, totals.jobs, jobs, firsts, starts, w + tiles_at);
      match_tiles(b, totals, jobs, w + tiles_at, starts, counts);
    }
    void* sum_arguments[] = {&plans, &b.row_sets, &counts, &results};
    launch_per_row_set(b, kernels_.sum_row_sets, "nq_sum_row_sets", sum_arguments);
    check(d.copy_to_host(b.host.pointer, results, batch.row_sets().size() * sizeof(RowSetResult), b.stream),
          "copying counts back");
  }

  std::span<const RowSetResult> wait(int buffer) override {
    enter();
    const Buffers& b = buffers_[static_cast<std::size_t>(buffer)];
    check(cuda_driver()->synchronize_stream(b.stream), "counting on the device");
    return {static_cast<const RowSetResult*>(b.host.pointer), b.row_sets};
  }

  // Where the batches' slices lie on the device.
  CUdeviceptr device_entries() const {
    return reads_shared_entries() ? kernels_.slices->entries(shared_k()) : entries_.pointer;
  }

  // A plan kernel, a thread per row set of the batch in `b`.
  void launch_per_row_set(Buffers& b, CUfunction& function, const char* name, void** arguments) {
    if (b.row_sets == 0) return;
    const unsigned grid = (b.row_sets + kBlockThreads - 1) / kBlockThreads;
    check(cuda_driver()->launch(named_kernel(kernels_, function, name), grid, 1, 1, kBlockThreads, 1, 1, 0, b.stream,
                                arguments, nullptr),
          "launching the plan kernels");
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
    CUdeviceptr entries = device_entries();
    const unsigned grid =
        std::min<unsigned>(count, static_cast<unsigned>(kernels_.multiprocessors) * kSortBlocksPerMultiprocessor);
    void* arguments[] = {&sides, &count, &pairings, &entries, &next, &keys};
    check(cuda_driver()->launch(named_kernel(kernels_, kernels_.sort_sides, "nq_sort_sides"), grid, 1, 1, kBlockThreads,
                                1, 1, 0, b.stream, arguments, nullptr),
          "launching the build kernel");
  }

  void match_tiles(Buffers& b, const PlanTotals& totals, CUdeviceptr jobs, CUdeviceptr tiles, CUdeviceptr starts,
                   CUdeviceptr counts) {
    CUdeviceptr keys = b.device_keys.pointer;
    const Chunking chunking =
        chunking_for(static_cast<int>(totals.key_bits), static_cast<std::uint32_t>(kernels_.shared_per_block));
    const unsigned shared = chunking.shared_words() * 4;
    // Blocks per multiprocessor as its shared memory allows (1 KiB a block is the system's).
    const unsigned resident = std::clamp(static_cast<unsigned>(kernels_.shared_per_multiprocessor) / (shared + 1024),
                                         1u, 2048u / kBlockThreads);
    std::uint32_t tile_count = totals.tiles;
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
