#pragma once
// The kernels of match_kernel.cu, compiled by nvcc into a fat binary for the build's GPU
// architectures and embedded in the library (the build writes its definition).
#include <cstddef>

namespace nqueens::gpu {

extern const unsigned char kMatchFatbin[];
extern const std::size_t kMatchFatbinBytes;

}  // namespace nqueens::gpu
