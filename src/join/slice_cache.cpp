#include "join/slice_cache.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "join/join_memory.hpp"

namespace nqueens::join {

namespace {

std::atomic<std::uint64_t> process_builds{0};

}  // namespace

LoadedSlice::LoadedSlice(int n, std::uint32_t rows, bool with_keys) : slice(n / 2, rows) {
  if (with_keys) keys.emplace(slice.entries(), n);
}

std::size_t LoadedSlice::memory_bytes() const { return slice.memory_bytes() + (keys ? keys->memory_bytes() : 0); }

// The quadrant keys are four per entry.
std::uint64_t LoadedSlice::expected_bytes(int n, std::uint32_t rows, std::uint64_t entries, bool with_keys) {
  const std::uint64_t key_bytes = with_keys ? 4 * sizeof(std::uint64_t) : 0;
  return join::slice_bytes(n / 2, std::popcount(rows), entries) + entries * key_bytes;
}

SliceCache::SliceCache(int n, std::uint64_t budget_bytes)
    : n_(n),
      budget_(budget_bytes),
      keys_(slices_carry_keys(n, budget_bytes)),
      holds_whole_table_(budget_bytes == UINT64_MAX || budget_bytes >= whole_table_bytes(n, keys_)),
      placements_(placements_per_row_set(n / 2)),
      slots_(std::size_t{1} << (n / 2)) {}

SliceCache::Pin SliceCache::get(std::uint32_t rows) {
  std::shared_ptr<Slot> slot;
  {
    const std::scoped_lock lock(mutex_);
    slot = slots_.at(rows);
    if (slot) {
      recent_.splice(recent_.begin(), recent_, slot->recent);
      // Built and counted already: the common case takes the lock once, and adds nothing to evict.
      if (slot->counted) return slot->slice;
    } else {
      slot = slots_[rows] = std::make_shared<Slot>();
      recent_.push_front(rows);
      slot->recent = recent_.begin();
    }
  }
  // Outside the lock: other threads go on with other slices while this one is built, and a
  // thread that wants the same slice waits here for it. A build that throws leaves the slot
  // unbuilt for the next caller.
  std::call_once(slot->built, [&] {
    slot->slice = std::make_shared<const LoadedSlice>(n_, rows, keys_);
    slot->bytes = slot->slice->memory_bytes();
    builds_.fetch_add(1);
    process_builds.fetch_add(1);
  });
  const std::scoped_lock lock(mutex_);
  Pin pin = slot->slice;  // copied under the lock, so that eviction sees every pin
  if (!slot->counted) {
    slot->counted = true;
    bytes_ += slot->bytes;
    peak_bytes_.store(std::max(peak_bytes_.load(), bytes_));
  }
  slot.reset();
  evict_beyond(budget_);
  return pin;
}

std::uint64_t SliceCache::held_bytes() {
  const std::scoped_lock lock(mutex_);
  return bytes_;
}

void SliceCache::take_slices(SliceCache& earlier) {
  if (!same_slices(earlier))
    throw std::logic_error("a slice cache of N=" + std::to_string(n_) +
                           " cannot take the slices of N=" + std::to_string(earlier.n_));
  const std::scoped_lock lock(mutex_, earlier.mutex_);
  for (const std::uint32_t rows : earlier.recent_) {
    if (slots_[rows]) continue;  // built here already: the earlier copy goes with `earlier`
    slots_[rows] = std::move(earlier.slots_[rows]);
    if (slots_[rows]->counted) bytes_ += slots_[rows]->bytes;
  }
  // Their order of use kept, behind this cache's own: splicing keeps each slot's iterator valid.
  std::erase_if(earlier.recent_, [&](std::uint32_t rows) { return earlier.slots_[rows] != nullptr; });
  recent_.splice(recent_.end(), earlier.recent_);
  earlier.slots_.assign(earlier.slots_.size(), nullptr);
  earlier.bytes_ = 0;
  peak_bytes_.store(std::max(peak_bytes_.load(), bytes_));
  evict_beyond(budget_);
}

void SliceCache::keep_at_most(std::uint64_t bytes) {
  const std::scoped_lock lock(mutex_);
  evict_beyond(bytes);
}

std::uint64_t SliceCache::built_in_process() { return process_builds.load(); }

void SliceCache::evict_beyond(std::uint64_t limit) {
  for (auto it = recent_.end(); bytes_ > limit && it != recent_.begin();) {
    --it;
    std::shared_ptr<Slot>& slot = slots_[*it];
    // Only the cache holds a slot no caller is inside get() for, and a slice no unit pins.
    const bool pinned = slot.use_count() > 1 || (slot->slice && slot->slice.use_count() > 1);
    if (pinned) continue;
    if (slot->counted) bytes_ -= slot->bytes;
    slot.reset();
    it = recent_.erase(it);
  }
}

}  // namespace nqueens::join
