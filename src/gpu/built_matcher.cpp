#include "gpu/built_matcher.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

#include "gpu/batch_plan.hpp"
#include "gpu/job_tiles.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/plan_block.hpp"
#include "gpu/split_sample.hpp"
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
  if (static_cast<double>(batch.candidates()) * halves_per_candidate() >= static_cast<double>(batch_keys_))
    send_current();
}

// Until a batch is planned, every candidate counts as a half (a first batch of a few times fewer
// halves than the rest at most).
double BuiltMatcher::halves_per_candidate() const {
  return candidates_seen_ > 0 && halves_seen_ > 0 ? halves_seen_ / candidates_seen_ : 1;
}

// The current batch is counted and planned while the other one may still be matched; the other
// one is collected afterwards, as its buffer is the one filled next.
void BuiltMatcher::send_current() {
  Buffer& buffer = buffers_[static_cast<std::size_t>(current_)];
  const PlanTotals totals = count_halves(current_, buffer.batch, buffer.staged_first, buffer.staged);
  halves_seen_ += static_cast<double>(totals.keys);
  candidates_seen_ += static_cast<double>(buffer.batch.candidates());
  buffer.staged.clear();
  start(current_, buffer.batch, totals);
  buffer.counting = true;
  const int other = 1 - current_;
  if (buffers_[static_cast<std::size_t>(other)].counting) collect(other);
  current_ = other;
}

void BuiltMatcher::collect(int buffer) {
  Buffer& collected = buffers_[static_cast<std::size_t>(buffer)];
  const std::span<const RowSetResult> results = wait(buffer);
  const std::span<const std::size_t> slots = collected.batch.slots();
  for (std::size_t r = 0; r < slots.size(); ++r) {
    if (pairs_.size() <= slots[r]) {
      pairs_.resize(slots[r] + 1, 0);
      halves_.resize(slots[r] + 1, 0);
    }
    pairs_[slots[r]] += results[r].pairs;
    halves_[slots[r]] += results[r].halves;
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

PlanTotals HostBuiltMatcher::count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                                          std::span<const join::QuarterEntry> entries) {
  const auto b = static_cast<std::size_t>(buffer);
  std::copy(entries.begin(), entries.end(), entries_.begin() + static_cast<std::ptrdiff_t>(first));
  if (reads_shared_entries()) {
    pairings_[b].assign(batch.pairings().size(), SetPairing{});
    make_pairings_on_host(batch.pairing_specs().data(), static_cast<std::uint32_t>(batch.pairing_specs().size()),
                          shared_->group_index(shared_k()), pairings_[b].data());
  }
  const auto row_sets = static_cast<std::uint32_t>(batch.row_sets().size());
  std::vector<SideSort>& sides = count_sides_[b];
  sides.assign(batch.count_sides().begin(), batch.count_sides().end());
  choose_splits_on_host(sides.data(), batch.row_sets().data(), row_sets, pairings(buffer, batch), this->entries(),
                        batch.plan_rule());
  std::vector<std::uint32_t>& counters = counters_[b];
  counters.assign(batch.counters(), 0);
  sort_sides_on_host(sides.data(), static_cast<std::uint32_t>(sides.size()), pairings(buffer, batch), this->entries(),
                     counters.data(), nullptr, 32);
  planned_[b].starts.assign(batch.start_words(), 0);
  plans_[b].assign(row_sets, RowSetPlan{});
  plan_row_sets_on_host(sides.data(), batch.row_sets().data(), row_sets, counters.data(), batch.plan_rule(),
                        planned_[b].starts.data(), plans_[b].data());
  PlanTotals totals;
  place_row_sets_on_host(plans_[b].data(), batch.row_sets().data(), row_sets, &totals);
  return totals;
}

void HostBuiltMatcher::start(int buffer, const BuiltBatch& batch, const PlanTotals& totals) {
  const auto b = static_cast<std::size_t>(buffer);
  const auto row_sets = static_cast<std::uint32_t>(batch.row_sets().size());
  Planned& planned = planned_[b];
  std::vector<SideSort> sides(batch.count_sides().size());
  std::vector<std::uint32_t> next(batch.write_counters(), 0), tile_firsts(totals.jobs, 0);
  planned.jobs.assign(totals.jobs, TileJob{});
  write_plans_on_host(count_sides_[b].data(), batch.row_sets().data(), row_sets, plans_[b].data(),
                      planned.starts.data(), sides.data(), next.data(), planned.jobs.data(), tile_firsts.data());
  keys_.assign(totals.keys, 0);
  sort_sides_on_host(sides.data(), static_cast<std::uint32_t>(sides.size()), pairings(buffer, batch), entries(),
                     next.data(), keys_.data(), 32);
  planned.tiles.assign(totals.tiles, MatchTile{});
  make_tiles_on_host(planned.jobs.data(), totals.jobs, tile_firsts.data(), planned.starts.data(), planned.tiles.data());
  counts_.assign(totals.jobs, 0);
  match_tiles_on_host(keys_.data(), planned.jobs.data(), planned.tiles.data(), planned.starts.data(), totals.tiles,
                      chunking_for(static_cast<int>(totals.key_bits)), counts_.data());
  results_[b].assign(row_sets, RowSetResult{});
  sum_row_sets_on_host(plans_[b].data(), row_sets, counts_.data(), results_[b].data());
}

std::span<const RowSetResult> HostBuiltMatcher::wait(int buffer) { return results_[static_cast<std::size_t>(buffer)]; }

}  // namespace nqueens::gpu
