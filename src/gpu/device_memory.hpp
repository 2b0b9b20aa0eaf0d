#pragma once
// What the gpu engine holds on one device for a run of N, at most: the quarter table once, where
// it fits the device's share for it (shared_slices.hpp), and each counting thread's matcher: its
// two batches' buffers, and its own slice room where the table is not held once.
#include <cstdint>

namespace nqueens::gpu {

struct DeviceMemoryPlan {
  std::uint64_t table_bytes = 0;    //!< the run's quarter table and its group index
  bool table_shared = false;        //!< held once on the device, rather than in each matcher's room
  std::uint64_t matcher_bytes = 0;  //!< each matcher's at most: its batches', and its own slices'

  //! With `matchers` counting threads on the device.
  std::uint64_t total_bytes(std::uint64_t matchers) const {
    return (table_shared ? table_bytes : 0) + matchers * matcher_bytes;
  }
};

//! For N on a device of `device_bytes` of memory. The table is planned as shared where it fits
//! the share (the tables of the other N a process counts before come on top, within that share,
//! and the device may still fail to allocate it: then the matchers' rooms take it, as planned
//! for a table that does not fit).
DeviceMemoryPlan plan_device_memory(int n, std::uint64_t device_bytes);

//! What one matcher's two batches hold on the device at most: keys, recipes, tiles and counts.
std::uint64_t batch_device_bytes();

}  // namespace nqueens::gpu
