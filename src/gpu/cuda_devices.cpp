// The devices the CUDA driver sees (a build with CUDA).
#include <cstdio>

#include "gpu/cuda_driver.hpp"
#include "gpu/gpu_devices.hpp"
#include "gpu/kernel_architectures.hpp"

namespace nqueens::gpu {

namespace {

int attribute(const CudaDriver& driver, CUdevice device, CUdevice_attribute which) {
  int value = 0;
  check(driver.device_attribute(&value, which, device), "cuDeviceGetAttribute");
  return value;
}

DeviceInfo describe(const CudaDriver& driver, int index) {
  CUdevice device = 0;
  check(driver.device_get(&device, index), "cuDeviceGet");
  DeviceInfo info;
  char name[256] = {};
  check(driver.device_name(name, sizeof name - 1, device), "cuDeviceGetName");
  info.name = name;
  std::size_t memory = 0;
  check(driver.device_memory(&memory, device), "cuDeviceTotalMem");
  info.memory_bytes = memory;
  info.major = attribute(driver, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.minor = attribute(driver, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info.multiprocessors = attribute(driver, device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.kernel = driver.runs_host_form ? "the kernels' host form (stand-in driver)"
                                      : kernel_for(built_kernels(), info.major, info.minor);
  return info;
}

Devices find_devices() {
  Devices found;
  const CudaDriver* driver = cuda_driver(&found.problem);
  if (!driver) return found;
  try {
    check(driver->driver_version(&found.driver_version), "cuDriverGetVersion");
    int count = 0;
    check(driver->device_count(&count), "cuDeviceGetCount");
    for (int index = 0; index < count; ++index) found.list.push_back(describe(*driver, index));
  } catch (const std::exception& error) {
    found.list.clear();
    found.problem = error.what();
    return found;
  }
  if (found.list.empty()) found.problem = "the NVIDIA driver sees no CUDA device";
  return found;
}

}  // namespace

const Devices& devices() {
  static const Devices found = find_devices();
  return found;
}

std::string devices_text() {
  const Devices& found = devices();
  if (found.list.empty()) return found.problem;
  std::string text;
  char line[512];
  for (const DeviceInfo& device : found.list) {
    std::snprintf(line, sizeof line, "%s%s, %.1f GiB, compute capability %d.%d, %d multiprocessors",
                  text.empty() ? "" : "; ", device.name.c_str(), static_cast<double>(device.memory_bytes) / (1 << 30),
                  device.major, device.minor, device.multiprocessors);
    text += line +
            (device.kernel.empty() ? std::string(", no kernel of this build runs on it") : ", runs " + device.kernel);
  }
  std::snprintf(line, sizeof line, " (driver %d.%d)", found.driver_version / 1000, found.driver_version % 1000 / 10);
  return text + line;
}

}  // namespace nqueens::gpu
