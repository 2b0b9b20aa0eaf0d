#pragma once
// What the host sends a device for one side of a row set (half_build.hpp): the pairs of column
// sets that make its halves, and how its quadrants' entries map to keys, worked out from the
// join's layout and fold exactly as the join's HalfEnumerator picks them.
#include <vector>

#include "gpu/half_build.hpp"
#include "join/diagonal_fold.hpp"
#include "join/join_layout.hpp"
#include "join/quarter_slice.hpp"

namespace nqueens::gpu {

//! How `quadrant`'s entries become keys of a half of `layout`.
QuadrantMap quadrant_map(const join::UnitLayout& layout, const join::Quadrant& quadrant);

//! The recipe of `side`'s halves from its north and south slices, with `fold` (may be null: no
//! fold) choosing its north column sets; appends its pairings to `pairings`, and returns a recipe
//! whose entries start at 0 (the caller places the slices). A side that cannot hold a half (its
//! rows and columns differ in number) gets no pairing.
SideRecipe side_recipe(const join::QuarterSlice& north, const join::QuarterSlice& south, const join::UnitLayout& layout,
                       const join::SideLayout& side, const join::SideFold* fold, std::vector<SetPairing>& pairings);

//! The most entries one group of `slice` holds: the scratch build_side needs for its keys.
std::uint32_t largest_group(const join::QuarterSlice& slice);

//! Replaces `keys` with the key of every half of `side`, built from its slices by the device's
//! code (half_build.hpp's sort_side: its tied halves first, then the rest, each in the join's
//! order), with `fold` (may be null) choosing its north column sets; returns how many are tied.
//! `entries` and `pairings` are scratch.
std::size_t build_side_keys(const join::QuarterSlice& north, const join::QuarterSlice& south,
                            const join::UnitLayout& layout, const join::SideLayout& side, const join::SideFold* fold,
                            std::vector<join::QuarterEntry>& entries, std::vector<SetPairing>& pairings,
                            std::vector<std::uint64_t>& keys);

}  // namespace nqueens::gpu
