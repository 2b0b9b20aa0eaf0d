#pragma once
// A batch of matching work for a device: the keys of many row sets' sides in one array, a job per
// (stored side, query side) pair and the tiles the jobs are cut into (tile_match.hpp). Built on
// the host, sent whole, answered with one weighted pair count per job.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/tile_match.hpp"
#include "join/disjoint_count.hpp"

namespace nqueens::gpu {

class TileBatch {
 public:
  //! `keys`: where the batch puts its keys (pinned host memory for a device, any for the host).
  explicit TileBatch(std::span<std::uint64_t> keys) : keys_(keys) {}

  //! Adds the job of one row set's sides for `slot` (PairMatcher::match). The side with fewer
  //! tiles' worth of work is stored. Returns false, adding nothing, when the keys do not fit in
  //! what is left of the key array.
  bool add(std::size_t slot, join::KeyParts east, join::KeyParts west, const join::PartWeights& weights, int key_bits);
  //! Keys a job of these sides takes.
  static std::size_t keys_of(join::KeyParts east, join::KeyParts west);
  //! Starts over with another key array (grown by its owner): the batch must be empty.
  void use(std::span<std::uint64_t> keys) { keys_ = keys; }
  void clear();

  bool empty() const { return jobs_.empty(); }
  std::span<const std::uint64_t> keys() const { return keys_.first(used_); }
  std::span<const TileJob> jobs() const { return jobs_; }
  std::span<const MatchTile> tiles() const { return tiles_; }
  //! The slot of each job.
  std::span<const std::size_t> slots() const { return slots_; }
  //! The widest key added.
  int key_bits() const { return key_bits_; }

 private:
  std::span<std::uint64_t> keys_;
  std::size_t used_ = 0;
  std::vector<TileJob> jobs_;
  std::vector<MatchTile> tiles_;
  std::vector<std::size_t> slots_;
  int key_bits_ = 1;
};

//! Each job's weighted pairs, job by job as a device counts them (tile_match.hpp's steps for
//! every thread of a block of `threads`, one tile after another), on this CPU.
std::vector<std::uint64_t> count_on_host(const TileBatch& batch, Chunking chunking, std::uint32_t threads = 256);

}  // namespace nqueens::gpu
