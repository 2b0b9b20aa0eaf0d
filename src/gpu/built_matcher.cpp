#include "gpu/built_matcher.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

#include "gpu/job_tiles.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/tiles_on_host.hpp"

namespace nqueens::gpu {

namespace {

// A slice is the same wherever it is read: its rows and its size say which.
std::uint64_t slice_key(const join::QuarterSlice& slice) {
  return (std::uint64_t{static_cast<std::uint32_t>(slice.k())} << 32) | slice.rows();
}

// The device's entries start this small and double, up to the matcher's most, as slices fill them.
constexpr std::size_t kLeastEntries = std::size_t{1} << 16;

}  // namespace

std::size_t most_own_entries(std::uint64_t table_entries, std::size_t most) {
  return static_cast<std::size_t>(
      std::min<std::uint64_t>(most, std::bit_ceil(std::max<std::uint64_t>(table_entries, kLeastEntries))));
}

BuiltMatcher::BuiltMatcher(std::size_t batch_keys, std::size_t entries, SplitRule rule, SharedSlices* shared)
    : batch_keys_(batch_keys),
      most_entries_(entries),
      shared_(shared),
      buffers_{Buffer{BuiltBatch(rule), {}, 0, false}, Buffer{BuiltBatch(rule), {}, 0, false}} {}

void BuiltMatcher::match(std::size_t /*slot*/, join::KeyParts /*east*/, join::KeyParts /*west*/,
                         const join::PartWeights& /*weights*/, int /*key_bits*/) {
  throw std::logic_error("BuiltMatcher::match: this matcher builds its halves from slices");
}

// When the row set's slices that are not on the device do not fit beside those that are, every
// batch is sent and counted, and the device's entries start over (grown, up to the most).
void BuiltMatcher::make_room(const join::RowSetSlices& row_set) {
  std::array<std::uint64_t, 4> missing{};
  std::size_t missing_count = 0, needed = 0;
  for (const join::QuarterSlice* slice :
       {&row_set.east_north, &row_set.east_south, &row_set.west_north, &row_set.west_south}) {
    const std::uint64_t key = slice_key(*slice);
    const std::span<const std::uint64_t> seen(missing.data(), missing_count);
    if (placed_.contains(key) || std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    missing[missing_count++] = key;
    needed += slice->entries().size();
  }
  if (entries_used_ + needed <= entries_room_) return;
  if (!buffers_[static_cast<std::size_t>(current_)].batch.empty()) send_current();
  for (int buffer = 0; buffer < 2; ++buffer)
    if (buffers_[static_cast<std::size_t>(buffer)].counting) collect(buffer);
  placed_.clear();
  entries_used_ = 0;
  const std::size_t room = std::max(needed, std::min(most_entries_, std::max(2 * entries_room_, kLeastEntries)));
  if (room > entries_room_) {
    reserve_entries(room);
    entries_room_ = room;
  }
}

// A slice not yet on the device is staged with the current batch, after every entry placed.
std::uint64_t BuiltMatcher::place(const join::QuarterSlice& slice) {
  const auto [it, added] = placed_.try_emplace(slice_key(slice), entries_used_);
  if (!added) return it->second;
  Buffer& buffer = buffers_[static_cast<std::size_t>(current_)];
  if (buffer.staged.empty()) buffer.staged_first = entries_used_;
  buffer.staged.insert(buffer.staged.end(), slice.entries().begin(), slice.entries().end());
  entries_used_ += slice.entries().size();
  return it->second;
}

// The shared entries hold the whole table or none of it (SharedSlices decides once a run), so a
// matcher reads either them or its own for every row set.
bool BuiltMatcher::place_shared(const join::RowSetSlices& row_set, std::array<std::uint64_t, 4>& firsts) {
  if (shared_ == nullptr) return false;
  const std::array<const join::QuarterSlice*, 4> slices = {&row_set.east_north, &row_set.east_south,
                                                           &row_set.west_north, &row_set.west_south};
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const std::optional<std::uint64_t> first = shared_->place(*slices[i]);
    if (!first) return false;
    firsts[i] = *first;
  }
  reads_shared_ = true;
  shared_k_ = row_set.east_north.k();
  return true;
}

void BuiltMatcher::match_slices(std::size_t slot, const join::RowSetSlices& row_set) {
  std::array<std::uint64_t, 4> firsts{};
  if (!place_shared(row_set, firsts)) {
    make_room(row_set);
    firsts = {place(row_set.east_north), place(row_set.east_south), place(row_set.west_north),
              place(row_set.west_south)};
  }
  BuiltBatch& batch = buffers_[static_cast<std::size_t>(current_)].batch;
  batch.add(slot, row_set, firsts[0], firsts[1], firsts[2], firsts[3]);
  if (batch.estimated_keys() >= static_cast<double>(batch_keys_)) send_current();
}

// The current batch is counted and planned while the other one may still be matched; the other
// one is collected afterwards, as its buffer is the one filled next.
void BuiltMatcher::send_current() {
  Buffer& buffer = buffers_[static_cast<std::size_t>(current_)];
  const std::span<const std::uint32_t> counts =
      count_halves(current_, buffer.batch, buffer.staged_first, buffer.staged);
  buffer.staged.clear();
  buffer.batch.plan(counts, halves_);
  start(current_, buffer.batch);
  buffer.counting = true;
  const int other = 1 - current_;
  if (buffers_[static_cast<std::size_t>(other)].counting) collect(other);
  current_ = other;
}

void BuiltMatcher::collect(int buffer) {
  Buffer& collected = buffers_[static_cast<std::size_t>(buffer)];
  const std::span<const std::uint64_t> counts = wait(buffer);
  const std::span<const std::size_t> slots = collected.batch.tiles().slots();
  for (std::size_t job = 0; job < slots.size(); ++job) {
    if (pairs_.size() <= slots[job]) pairs_.resize(slots[job] + 1, 0);
    pairs_[slots[job]] += counts[job];
  }
  collected.batch.clear();
  collected.counting = false;
}

void BuiltMatcher::finish(std::span<std::uint64_t> pairs, std::span<std::uint64_t> halves) {
  if (!buffers_[static_cast<std::size_t>(current_)].batch.empty()) send_current();
  for (int buffer = 0; buffer < 2; ++buffer)
    if (buffers_[static_cast<std::size_t>(buffer)].counting) collect(buffer);
  std::fill(pairs.begin(), pairs.end(), 0);
  std::fill(halves.begin(), halves.end(), 0);
  std::copy_n(pairs_.begin(), std::min(pairs.size(), pairs_.size()), pairs.begin());
  std::copy_n(halves_.begin(), std::min(halves.size(), halves_.size()), halves.begin());
  pairs_.clear();
  halves_.clear();
}

void HostBuiltMatcher::reserve_entries(std::size_t entries) { entries_.resize(entries); }

// Made once a batch, in its count pass, and read again by its write pass.
const SetPairing* HostBuiltMatcher::pairings(int buffer, const BuiltBatch& batch) {
  if (!reads_shared_entries()) return batch.pairings().data();
  return pairings_[static_cast<std::size_t>(buffer)].data();
}

std::span<const std::uint32_t> HostBuiltMatcher::count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                                                              std::span<const join::QuarterEntry> entries) {
  std::copy(entries.begin(), entries.end(), entries_.begin() + static_cast<std::ptrdiff_t>(first));
  if (reads_shared_entries()) {
    std::vector<SetPairing>& made = pairings_[static_cast<std::size_t>(buffer)];
    made.assign(batch.pairings().size(), SetPairing{});
    make_pairings_on_host(batch.pairing_specs().data(), static_cast<std::uint32_t>(batch.pairing_specs().size()),
                          shared_->group_index(shared_k()), made.data());
  }
  std::vector<std::uint32_t>& next = next_[static_cast<std::size_t>(buffer)];
  next.assign(batch.counters(), 0);
  sort_sides_on_host(batch.count_sides().data(), static_cast<std::uint32_t>(batch.count_sides().size()),
                     pairings(buffer, batch), this->entries(), next.data(), nullptr, 32);
  return next;
}

