#pragma once
// A thread block's work written once for both compilers, as steps: `block.each(n, step)` runs
// step(i) for every i < n, shared among the block's threads (thread t takes t, t + threads, ...),
// and then waits for the whole block, so that the next step reads what this one wrote. On the
// device (DeviceBlock) each thread runs its own i's and meets the others at __syncthreads(); on
// the host (HostBlock) one thread runs every i of a step before the next step begins: the
// kernel's host form, for the tests, the device model and the stand-in driver. Code between
// steps runs on every thread alike, so it may read what the steps wrote but write only its own
// locals. A step must not read what another i of the same step writes: a device runs them in any
// order, and HostBlock can run them backwards to show that the order does not matter.
#include <cstdint>

#include "gpu/tile_match.hpp"

namespace nqueens::gpu {

//! What a block's steps cost its threads: trips of the longest thread (thread 0, which has an i
//! in every step), and trips summed over the warps that have an i in a step (a warp's trip is
//! its first thread's, the one with most), for the device model.
struct BlockTrips {
  double longest = 0, warps = 0;
};

//! The block on this CPU, of `threads` threads as the device's would be (for the trips alone).
struct HostBlock {
  std::uint32_t threads = 1;
  bool reversed = false;        //!< each step's i's from the last to the first
  BlockTrips* trips = nullptr;  //!< where given, what the steps would cost the device's block

  template <class Step>
  NQUEENS_HOST_DEVICE void each(std::uint32_t n, Step step) const {  // for nvcc, which sees its callers
    for (std::uint32_t k = 0; k < n; ++k) step(reversed ? n - 1 - k : k);
    if (trips == nullptr || n == 0) return;
    const auto trips_from = [&](std::uint32_t first) -> double {
      const std::uint32_t taken = (n - first + threads - 1) / threads;  // by thread `first`
      return taken;
    };
    trips->longest += trips_from(0);
    for (std::uint32_t first = 0; first < n && first < threads; first += 32) trips->warps += trips_from(first);
  }
};

#ifdef __CUDACC__
//! The block on the device: threadIdx.x of blockDim.x threads.
struct DeviceBlock {
  template <class Step>
  NQUEENS_HOST_DEVICE void each(std::uint32_t n, Step step) const {
#ifdef __CUDA_ARCH__
    for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) step(i);
    __syncthreads();
#else
    (void)n;  // only the device runs a block
    (void)step;
#endif
  }
};
#endif

}  // namespace nqueens::gpu
