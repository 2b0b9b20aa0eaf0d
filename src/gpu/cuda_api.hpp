#pragma once
// The part of the CUDA driver API the gpu engine calls, declared here rather than taken from the
// toolkit's cuda.h: the driver is opened at run time (cuda_driver.cpp), so the engine's device
// path, and the tests' stand-in driver that runs the kernels' host form, build on every machine;
// only the kernels themselves need nvcc. The values and signatures are the driver's ABI (64-bit
// Linux); tests/gpu/test_cuda_api.cpp checks them against cuda.h wherever the toolkit is found.
#include <cstddef>

namespace nqueens::gpu {

enum CUresult : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;

using CUdevice = int;
using CUdeviceptr = unsigned long long;  // NOLINT(google-runtime-int): the driver's own type
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;

// The calls, by the types of the driver's exported symbols (the _v2 ones where cuda.h maps a
// name to one: cuda_driver.cpp looks up those).
namespace driver_api {
using Init = CUresult (*)(unsigned flags);
using DriverGetVersion = CUresult (*)(int* version);
using GetErrorString = CUresult (*)(CUresult error, const char** text);
using DeviceGetCount = CUresult (*)(int* count);
using DeviceGet = CUresult (*)(CUdevice* device, int ordinal);
using DeviceGetName = CUresult (*)(char* name, int length, CUdevice device);
using DeviceTotalMem = CUresult (*)(std::size_t* bytes, CUdevice device);
using DeviceGetAttribute = CUresult (*)(int* value, CUdevice_attribute attribute, CUdevice device);
using DevicePrimaryCtxRetain = CUresult (*)(CUcontext* context, CUdevice device);
using CtxSetCurrent = CUresult (*)(CUcontext context);
using ModuleLoadData = CUresult (*)(CUmodule* module, const void* image);
using ModuleGetFunction = CUresult (*)(CUfunction* function, CUmodule module, const char* name);
using FuncSetAttribute = CUresult (*)(CUfunction function, CUfunction_attribute attribute, int value);
using MemGetInfo = CUresult (*)(std::size_t* free, std::size_t* total);
using MemAlloc = CUresult (*)(CUdeviceptr* pointer, std::size_t bytes);
using MemFree = CUresult (*)(CUdeviceptr pointer);
using MemAllocHost = CUresult (*)(void** pointer, std::size_t bytes);
using MemFreeHost = CUresult (*)(void* pointer);
using MemcpyHtoDAsync = CUresult (*)(CUdeviceptr to, const void* from, std::size_t bytes, CUstream stream);
using MemcpyDtoHAsync = CUresult (*)(void* to, CUdeviceptr from, std::size_t bytes, CUstream stream);
using MemsetD8Async = CUresult (*)(CUdeviceptr to, unsigned char value, std::size_t bytes, CUstream stream);
using StreamCreate = CUresult (*)(CUstream* stream, unsigned flags);
using StreamDestroy = CUresult (*)(CUstream stream);
using StreamSynchronize = CUresult (*)(CUstream stream);
using LaunchKernel = CUresult (*)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                  unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                                  CUstream stream, void** arguments, void** extra);
}  // namespace driver_api

}  // namespace nqueens::gpu
