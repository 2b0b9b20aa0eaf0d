// ZeroedArray: the session's ledger and the join's big per-unit arrays live in it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "engine/zeroed_array.hpp"
#include "nqueens/counts.hpp"

namespace {

using nqueens::Tally;
using nqueens::ZeroedArray;

// Sizes around the huge-page path (2 MiB and up) and below it, and the empty array.
constexpr std::size_t kSizes[] = {
    0, 1, 1000, (std::size_t{2} << 20) / sizeof(Tally) - 1, (std::size_t{2} << 20) / sizeof(Tally), 200'000};

TEST(ZeroedArray, StartsAsValueInitialisedElementsAndKeepsWhatIsWritten) {
  for (const std::size_t size : kSizes) {
    ZeroedArray<Tally> array(size);
    ASSERT_EQ(array.size(), size);
    for (std::size_t i = 0; i < size; ++i) ASSERT_EQ(array[i], Tally{}) << "size " << size << " at " << i;
    for (std::size_t i = 0; i < size; ++i) array[i].total = i + 1;
    for (std::size_t i = 0; i < size; ++i) ASSERT_EQ(array[i].total, i + 1);
  }
}

TEST(ZeroedArray, LargeArraysStartOnAHugePageBoundary) {
  const ZeroedArray<std::uint64_t> array(std::size_t{3} << 20);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(array.data()) % (std::size_t{2} << 20), 0u);
}

TEST(ZeroedArray, MovesHandOverTheElements) {
  ZeroedArray<std::uint64_t> first(300'000);
  first[299'999] = 7;
  ZeroedArray<std::uint64_t> second(std::move(first));
  EXPECT_EQ(second.size(), 300'000u);
  EXPECT_EQ(second[299'999], 7u);
  ZeroedArray<std::uint64_t> third(5);
  third = std::move(second);
  EXPECT_EQ(third.size(), 300'000u);
  EXPECT_EQ(third[299'999], 7u);
}

}  // namespace
