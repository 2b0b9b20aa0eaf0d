#pragma once
// Which units of a run to count: all of them, one shard of k, or an explicit list of ids. A
// shard and a list are parts of a run, written as shard files and merged; the whole run is what
// count() and a plain `nqueens count` do.
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "engine/engine.hpp"
#include "nqueens/files/shard.hpp"

namespace nqueens {

class Selection {
 public:
  static Selection whole_run() { return Selection(WholeRun{}); }
  static Selection shard(ShardSpec shard) { return Selection(shard); }
  //! Ids in the syntax of unit_ranges.hpp ("0-9,12"), checked against the run when resolved.
  static Selection units(std::string list) { return Selection(UnitList{std::move(list)}); }

  bool whole() const { return std::holds_alternative<WholeRun>(choice_); }
  //! The shard a part's file names: the shard itself, or {0, 0} for a list of ids.
  ShardSpec file_shard() const;

  //! The selected ids, ascending. Throws std::invalid_argument for a shard that does not exist
  //! or a list that does not fit the run (an id out of range, a repeat, bad syntax).
  std::vector<std::size_t> ids(const Engine& engine) const;

 private:
  struct WholeRun {};
  struct UnitList {
    std::string text;
  };
  explicit Selection(std::variant<WholeRun, ShardSpec, UnitList> choice) : choice_(std::move(choice)) {}

  std::variant<WholeRun, ShardSpec, UnitList> choice_;
};

//! The ids of one shard, ascending. Units are dealt costliest first (by the engine's costs, ties
//! by id) to whichever shard has the least estimated work so far (ties: the lowest shard), so the
//! shards of a run partition its ids, carry nearly equal work, and are the same on every
//! machine.
std::vector<std::size_t> shard_ids(const Engine& engine, ShardSpec shard);

}  // namespace nqueens
