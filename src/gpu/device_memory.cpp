#include "gpu/device_memory.hpp"

#include "gpu/built_matcher.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/shared_slices.hpp"

namespace nqueens::gpu {

std::uint64_t batch_device_bytes() { return 2 * (kBatchKeys * sizeof(std::uint64_t) + kBatchKeys * kMetaBytesPerKey); }

DeviceMemoryPlan plan_device_memory(int n, std::uint64_t device_bytes) {
  DeviceMemoryPlan plan;
  const std::uint64_t entries = quarter_table_entries(n / 2);
  plan.table_bytes = quarter_table_device_bytes(n / 2);  // its entries and group index
  // As SharedSlices decides, in entries: the device gives the shared table a share of its memory.
  plan.table_shared =
      plan.table_bytes / sizeof(join::QuarterEntry) <= device_bytes / kSharedSlicesShare / sizeof(join::QuarterEntry);
  plan.matcher_bytes = batch_device_bytes();
  if (!plan.table_shared) plan.matcher_bytes += most_own_entries(entries, kDeviceEntries) * sizeof(join::QuarterEntry);
  return plan;
}

}  // namespace nqueens::gpu
