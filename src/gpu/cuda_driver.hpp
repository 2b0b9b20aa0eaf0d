#pragma once
// The CUDA driver, opened at run time (dlopen of libcuda.so.1): a build with CUDA links no CUDA
// library, so the same program runs on machines without a driver and says why it cannot use a
// device there. Only the calls the gpu engine makes are looked up.
#include <cuda.h>

#include <string>

namespace nqueens::gpu {

struct CudaDriver {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_version = nullptr;
  decltype(&::cuGetErrorString) error_string = nullptr;
  decltype(&::cuDeviceGetCount) device_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_name = nullptr;
  decltype(&::cuDeviceTotalMem) device_memory = nullptr;
  decltype(&::cuDeviceGetAttribute) device_attribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_context = nullptr;
  decltype(&::cuCtxSetCurrent) set_context = nullptr;
  decltype(&::cuModuleLoadData) load_module = nullptr;
  decltype(&::cuModuleGetFunction) module_function = nullptr;
  decltype(&::cuFuncSetAttribute) function_attribute = nullptr;
  decltype(&::cuMemGetInfo) memory_info = nullptr;
  decltype(&::cuMemAlloc) allocate = nullptr;
  decltype(&::cuMemFree) release = nullptr;
  decltype(&::cuMemAllocHost) allocate_pinned = nullptr;
  decltype(&::cuMemFreeHost) release_pinned = nullptr;
  decltype(&::cuMemcpyHtoDAsync) copy_to_device = nullptr;
  decltype(&::cuMemcpyDtoHAsync) copy_to_host = nullptr;
  decltype(&::cuMemsetD8Async) set_bytes = nullptr;
  decltype(&::cuStreamCreate) create_stream = nullptr;
  decltype(&::cuStreamDestroy) destroy_stream = nullptr;
  decltype(&::cuStreamSynchronize) synchronize_stream = nullptr;
  decltype(&::cuLaunchKernel) launch = nullptr;
};

//! The driver, opened and initialised once; nullptr when that failed, and then `why` says
//! why ("no NVIDIA driver: libcuda.so.1 ...", "cuInit failed: ...").
const CudaDriver* cuda_driver(std::string* why = nullptr);

//! Throws std::runtime_error("GPU: <what> failed: <the driver's words>") unless `result` is success.
void check(CUresult result, const char* what);

}  // namespace nqueens::gpu
