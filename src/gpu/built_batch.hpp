#pragma once
// A batch of row sets whose halves a device builds (half_build.hpp), as the host plans it. The
// host sends each side's recipe, never its keys; the device counts each side's halves into
// buckets (nq_sort_sides without keys), and from those counts the host chooses, as TileBatch
// does from keys, the stored side and its slot split, places every side's keys and cuts the jobs
// into tiles. The device then writes each half into its bucket (nq_sort_sides again) and matches.
//
// The count pass sorts each side on the widest split its row set may take: bits chosen from a
// sample of both sides' halves (a few thousand candidates, taken without enumerating the side),
// so that every narrower split's buckets are sums of its counts and the choice is made on exact
// counts.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/half_build.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/slot_split.hpp"
#include "gpu/tile_batch.hpp"
#include "join/pair_matcher.hpp"

namespace nqueens::gpu {

//! Candidates a side's sample tests (side_recipe.hpp's sample_halves).
inline constexpr std::uint64_t kSampleCandidates = 2048;

class BuiltBatch {
 public:
  explicit BuiltBatch(SplitRule rule = {}) : rule_(rule) {}

  //! Adds `row_set`'s two sides for `slot`, their slices' entries at `east_north`... among the
  //! device's entries (as the matcher placed them there).
  void add(std::size_t slot, const join::RowSetSlices& row_set, std::uint64_t east_north, std::uint64_t east_south,
           std::uint64_t west_north, std::uint64_t west_south);

  //! The count pass: each side's recipe, its buckets' counters from next_first among
  //! counters() of them (zeroed on the device), and no keys; a side whose pairings are all tied
  //! (every side without a fold) has counters for part 0 alone.
  std::span<const SideSort> count_sides() const { return count_sides_; }
  std::size_t counters() const { return counters_; }
  std::span<const SetPairing> pairings() const { return pairings_; }
  //! Each count side's description (in count_sides() order), from which a device holding the
  //! quarter table's group index makes pairings() itself (pairing_spec.hpp).
  std::span<const PairingSpec> pairing_specs() const { return specs_; }

  //! From the count pass's counters (counters() of them): chooses each row set's stored side
  //! and split, places its keys and makes its jobs and tiles (tiles()), and the write pass
  //! (write_sides(), write_next()). Adds each row set's halves to halves[slot] (grown as needed).
  void plan(std::span<const std::uint32_t> counts, std::vector<std::uint64_t>& halves);

  //! The write pass: each side with its split and where its keys go, its counters in
  //! write_next() holding where each of its buckets begins.
  std::span<const SideSort> write_sides() const { return write_sides_; }
  std::span<const std::uint32_t> write_next() const { return write_next_; }
  //! The jobs and tiles; its keys (tiles().key_count()) are the device's to write.
  const TileBatch& tiles() const { return tiles_; }

  bool empty() const { return row_sets_.empty(); }
  //! The row sets' halves, as their samples estimate them: what fills a batch.
  double estimated_keys() const { return estimated_keys_; }
  void clear();

 private:
  struct RowSet {
    std::size_t slot = 0;
    std::uint32_t east = 0, west = 0;  // into count_sides_
    join::PartWeights weights{};
    int key_bits = 0;
    SlotSplit widest;
  };
  struct Counted {
    std::array<CountedSide, 2> parts;  // each part's keys by pattern of the widest split
    CountedSide side;                  // both parts
  };

  std::uint32_t add_side(const SideRecipe& recipe, const SlotSplit& widest);
  void add_spec(const SideRecipe& recipe, const join::QuarterSlice& north, const join::QuarterSlice& south,
                const join::SideLayout& side, const join::SideFold* fold, int k);
  Counted counted(std::span<const std::uint32_t> counts, const SideSort& side, const SlotSplit& widest) const;
  void plan_row_set(const RowSet& row_set, const Counted& east, const Counted& west);
  void add_write_side(const SideSort& counted_side, const SlotSplit& split, bool part_major, std::uint64_t keys_first,
                      std::span<const std::uint32_t> starts);

  SplitRule rule_;
  std::vector<SetPairing> pairings_;
  std::vector<PairingSpec> specs_;
  std::vector<SideSort> count_sides_;
  std::size_t counters_ = 0;
  std::vector<RowSet> row_sets_;
  double estimated_keys_ = 0;
  std::vector<std::uint64_t> sample_;  // add()'s scratch
  std::vector<SideSort> write_sides_;
  std::vector<std::uint32_t> write_next_;
  TileBatch tiles_;
};

}  // namespace nqueens::gpu
