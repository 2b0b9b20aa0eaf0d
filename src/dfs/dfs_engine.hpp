#pragma once
// The depth-first engine over a given split plan: what the registry's `dfs` makes from
// split(n, symmetry, depth), open to tests that build a plan of their own.
#include <memory>

#include "dfs/split.hpp"
#include "engine/engine.hpp"

namespace nqueens {

std::unique_ptr<Engine> make_dfs_engine(WorkPlan plan);

}  // namespace nqueens
