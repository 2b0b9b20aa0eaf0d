// gpu/cuda_api.hpp, the driver ABI the engine declares itself, against the toolkit's cuda.h
// (built only where the toolkit is found): the same values, the same handle types, and the same
// exported symbols as the names cuda.h maps its calls to.
#include <cuda.h>
#include <gtest/gtest.h>

#include <string_view>
#include <type_traits>

#include "gpu/cuda_api.hpp"

namespace {

namespace api = nqueens::gpu;

// Two enums compare by their values.
constexpr bool same(auto ours, auto theirs) { return static_cast<long long>(ours) == static_cast<long long>(theirs); }

static_assert(same(api::CUDA_SUCCESS, ::CUDA_SUCCESS));
static_assert(same(api::CUDA_ERROR_OUT_OF_MEMORY, ::CUDA_ERROR_OUT_OF_MEMORY));
static_assert(same(api::CUDA_ERROR_INVALID_DEVICE, ::CUDA_ERROR_INVALID_DEVICE));
static_assert(same(api::CUDA_ERROR_NOT_FOUND, ::CUDA_ERROR_NOT_FOUND));
static_assert(same(api::CUDA_ERROR_LAUNCH_FAILED, ::CUDA_ERROR_LAUNCH_FAILED));
static_assert(sizeof(api::CUresult) == sizeof(::CUresult));
static_assert(same(api::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, ::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
static_assert(same(api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
static_assert(same(api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
static_assert(same(api::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                   ::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
static_assert(same(api::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                   ::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
static_assert(sizeof(api::CUdevice_attribute) == sizeof(::CUdevice_attribute));
static_assert(same(api::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                   ::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
static_assert(api::CU_STREAM_NON_BLOCKING == ::CU_STREAM_NON_BLOCKING);
static_assert(std::is_same_v<api::CUdeviceptr, ::CUdeviceptr>);
static_assert(std::is_same_v<api::CUdevice, ::CUdevice>);

#define NQUEENS_SYMBOL_TEXT(name) #name
#define NQUEENS_SYMBOL(name) NQUEENS_SYMBOL_TEXT(name)

// The names gpu/cuda_driver.cpp looks up are the symbols cuda.h's calls resolve to.
TEST(CudaApi, LooksUpTheSymbolsCudaHCalls) {
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuDeviceTotalMem)), "cuDeviceTotalMem_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemGetInfo)), "cuMemGetInfo_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemAlloc)), "cuMemAlloc_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemFree)), "cuMemFree_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemAllocHost)), "cuMemAllocHost_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemFreeHost)), "cuMemFreeHost");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemcpyHtoDAsync)), "cuMemcpyHtoDAsync_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuMemcpyDtoHAsync)), "cuMemcpyDtoHAsync_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuStreamDestroy)), "cuStreamDestroy_v2");
  EXPECT_EQ(std::string_view(NQUEENS_SYMBOL(cuLaunchKernel)), "cuLaunchKernel");
}

}  // namespace
