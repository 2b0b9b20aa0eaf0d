#pragma once
// A PairMatcher that gathers row sets' sides into tile batches (tile_batch.hpp) and has them
// counted somewhere else, two batches in turn: while one is being counted the worker thread
// fills the other, and it waits for a batch only when it needs its buffer again or its counts.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpu/half_build.hpp"
#include "gpu/tile_batch.hpp"
#include "join/pair_matcher.hpp"

namespace nqueens::gpu {

class TiledMatcher : public join::PairMatcher {
 public:
  void match(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights,
             int key_bits) override;
  bool builds_halves() const override { return builds_halves_; }
  //! The row set's halves built on this CPU by the device's code (build_side_keys), then batched
  //! as match() batches keys.
  void match_slices(std::size_t slot, const join::RowSetSlices& row_set) override;
  void finish(std::span<std::uint64_t> pairs, std::span<std::uint64_t> halves) override;

 protected:
  //! `batch_keys`: the keys a batch holds before it is sent (more when one job needs more);
  //! `rule`: which row sets' sides its batches split (TileBatch); `builds_halves`: whether the
  //! join hands it slices (match_slices) rather than keys.
  TiledMatcher(std::size_t batch_keys, SplitRule rule, bool builds_halves = false)
      : batch_keys_(batch_keys), rule_(rule), builds_halves_(builds_halves) {}
  ~TiledMatcher() override = default;

  //! Where batch `buffer` (0 or 1) keeps its keys, room for `keys` of them; called while that
  //! buffer's batch is empty and not being counted.
  virtual std::span<std::uint64_t> key_storage(int buffer, std::size_t keys) = 0;
  //! Starts counting `batch` (held in buffer `buffer`); may return before its counts are known.
  virtual void start(int buffer, const TileBatch& batch) = 0;
  //! Waits for the counts of the batch last started in `buffer`: one per job, in job order.
  virtual std::span<const std::uint64_t> wait(int buffer) = 0;

 private:
  TileBatch& current();
  void send_current();
  void collect(int buffer);

  std::size_t batch_keys_;
  SplitRule rule_;
  bool builds_halves_;
  std::array<std::optional<TileBatch>, 2> batches_;  // each made when its buffer is first used
  std::array<bool, 2> counting_{};                   // started and not yet collected
  int current_ = 0;
  std::vector<std::uint64_t> pairs_, halves_;  // by slot, since the last finish()
  // match_slices()'s scratch: a side's entries, pairings and keys
  std::vector<join::QuarterEntry> entries_;
  std::vector<SetPairing> pairings_;
  std::array<std::vector<std::uint64_t>, 2> side_keys_;
};

//! The tiled matcher on this CPU (count_on_host): each batch counted as a device counts it, for
//! tests of the gpu engine's batching, weights and tiles on machines without a device.
class HostTiledMatcher final : public TiledMatcher {
 public:
  explicit HostTiledMatcher(std::size_t batch_keys = std::size_t{1} << 16, SplitRule rule = {},
                            bool builds_halves = false)
      : TiledMatcher(batch_keys, rule, builds_halves) {}

 private:
  std::span<std::uint64_t> key_storage(int buffer, std::size_t keys) override;
  void start(int buffer, const TileBatch& batch) override;
  std::span<const std::uint64_t> wait(int buffer) override;

  std::array<std::vector<std::uint64_t>, 2> keys_, counts_;
};

}  // namespace nqueens::gpu
