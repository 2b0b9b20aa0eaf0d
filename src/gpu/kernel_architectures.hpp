#pragma once
// The GPU architectures this build's kernels were compiled for, and which of them a device of a
// given compute capability would run: plain C++, so that `version` and the engine's refusal say
// it on machines without a device, and the tests check the choice against the driver's rules.
#include <string>
#include <vector>

namespace nqueens::gpu {

//! Architectures as CUDA numbers them: 90 is compute capability 9.0, 121 is 12.1.
struct BuiltKernels {
  std::vector<int> machine_code;  //!< sm_XY binaries, ascending
  int ptx = 0;                    //!< the PTX's compute_XY, compiled by the driver at load; 0: none
};

//! This build's (empty in a build without CUDA).
const BuiltKernels& built_kernels();

//! "sm_75 sm_80 ... sm_120 machine code, PTX compute_121", or "none" for an empty build.
std::string built_kernels_text(const BuiltKernels& kernels);

//! What a device of compute capability major.minor loads: the newest machine code of its major
//! version at or below its minor one ("sm_86"), else the PTX when its architecture is at or below
//! the device's ("PTX compute_121, compiled at load"), else "" (no kernel it can run). These are
//! the driver's rules: a binary runs only on its own major version, PTX on its own or any later.
std::string kernel_for(const BuiltKernels& kernels, int major, int minor);

}  // namespace nqueens::gpu
