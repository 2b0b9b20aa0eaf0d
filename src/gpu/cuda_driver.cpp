#include "gpu/cuda_driver.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace nqueens::gpu {

namespace {

struct Opened {
  CudaDriver driver;
  std::string problem;  // "" when the driver is usable
};

template <typename Function>
bool look_up(void* library, const char* name, Function& function, std::string& problem) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (!function && problem.empty()) problem = std::string("the NVIDIA driver lacks ") + name + " (too old?)";
  return function != nullptr;
}

Opened open_driver() {
  Opened opened;
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    opened.problem = "no NVIDIA driver: libcuda.so.1 could not be loaded";
    return opened;
  }
  CudaDriver& d = opened.driver;
  std::string& p = opened.problem;
  look_up(library, "cuInit", d.init, p);
  look_up(library, "cuDriverGetVersion", d.driver_version, p);
  look_up(library, "cuGetErrorString", d.error_string, p);
  look_up(library, "cuDeviceGetCount", d.device_count, p);
  look_up(library, "cuDeviceGet", d.device_get, p);
  look_up(library, "cuDeviceGetName", d.device_name, p);
  look_up(library, "cuDeviceTotalMem_v2", d.device_memory, p);
  look_up(library, "cuDeviceGetAttribute", d.device_attribute, p);
  look_up(library, "cuDevicePrimaryCtxRetain", d.primary_context, p);
  look_up(library, "cuCtxSetCurrent", d.set_context, p);
  look_up(library, "cuModuleLoadData", d.load_module, p);
  look_up(library, "cuModuleGetFunction", d.module_function, p);
  look_up(library, "cuFuncSetAttribute", d.function_attribute, p);
  look_up(library, "cuMemGetInfo_v2", d.memory_info, p);
  look_up(library, "cuMemAlloc_v2", d.allocate, p);
  look_up(library, "cuMemFree_v2", d.release, p);
  look_up(library, "cuMemAllocHost_v2", d.allocate_pinned, p);
  look_up(library, "cuMemFreeHost", d.release_pinned, p);
  look_up(library, "cuMemcpyHtoDAsync_v2", d.copy_to_device, p);
  look_up(library, "cuMemcpyDtoHAsync_v2", d.copy_to_host, p);
  look_up(library, "cuMemsetD8Async", d.set_bytes, p);
  look_up(library, "cuStreamCreate", d.create_stream, p);
  look_up(library, "cuStreamDestroy_v2", d.destroy_stream, p);
  look_up(library, "cuStreamSynchronize", d.synchronize_stream, p);
  look_up(library, "cuLaunchKernel", d.launch, p);
  if (!p.empty()) return opened;
  d.runs_host_form = dlsym(library, "nqueens_stand_in_host_form") != nullptr;
  if (const CUresult result = d.init(0); result != CUDA_SUCCESS) {
    const char* words = nullptr;
    d.error_string(result, &words);
    p = std::string("the NVIDIA driver did not start (cuInit: ") + (words ? words : "unknown error") + ")";
  }
  return opened;  // the library stays open for the life of the process
}

}  // namespace

const CudaDriver* cuda_driver(std::string* why) {
  static const Opened opened = open_driver();
  if (why) *why = opened.problem;
  return opened.problem.empty() ? &opened.driver : nullptr;
}

void check(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return;
  const char* words = nullptr;
  if (const CudaDriver* driver = cuda_driver()) driver->error_string(result, &words);
  throw std::runtime_error(std::string("GPU: ") + what + " failed: " + (words ? words : "unknown error"));
}

}  // namespace nqueens::gpu
