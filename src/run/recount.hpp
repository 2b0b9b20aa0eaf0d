#pragma once
// Recounting recorded units: the audit of someone else's journal or shard file. A sample of its
// records is drawn with a seed, so that the same audit can be repeated anywhere, and each unit
// drawn is counted again with the engine of the file's run and compared with its record. A
// record that passes its checksum but not its recount was written wrong (or written on purpose):
// only counting again can tell.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/engine.hpp"
#include "nqueens/files/unit_record.hpp"
#include "run/run_arena.hpp"

namespace nqueens {

//! `k` of `ids`, drawn without repeats by a portable generator seeded with `seed` (the same on
//! every machine and standard library), ascending; all of them when `k` is not below their number.
std::vector<std::size_t> draw_ids(std::span<const std::size_t> ids, std::size_t k, std::uint64_t seed);

//! What a recount holds a record to: every count, when the engine that wrote it counts again, or
//! all but the nodes, when an independent path does (its nodes measure its own search).
enum class Compared { every_count, all_but_nodes };

//! A record and what counting its unit again gave.
struct Recounted {
  UnitCount recorded;
  Tally recounted;
  Compared compared = Compared::every_count;

  bool equal() const {
    if (compared == Compared::every_count) return recorded.tally == recounted;
    return recorded.tally.total == recounted.total && recorded.tally.orbits == recounted.orbits;
  }
};

//! Counts the units of `records` again with `engine`, which makes the run they belong to, in the
//! arena it was built in, and holds each record to it as `compared` says. One result per record,
//! ascending by id; the ids must be distinct units of the run (std::invalid_argument otherwise).
std::vector<Recounted> recount(std::unique_ptr<Engine> engine, std::span<const UnitCount> records, RunArena& arena,
                               Compared compared = Compared::every_count);
//! recount() in an arena of its own of `threads` threads, for an engine built apart (tests).
std::vector<Recounted> recount(std::unique_ptr<Engine> engine, std::span<const UnitCount> records, int threads,
                               Compared compared = Compared::every_count);

}  // namespace nqueens
