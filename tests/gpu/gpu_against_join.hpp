#pragma once
// For the gpu engine's tests: a counter of the gpu engine's units (tiles, halves built from
// slices, the device-built passes) against the join's own counter, unit by unit and batch by
// batch. Use under ASSERT_NO_FATAL_FAILURE: the first unit that differs ends the comparison.
#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <vector>

#include "engine/engine.hpp"

namespace nqueens::gpu {

//! Every `stride`-th unit of `units`, counted by `device` and by the join's `cpu`: the same total
//! and the same halves (nodes).
inline void expect_units_as_join(UnitCounter& device, UnitCounter& cpu, std::size_t units, std::size_t stride = 1) {
  for (std::size_t id = 0; id < units; id += stride) {
    const Tally expected = cpu.count(id);
    const Tally got = device.count(id);
    ASSERT_EQ(got.total, expected.total) << "unit " << id;
    ASSERT_EQ(got.nodes, expected.nodes) << "unit " << id;
  }
}

//! The engine's batches of several units (count_batch, whose row sets are counted together),
//! each unit against the join's own count. Returns how many units were in such batches; the
//! batches of one unit (the rotation unit, counted alone on the host) are left out.
inline std::size_t expect_batches_as_join(const Engine& built, UnitCounter& device, UnitCounter& cpu) {
  const std::vector<std::size_t> order =
      built.execution_order({built.costliest_first().begin(), built.costliest_first().end()});
  std::vector<std::size_t> starts = built.batch_starts(order);
  starts.push_back(order.size());
  std::size_t batched = 0;
  for (std::size_t batch = 0; batch + 1 < starts.size(); ++batch) {
    const std::span<const std::size_t> ids(order.data() + starts[batch], starts[batch + 1] - starts[batch]);
    if (ids.size() < 2) continue;
    std::vector<Tally> got(ids.size());
    device.count_batch(ids, got);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const Tally expected = cpu.count(ids[i]);
      EXPECT_EQ(got[i].total, expected.total) << "unit " << ids[i] << " in a batch";
      EXPECT_EQ(got[i].nodes, expected.nodes) << "unit " << ids[i] << " in a batch";
      if (got[i].total != expected.total || got[i].nodes != expected.nodes) return batched;
    }
    batched += ids.size();
  }
  return batched;
}

}  // namespace nqueens::gpu
