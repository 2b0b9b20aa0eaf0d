#pragma once
// nqueens: exact N-Queens solution counts.
//
//   #include <nqueens/nqueens.hpp>
//
//   nqueens::CountResult r = nqueens::count(16);            // full symmetry, all cores
//   std::string total = nqueens::to_string(r.totals.total); // "14772512"
//
// The pipeline behind count(), each step in its own header:
//   split.hpp     N and a symmetry mode -> an ordered list of work units (board prefixes)
//   kernel.hpp    the bitmask depth-first search that completes one unit
//   schedule.hpp  a oneTBB task arena runs every unit, per-thread counters
//   reduce.hpp    the per-thread counters summed exactly (128-bit)
// reference.hpp holds the slow independent counter the tests compare against, oeis.hpp the
// published values.
#include "nqueens/board.hpp"
#include "nqueens/canonical.hpp"
#include "nqueens/engine.hpp"
#include "nqueens/kernel.hpp"
#include "nqueens/n_spec.hpp"
#include "nqueens/oeis.hpp"
#include "nqueens/reduce.hpp"
#include "nqueens/reference.hpp"
#include "nqueens/split.hpp"
#include "nqueens/symmetry.hpp"
#include "nqueens/version.hpp"
#include "nqueens/work_unit.hpp"
