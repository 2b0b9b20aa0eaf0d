#pragma once
// The CUDA driver, opened at run time (dlopen of libcuda.so.1): a build with CUDA links no CUDA
// library, so the same program runs on machines without a driver and says why it cannot use a
// device there. Only the calls the gpu engine makes are looked up.
#include <string>

#include "gpu/cuda_api.hpp"

namespace nqueens::gpu {

struct CudaDriver {
  driver_api::Init init = nullptr;
  driver_api::DriverGetVersion driver_version = nullptr;
  driver_api::GetErrorString error_string = nullptr;
  driver_api::DeviceGetCount device_count = nullptr;
  driver_api::DeviceGet device_get = nullptr;
  driver_api::DeviceGetName device_name = nullptr;
  driver_api::DeviceTotalMem device_memory = nullptr;
  driver_api::DeviceGetAttribute device_attribute = nullptr;
  driver_api::DevicePrimaryCtxRetain primary_context = nullptr;
  driver_api::CtxSetCurrent set_context = nullptr;
  driver_api::ModuleLoadData load_module = nullptr;
  driver_api::ModuleGetFunction module_function = nullptr;
  driver_api::FuncSetAttribute function_attribute = nullptr;
  driver_api::MemGetInfo memory_info = nullptr;
  driver_api::MemAlloc allocate = nullptr;
  driver_api::MemFree release = nullptr;
  driver_api::MemAllocHost allocate_pinned = nullptr;
  driver_api::MemFreeHost release_pinned = nullptr;
  driver_api::MemcpyHtoDAsync copy_to_device = nullptr;
  driver_api::MemcpyDtoHAsync copy_to_host = nullptr;
  driver_api::MemsetD8Async set_bytes = nullptr;
  driver_api::StreamCreate create_stream = nullptr;
  driver_api::StreamDestroy destroy_stream = nullptr;
  driver_api::StreamSynchronize synchronize_stream = nullptr;
  driver_api::LaunchKernel launch = nullptr;
  //! The tests' stand-in driver (tests/support/stand_in_cuda, which exports
  //! nqueens_stand_in_host_form): it runs the kernels' host form, whatever machine code this
  //! build holds, so that a build without nvcc still runs the device path in its tests.
  bool runs_host_form = false;
};

//! The driver, opened and initialised once; nullptr when that failed, and then `why` says
//! why ("no NVIDIA driver: libcuda.so.1 ...", "cuInit failed: ...").
const CudaDriver* cuda_driver(std::string* why = nullptr);

//! Throws std::runtime_error("GPU: <what> failed: <the driver's words>") unless `result` is success.
void check(CUresult result, const char* what);

}  // namespace nqueens::gpu
