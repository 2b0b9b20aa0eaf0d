#pragma once
// A batch of matching work for a device: the keys of many row sets' sides in one array, a job per
// slot of a row set's stored side (slot_split.hpp) against its query side, and the tiles the jobs
// are cut into (tile_match.hpp). Built on the host, sent whole, answered with one weighted pair
// count per job.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "gpu/slot_split.hpp"
#include "gpu/tile_match.hpp"
#include "join/disjoint_count.hpp"

namespace nqueens::gpu {

class TileBatch {
 public:
  //! `keys`: where the batch puts its keys (pinned host memory for a device, any for the host);
  //! `rule`: which row sets' sides are split into slots.
  explicit TileBatch(std::span<std::uint64_t> keys, SplitRule rule = {}) : keys_(keys), rule_(rule) {}
  //! A batch whose keys are written elsewhere (a device builds them): it only places them.
  TileBatch() = default;

  //! Adds the jobs of one row set's sides for `slot` (PairMatcher::match). The side with fewer
  //! tiles' worth of work is stored, split into slots where that spares work. Returns false, adding nothing, when the
  //! keys do not fit in what is left of the key array.
  bool add(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights, int key_bits);
  //! Adds the jobs of one row set's sides, already counted into buckets, for `slot`: `query_starts`
  //! where each of the query side's buckets begins (part-major, as the side's keys are placed,
  //! then where it ends), `stored_starts` likewise (pattern-major), on a split of
  //! log2(groups) bits. Places the query side's keys, then the stored side's, after those added
  //! before; returns where each side begins. The keys are not written.
  std::pair<std::uint64_t, std::uint64_t> add_counted(std::size_t slot, std::span<const std::uint32_t> query_starts,
                                                      std::span<const std::uint32_t> stored_starts, bool east_stored,
                                                      const join::PartWeights& weights, int key_bits);
  //! Keys placed so far (those of keys(), or the ones add_counted() placed).
  std::size_t key_count() const { return used_; }
  //! Keys a job of these sides takes.
  static std::size_t keys_of(join::KeyParts east, join::KeyParts west);
  //! Starts over with another key array (grown by its owner): the batch must be empty.
  void use(std::span<std::uint64_t> keys) { keys_ = keys; }
  void clear();

  bool empty() const { return jobs_.empty(); }
  std::span<const std::uint64_t> keys() const { return keys_.first(std::min(used_, keys_.size())); }
  std::span<const TileJob> jobs() const { return jobs_; }
  std::span<const MatchTile> tiles() const { return tiles_; }
  //! Where each job's tiles start among tiles(): what a device is sent to make them itself
  //! (job_tiles.hpp).
  std::span<const std::uint32_t> tile_firsts() const { return tile_firsts_; }
  //! Each row set's query ranges (TileJob::starts_first).
  std::span<const std::uint32_t> starts() const { return starts_; }
  //! The slot of each job: a row set's sides make one job per slot of a split.
  std::span<const std::size_t> slots() const { return slots_; }
  //! The widest key added.
  int key_bits() const { return key_bits_; }

 private:
  void append_in_buckets(join::KeyParts parts, const SlotSplit& split, bool part_major,
                         std::vector<std::uint32_t>& starts);
  void add_jobs(std::size_t slot, bool east_stored, const join::PartWeights& weights, std::uint32_t groups,
                std::uint64_t query_first, std::uint32_t starts_first, std::uint64_t stored_first,
                std::span<const std::uint32_t> slot_starts);
  void add_tiles(const TileJob& job, const std::uint32_t* query_starts, std::size_t slot);
  std::pair<bool, SlotSplit> store_and_split(join::KeyParts east, join::KeyParts west, int key_bits) const;

  std::span<std::uint64_t> keys_;
  SplitRule rule_;
  std::size_t used_ = 0;
  std::vector<std::uint32_t> starts_;
  std::vector<std::uint32_t> slot_starts_;  // add()'s scratch: where each stored slot's parts begin
  std::vector<std::uint16_t> buckets_;      // append_in_buckets()'s scratch: each key's bucket
  std::vector<TileJob> jobs_;
  std::vector<MatchTile> tiles_;
  std::vector<std::uint32_t> tile_firsts_;
  std::vector<std::size_t> slots_;
  int key_bits_ = 1;
};

//! Each job's weighted pairs, job by job as a device counts them (tile_match.hpp's steps for
//! every thread of a block of `threads`, one tile after another), on this CPU.
std::vector<std::uint64_t> count_on_host(const TileBatch& batch, Chunking chunking, std::uint32_t threads = 256);

}  // namespace nqueens::gpu
