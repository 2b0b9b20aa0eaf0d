#include "join/bit_gather.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace nqueens::join::detail {

#if defined(__x86_64__)

// Compiled for BMI2 whatever the build's -march, and called only where fast_bit_gather().
#define NQUEENS_BMI2 __attribute__((target("bmi2")))

bool fast_bit_gather() {
  if (!__builtin_cpu_supports("bmi2")) return false;
  if (__builtin_cpu_is("intel")) return true;
  // Families 15h to 17h (Bulldozer to Zen 2) microcode PEXT; 19h (Zen 3, Zen 4) and later do not.
  return __builtin_cpu_is("amd") && !__builtin_cpu_is("amdfam15h") && !__builtin_cpu_is("amdfam17h");
}

NQUEENS_BMI2 void gather_bits(std::span<const std::uint64_t> keys, std::uint64_t mask, std::uint64_t* out) {
  for (const std::uint64_t key : keys) *out++ = _pext_u64(key, mask);
}

NQUEENS_BMI2 void gather_bits(std::span<const std::uint64_t> keys, std::uint64_t mask, std::uint16_t* out) {
  for (const std::uint64_t key : keys) *out++ = static_cast<std::uint16_t>(_pext_u64(key, mask));
}

#else

bool fast_bit_gather() { return false; }

// Never called, as fast_bit_gather() is false; PEXT's meaning bit by bit, so that it links.
void gather_bits(std::span<const std::uint64_t> keys, std::uint64_t mask, std::uint64_t* out) {
  for (const std::uint64_t key : keys) {
    std::uint64_t gathered = 0;
    int next = 0;
    for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1, ++next)
      if ((key & rest & (~rest + 1)) != 0) gathered |= std::uint64_t{1} << next;
    *out++ = gathered;
  }
}

void gather_bits(std::span<const std::uint64_t> keys, std::uint64_t mask, std::uint16_t* out) {
  for (const std::uint64_t key : keys) {
    std::uint64_t gathered = 0;
    gather_bits({&key, 1}, mask, &gathered);
    *out++ = static_cast<std::uint16_t>(gathered);
  }
}

#endif

}  // namespace nqueens::join::detail
