#pragma once
// A batch of row sets whose halves a device builds (half_build.hpp), as the host adds them. The
// host sends each side's recipe, never its keys; the device counts each side's halves into
// buckets (nq_sort_sides without keys), and from those counts plans the batch itself
// (batch_plan.hpp: the stored side and its slot split, where every side's keys go, the jobs and
// their tiles), writes each half into its bucket (nq_sort_sides again) and matches. The host
// lays out each row set's rooms for the plan and reads back its totals and each row set's pairs
// and halves.
//
// The count pass sorts each side on the widest split its row set may take, so that every
// narrower split's buckets are sums of its counts and the choice is made on exact counts: the
// host lays out the room of the widest split the row set may take, and the device chooses its
// bits from a sample of both sides' halves (split_sample.hpp, kernel nq_choose_splits) before
// the count pass.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/batch_plan.hpp"
#include "gpu/half_build.hpp"
#include "gpu/pairing_spec.hpp"
#include "gpu/slot_split.hpp"
#include "join/pair_matcher.hpp"

namespace nqueens::gpu {

class BuiltBatch {
 public:
  explicit BuiltBatch(SplitRule rule = {});

  //! Adds `row_set`'s two sides for `slot`, their slices' entries at `east_north`... among the
  //! device's entries (as the matcher placed them there).
  void add(std::size_t slot, const join::RowSetSlices& row_set, std::uint64_t east_north, std::uint64_t east_south,
           std::uint64_t west_north, std::uint64_t west_south);

  //! The count pass: each side's recipe, its buckets' counters from next_first among
  //! counters() of them (zeroed on the device), and no keys; a side whose pairings are all tied
  //! (every side without a fold) has counters for part 0 alone. A side's rule holds only the
  //! count of the widest split its row set may take, the room laid out for it, until the device
  //! chooses its bits (split_sample.hpp's choose_row_set_split).
  std::span<const SideSort> count_sides() const { return count_sides_; }
  std::size_t counters() const { return counters_; }
  std::span<const SetPairing> pairings() const { return pairings_; }
  //! Each count side's description (in count_sides() order), from which a device holding the
  //! quarter table's group index makes pairings() itself (pairing_spec.hpp).
  std::span<const PairingSpec> pairing_specs() const { return specs_; }

  //! Each row set's description for the plan (PlanRowSet: its sides are count sides 2 r and
  //! 2 r + 1), and the slot each one counts for.
  std::span<const PlanRowSet> row_sets() const { return row_sets_; }
  std::span<const std::size_t> slots() const { return slots_; }
  //! The plan's rooms, laid out by row_sets(): bucket starts and the write pass's counters, and
  //! the rule it plans by.
  std::size_t start_words() const { return start_words_; }
  std::size_t write_counters() const { return write_counters_; }
  const PlanRule& plan_rule() const { return plan_rule_; }

  bool empty() const { return row_sets_.empty(); }
  //! The row sets' candidates (north entry times south entry of each pairing, both sides): the
  //! most halves they can have, from which the matcher estimates what fills a batch.
  std::uint64_t candidates() const { return candidates_; }
  void clear();

 private:
  void add_side(const SideRecipe& recipe, int room_bits);
  void add_spec(const SideRecipe& recipe, const join::QuarterSlice& north, const join::QuarterSlice& south,
                const join::SideLayout& side, const join::SideFold* fold, int k);
  void add_row_set(std::size_t slot, const join::PartWeights& weights, int key_bits, int room_bits);

  SplitRule rule_;
  std::vector<SetPairing> pairings_;
  std::vector<PairingSpec> specs_;
  std::vector<SideSort> count_sides_;
  std::size_t counters_ = 0;
  std::vector<PlanRowSet> row_sets_;
  std::vector<std::size_t> slots_;
  std::size_t start_words_ = 0, write_counters_ = 0;
  PlanRule plan_rule_;
  std::uint64_t candidates_ = 0;
};

}  // namespace nqueens::gpu