void HostBuiltMatcher::start(int buffer, const BuiltBatch& batch) {
  const TileBatch& tiles = batch.tiles();
  keys_.assign(tiles.key_count(), 0);
  std::vector<std::uint32_t> next(batch.write_next().begin(), batch.write_next().end());
  sort_sides_on_host(batch.write_sides().data(), static_cast<std::uint32_t>(batch.write_sides().size()),
                     pairings(buffer, batch), entries(), next.data(), keys_.data(), 32);
  // The tiles as a device makes them from each job's first tile (nq_make_tiles).
  tiles_.assign(tiles.tiles().size(), MatchTile{});
  make_tiles_on_host(tiles.jobs().data(), static_cast<std::uint32_t>(tiles.jobs().size()), tiles.tile_firsts().data(),
                     tiles.starts().data(), tiles_.data());
  std::vector<std::uint64_t>& counts = counts_[static_cast<std::size_t>(buffer)];
  counts.assign(tiles.jobs().size(), 0);
  match_tiles_on_host(keys_.data(), tiles.jobs().data(), tiles_.data(), tiles.starts().data(),
                      static_cast<std::uint32_t>(tiles_.size()), chunking_for(tiles.key_bits()), counts.data());
}

std::span<const std::uint64_t> HostBuiltMatcher::wait(int buffer) { return counts_[static_cast<std::size_t>(buffer)]; }

}  // namespace nqueens::gpu
