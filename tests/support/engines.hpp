#pragma once
// For tests that go over the engine registry, so that a new engine is tested without touching
// them: which engines count on this machine. An engine that needs hardware the machine lacks
// (the gpu engine without a CUDA device) refuses every N; a test names it in a NOTE line and
// goes on with the others, so that it is neither a failure nor dropped unseen.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "nqueens/board.hpp"
#include "nqueens/count.hpp"
#include "run/registry.hpp"

namespace test_support {

//! The options that name the engine and leave the rest at their defaults.
inline nqueens::CountOptions default_options(const nqueens::EngineDescription& engine) {
  nqueens::CountOptions options;
  options.engine = std::string(engine.name);
  return options;
}

//! Why the engine counts no N up to 12 with its default options here; "" when it counts one.
//! Every engine takes some N that small (the join from 4, the reference up to 14), so a refusal
//! of them all is the machine's, not the board's.
inline std::string absent_here(const nqueens::EngineDescription& engine) {
  const nqueens::CountOptions options = default_options(engine);
  for (int n = nqueens::kMinN; n <= 12; ++n)
    if (engine.refusal(n, options).empty()) return "";
  return engine.refusal(12, options);
}

//! Whether the engine counts here. When it does not, prints a NOTE line naming it and the
//! reason, and holds what must stay true of such an engine: it is not the yardstick (which
//! counts everywhere), and `auto` never chooses it.
inline bool counts_here(const nqueens::EngineDescription& engine) {
  const std::string why = absent_here(engine);
  if (why.empty()) return true;
  std::cout << "[   NOTE   ] the " << engine.name << " engine is left out: it counts nothing here: " << why << "\n";
  EXPECT_FALSE(engine.yardstick) << engine.name << ": the yardstick engine counts everywhere";
  const nqueens::CountOptions options = default_options(engine);
  for (int n = nqueens::kMinN; n <= nqueens::kMaxN; ++n)
    EXPECT_FALSE(engine.preferred_for(n, options)) << engine.name << " would be chosen by auto for N=" << n;
  return false;
}

}  // namespace test_support
