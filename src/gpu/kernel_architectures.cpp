#include "gpu/kernel_architectures.hpp"

#include <initializer_list>

namespace nqueens::gpu {

// The build defines NQUEENS_CUDA_MACHINE_CODE (a comma-separated list) and NQUEENS_CUDA_PTX on
// this file where it compiles kernels (CMakeLists.txt).
const BuiltKernels& built_kernels() {
#if defined(NQUEENS_CUDA_MACHINE_CODE) && defined(NQUEENS_CUDA_PTX)
  static const BuiltKernels built{std::vector<int>(std::initializer_list<int>{NQUEENS_CUDA_MACHINE_CODE}),
                                  NQUEENS_CUDA_PTX};
#else
  static const BuiltKernels built{};
#endif
  return built;
}

std::string built_kernels_text(const BuiltKernels& kernels) {
  std::string text;
  for (const int arch : kernels.machine_code) text += (text.empty() ? "sm_" : " sm_") + std::to_string(arch);
  if (!text.empty()) text += " machine code";
  if (kernels.ptx != 0) text += (text.empty() ? "" : ", ") + std::string("PTX compute_") + std::to_string(kernels.ptx);
  return text.empty() ? "none" : text;
}

std::string kernel_for(const BuiltKernels& kernels, int major, int minor) {
  const int device = 10 * major + minor;
  int best = 0;
  for (const int arch : kernels.machine_code)
    if (arch / 10 == major && arch <= device && arch > best) best = arch;
  if (best != 0) return "sm_" + std::to_string(best);
  if (kernels.ptx != 0 && kernels.ptx <= device)
    return "PTX compute_" + std::to_string(kernels.ptx) + ", compiled at load";
  return "";
}

}  // namespace nqueens::gpu
