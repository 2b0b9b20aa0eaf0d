// The gpu engine in a build without its device path (NQUEENS_CUDA=OFF): no devices, and
// the reason, so that asking for the engine is refused in one line.
#include <stdexcept>

#include "gpu/gpu_devices.hpp"

namespace nqueens::gpu {

const Devices& devices() {
  static const Devices none{{},
                            "this build has no CUDA support (rebuild with -DNQUEENS_CUDA=ON on a machine with "
                            "the CUDA toolkit)",
                            0};
  return none;
}

std::string devices_text() { return devices().problem; }

std::uint64_t matcher_bytes() { return 0; }

TableHome quarter_table_home(std::size_t /*device*/, int /*k*/) {
  throw std::logic_error("quarter_table_home: this build has no CUDA support");
}

std::unique_ptr<join::PairMatcher> make_device_matcher(std::size_t /*device*/, SplitRule /*rule*/) {
  throw std::logic_error("make_device_matcher: this build has no CUDA support");
}

}  // namespace nqueens::gpu
