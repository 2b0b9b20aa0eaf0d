#pragma once
// The devices the gpu engine can count on, found once per process, and what each counting
// thread uses on one: a DeviceMatcher (device_matcher.cpp). A build without CUDA (no_cuda.cpp)
// finds none and says so.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/shared_slices.hpp"
#include "gpu/slot_split.hpp"
#include "join/pair_matcher.hpp"

namespace nqueens::gpu {

struct DeviceInfo {
  std::string name;
  std::uint64_t memory_bytes = 0;
  int major = 0, minor = 0;  //!< compute capability
  int multiprocessors = 0;
  //! What it runs of this build's kernels ("sm_90", "PTX compute_121, compiled at load", the
  //! host form under the tests' stand-in driver); "" when none of them.
  std::string kernel;
};

struct Devices {
  std::vector<DeviceInfo> list;
  //! Why the engine cannot count here ("this build has no CUDA support ...", "no NVIDIA driver
  //! ...", "the driver sees no CUDA device"); "" when list is not empty.
  std::string problem;
  int driver_version = 0;  //!< as the driver gives it: 13000 for 13.0
};

//! Looked for once, on first use.
const Devices& devices();

//! One line per device ("NVIDIA H100 80GB HBM3, 79.2 GiB, compute capability 9.0, 132
//! multiprocessors"), or the problem: for `version` and the JSON context.
std::string devices_text();

//! Halves (as estimated) a DeviceMatcher's batch holds before it is sent to the device.
inline constexpr std::size_t kBatchKeys = std::size_t{1} << 20;
//! The slice entries a DeviceMatcher keeps on its device at most (512 MiB: the whole quarter
//! table of N = 22 and 23), where its device's shared slices (shared_slices.hpp) cannot hold the
//! run's table. The room grows from 512 KiB as the slices sent fill it.
inline constexpr std::size_t kDeviceEntries = std::size_t{1} << 26;
//! Room per half (as estimated) in a batch for its recipes, counters, jobs and tiles: small jobs
//! are the rule.
inline constexpr std::size_t kMetaBytesPerKey = 4;
//! What one DeviceMatcher holds in pinned host memory: two batches' recipes, tiles and counts.
std::uint64_t matcher_bytes();

//! Where device `device` keeps the quarter table of `k` for its matchers: decided (and, where
//! it is held once, allocated) on the first call for k, by this or by the first matcher that
//! reads a slice of k. Throws std::runtime_error when the device cannot be used.
TableHome quarter_table_home(std::size_t device, int k);

//! Counts pairs on device `device` (an index into devices().list), splitting row sets' sides by
//! `rule`. Throws std::runtime_error when the device cannot be used.
std::unique_ptr<join::PairMatcher> make_device_matcher(std::size_t device, SplitRule rule);

}  // namespace nqueens::gpu
