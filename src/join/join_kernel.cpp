#include "join/join_kernel.hpp"

#include <stdexcept>

#include "join/join_layout.hpp"

namespace nqueens::join {

namespace {

int checked_n(int n) {
  if (const std::string reason = unsupported_reason(n); !reason.empty()) throw std::invalid_argument(reason);
  return n;
}

}  // namespace

JoinTables::JoinTables(int n) : n_(checked_n(n)), quarter_(n / 2) {
  if (wants_quadrant_key_tables(n)) quadrant_keys_.emplace(quarter_, n);
}

std::size_t JoinTables::memory_bytes() const {
  return quarter_.memory_bytes() + (quadrant_keys_ ? quadrant_keys_->memory_bytes() : 0);
}

JoinCounter::JoinCounter(const JoinTables& tables, MatchPath path) : tables_(tables), matcher_(path) {}

JoinCount JoinCounter::count(const JoinUnit& unit) {
  const UnitLayout layout = layout_of(tables_.n(), unit);
  enumerator_.enumerate(tables_.quarter(), layout, layout.east, east_keys_, tables_.quadrant_keys());
  enumerator_.enumerate(tables_.quarter(), layout, layout.west, west_keys_, tables_.quadrant_keys());
  JoinCount result;
  result.halves = east_keys_.size() + west_keys_.size();
  if (east_keys_.size() != 0 && west_keys_.size() != 0) {
    result.pairs = count_disjoint_pairs(matcher_, east_keys_.keys(), west_keys_.keys(), layout.key_bits());
  }
  return result;
}

}  // namespace nqueens::join
