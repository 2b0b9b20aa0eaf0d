#include "gpu/shared_slices.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "gpu/pairing_spec.hpp"
#include "join/quarter_table.hpp"

namespace nqueens::gpu {

std::uint64_t quarter_table_entries(int k) {
  std::uint64_t entries = 0;
  for (const std::uint64_t placements : join::placements_per_row_set(k)) entries += placements;
  return entries;
}

std::uint64_t quarter_table_device_bytes(int k) {
  return quarter_table_entries(k) * sizeof(join::QuarterEntry) + group_index_words(k) * sizeof(std::uint32_t);
}

const char* table_home_text(TableHome home) {
  switch (home) {
    case TableHome::shared: return "held once on the device";
    case TableHome::too_large: return "larger than the device's share for it: each thread keeps its own slices";
    case TableHome::no_memory: return "not allocated (out of device memory): each thread keeps its own slices";
  }
  return "";
}

SharedSlices::Table& SharedSlices::table(int k) {
  auto found = tables_.find(k);
  if (found != tables_.end()) return found->second;
  Table table;
  const std::uint64_t entries = quarter_table_entries(k);
  // The room is counted in entries: the group index takes its bytes' worth of them.
  const std::uint64_t held = quarter_table_device_bytes(k) / sizeof(join::QuarterEntry);
  if (reserved_ + held <= room_) {
    if (reserve(k, static_cast<std::size_t>(entries))) {
      table.home = TableHome::shared;
      table.reserved = static_cast<std::size_t>(entries);
      reserved_ += static_cast<std::size_t>(held);
    } else {
      table.home = TableHome::no_memory;
    }
  }
  return tables_.emplace(k, std::move(table)).first->second;
}

TableHome SharedSlices::home(int k) {
  const std::lock_guard lock(mutex_);
  return table(k).home;
}

std::optional<std::uint64_t> SharedSlices::place(const join::QuarterSlice& slice) {
  const std::lock_guard lock(mutex_);
  const int k = slice.k();
  Table& table = this->table(k);
  if (table.home != TableHome::shared) return std::nullopt;
  if (const auto placed = table.placed.find(slice.rows()); placed != table.placed.end()) return placed->second;
  const std::span<const join::QuarterEntry> entries = slice.entries();
  if (table.used + entries.size() > table.reserved)
    throw std::logic_error("SharedSlices: the slices of a k outgrew its quarter table");
  send(k, table.used, entries, std::uint64_t{slice.rows()} * ((std::uint64_t{1} << k) + 1), slice.group_starts());
  const std::uint64_t first = table.used;
  table.placed.emplace(slice.rows(), first);
  table.used += entries.size();
  sent_ += entries.size();
  return first;
}

std::uint64_t SharedSlices::entries_sent() const {
  const std::lock_guard lock(mutex_);
  return sent_;
}

bool HostSharedSlices::reserve(int k, std::size_t entries) {
  if (out_of_memory_) return false;
  entries_[k].resize(entries);
  index_[k].resize(group_index_words(k));
  return true;
}

void HostSharedSlices::send(int k, std::uint64_t first, std::span<const join::QuarterEntry> entries,
                            std::uint64_t index_first, std::span<const std::uint32_t> starts) {
  std::copy(entries.begin(), entries.end(), entries_.at(k).begin() + static_cast<std::ptrdiff_t>(first));
  std::copy(starts.begin(), starts.end(), index_.at(k).begin() + static_cast<std::ptrdiff_t>(index_first));
}

}  // namespace nqueens::gpu
