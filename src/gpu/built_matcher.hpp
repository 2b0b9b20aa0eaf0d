#pragma once
// A PairMatcher that has its row sets' halves built where they are matched (built_batch.hpp):
// the join hands it each row set's slices, which lie in the entries its device shares between
// its matchers (shared_slices.hpp: each sent once a run, where the whole quarter table fits) or
// else in its own (each sent once, until they no longer fit), and sends batches of recipes, two
// in turn.
// A batch costs the device three passes: the count pass and the plan made from its counters
// (batch_plan.hpp), then (once the host has read the plan's totals) the write pass and the
// matching.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "gpu/built_batch.hpp"
#include "gpu/shared_slices.hpp"
#include "join/pair_matcher.hpp"

namespace nqueens::gpu {

class BuiltMatcher : public join::PairMatcher {
 public:
  bool builds_halves() const override { return true; }
  void match_slices(std::size_t slot, const join::RowSetSlices& row_set) override;
  //! Never called: the join hands a matcher that builds its halves slices, not keys.
  void match(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights,
             int key_bits) override;
  void finish(std::span<std::uint64_t> pairs, std::span<std::uint64_t> halves) override;

 protected:
  //! `batch_keys`: the halves (as estimated: halves_per_candidate()) a batch holds before it is sent; `entries`: the
  //! slice entries the device holds for this matcher at most (more when one row set needs more);
  //! `shared` (may be null): the device's entries shared with its other matchers, used where they
  //! hold the run's whole quarter table.
  BuiltMatcher(std::size_t batch_keys, std::size_t entries, SplitRule rule, SharedSlices* shared = nullptr);
  ~BuiltMatcher() override = default;

  //! Whether the batches read the shared entries rather than this matcher's own: known from the
  //! first row set on.
  bool reads_shared_entries() const { return reads_shared_; }
  //! The k of the shared entries it reads (its slices'), once reads_shared_entries().
  int shared_k() const { return shared_k_; }

  //! Makes room for `entries` slice entries on the device; called with no batch being counted,
  //! and what the room held is lost.
  virtual void reserve_entries(std::size_t entries) = 0;
  //! Copies `entries` to the device's entries from `first` on, then runs `batch`'s count pass
  //! and plan (buffer `buffer`), and returns the plan's totals once they are known.
  virtual PlanTotals count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                                  std::span<const join::QuarterEntry> entries) = 0;
  //! Starts `batch`'s write pass and matching, as planned (`totals`); may return before its
  //! counts are known.
  virtual void start(int buffer, const BuiltBatch& batch, const PlanTotals& totals) = 0;
  //! Waits for the results of the batch last started in `buffer`: one per row set, in order.
  virtual std::span<const RowSetResult> wait(int buffer) = 0;

 private:
  struct Buffer {
    BuiltBatch batch;
    std::vector<join::QuarterEntry> staged;  // entries for the device, from staged_first on
    std::size_t staged_first = 0;
    bool counting = false;  // started and not yet collected
  };

  std::uint64_t place(const join::QuarterSlice& slice);
  bool place_shared(const join::RowSetSlices& row_set, std::array<std::uint64_t, 4>& firsts);
  void make_room(const join::RowSetSlices& row_set);
  void send_current();
  //! The halves a candidate makes, as the batches planned so far made them: what the host, which
  //! no longer samples a side, estimates a batch's halves by.
  double halves_per_candidate() const;
  void collect(int buffer);

  std::size_t batch_keys_;
  std::size_t most_entries_;
  SharedSlices* shared_;
  bool reads_shared_ = false;
  int shared_k_ = 0;
  std::array<Buffer, 2> buffers_;
  int current_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> placed_;  // a slice's (k, rows) -> its first entry
  std::size_t entries_used_ = 0, entries_room_ = 0;
  std::vector<std::uint64_t> pairs_, halves_;     // by slot, since the last finish()
  double halves_seen_ = 0, candidates_seen_ = 0;  // in the batches planned
};

//! The most entries a matcher's own room reaches (BuiltMatcher's `entries` being `most`) for a
//! run whose quarter table holds `table_entries`: it doubles only while the slices it holds fill
//! it, so never past the table's size rounded up to a power of two. A row set whose own slices
//! outgrow `most` would take more, and no quarter table of the engine's N has one.
std::size_t most_own_entries(std::uint64_t table_entries, std::size_t most);

//! The built matcher on this CPU: each pass run by its host form (sort_sides_on_host, the
//! plan's *_on_host, match_tiles_on_host), for tests of the plan, the batches and the slices
//! kept, without a device.
//! Where it reads shared entries, it makes each batch's pairings from their descriptions and the
//! shared group index (make_pairings_on_host), and it makes every batch's tiles from its jobs
//! (make_tiles_on_host), as a device does.
class HostBuiltMatcher : public BuiltMatcher {
 public:
  explicit HostBuiltMatcher(std::size_t batch_keys = std::size_t{1} << 16, std::size_t entries = std::size_t{1} << 20,
                            SplitRule rule = {}, HostSharedSlices* shared = nullptr)
      : BuiltMatcher(batch_keys, entries, rule, shared), shared_(shared) {}

 protected:
  void reserve_entries(std::size_t entries) override;
  PlanTotals count_halves(int buffer, const BuiltBatch& batch, std::size_t first,
                          std::span<const join::QuarterEntry> entries) override;
  void start(int buffer, const BuiltBatch& batch, const PlanTotals& totals) override;
  std::span<const RowSetResult> wait(int buffer) override;

  //! The batch last planned in `buffer`: its jobs, tiles and query ranges, as the device holds them.
  struct Planned {
    std::vector<TileJob> jobs;
    std::vector<MatchTile> tiles;
    std::vector<std::uint32_t> starts;
  };
  const Planned& planned(int buffer) const { return planned_[static_cast<std::size_t>(buffer)]; }
  //! The count pass's sides of the batch last counted in `buffer`, their splits chosen.
  std::span<const SideSort> count_sides(int buffer) const { return count_sides_[static_cast<std::size_t>(buffer)]; }
  //! The count pass's counters of the batch last counted in `buffer`.
  std::span<const std::uint32_t> counters(int buffer) const { return counters_[static_cast<std::size_t>(buffer)]; }

 private:
  const join::QuarterEntry* entries() const {
    return reads_shared_entries() ? shared_->entries(shared_k()) : entries_.data();
  }
  const SetPairing* pairings(int buffer, const BuiltBatch& batch);

  HostSharedSlices* shared_;
  std::vector<join::QuarterEntry> entries_;
  std::array<std::vector<SideSort>, 2> count_sides_;  // the batch's, its splits chosen
  std::array<std::vector<std::uint32_t>, 2> counters_;
  std::array<std::vector<SetPairing>, 2> pairings_;  // made from the batch's specs
  std::array<std::vector<RowSetPlan>, 2> plans_;
  std::array<Planned, 2> planned_;  // its starts hold the plan's bucket starts
  std::vector<std::uint64_t> keys_, counts_;
  std::array<std::vector<RowSetResult>, 2> results_;
};

}  // namespace nqueens::gpu
