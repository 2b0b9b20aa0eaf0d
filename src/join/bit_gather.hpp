#pragma once
// Gathering chosen bits of many keys into their low bits (what x86's PEXT does to one), for the
// matcher's compressed keys and the slot split's slot numbers: on N = 21's small sides the
// matcher compressed keys with eight byte-table lookups each and spent more time on that than on
// matching.
#include <cstdint>
#include <span>

namespace nqueens::join::detail {

//! Whether this CPU has PEXT and runs it in a few cycles. AMD's cores before Zen 3 have the
//! instruction but microcode it (hundreds of cycles), so they and unknown vendors answer false.
bool fast_bit_gather();

//! out[i] = the bits of keys[i] under `mask`, packed from bit 0 in their order (PEXT). Only where
//! fast_bit_gather(): the caller keeps a fallback.
void gather_bits(std::span<const std::uint64_t> keys, std::uint64_t mask, std::uint64_t* out);

//! As gather_bits(), for masks of at most 16 bits (slot numbers).
void gather_bits(std::span<const std::uint64_t> keys, std::uint64_t mask, std::uint16_t* out);

}  // namespace nqueens::join::detail
