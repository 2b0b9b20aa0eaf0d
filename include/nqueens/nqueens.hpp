#pragma once
//! \mainpage nqueens: exact N-Queens solution counts
//!
//! \code
//! #include <nqueens/nqueens.hpp>
//!
//! const nqueens::CountResult result = nqueens::count(8);  // fastest engine, every core
//! std::cout << nqueens::to_string(result.totals.total);   // "92"
//! \endcode
//!
//! `nqueens/nqueens.hpp` is the library's front door (tests/package/consumer/main.cpp is this
//! example, built against the installed package by the tests). Every function and type is on
//! the page of namespace nqueens; its headers:
//!
//! - `count.hpp`: nqueens::count(), nqueens::CountResult (totals, unique, S180 / S90, engine,
//!   timings), nqueens::available_engines()
//! - `options.hpp`: nqueens::CountOptions (engine and its settings, threads, memory, a
//!   checkpoint journal, a per-unit observer, progress with the unit total, a stop flag),
//!   nqueens::Cancelled
//! - `counts.hpp`: exact 128-bit counts: nqueens::Count, nqueens::Totals, nqueens::Tally,
//!   nqueens::to_string()
//! - `plan.hpp`: nqueens::plan_count(): what a count will cost (thread time with an error bar,
//!   wall time, memory, journal) from a sample of its units, before it runs
//! - `solutions.hpp`: nqueens::for_each_solution(): the boards themselves, in order
//! - `oeis.hpp`: the published values (A000170, A002562) to check against: nqueens::oeis_total(),
//!   nqueens::oeis_unique()
//! - `board.hpp`, `symmetry.hpp`, `n_spec.hpp`: board-size limits, the symmetry modes, lists of
//!   N ("8,10-12")
//! - `version.hpp`: kVersion, NQUEENS_VERSION_MAJOR / _MINOR / _PATCH
//!
//! The files the program writes have headers of their own, which this one does not include:
//! `nqueens/files/journal.hpp` (the checkpoint journal: scan, read, open and append),
//! `nqueens/files/shard.hpp` (shard files and their merge), `nqueens/files/check.hpp` (a file's
//! verdict), and the values they hold, `nqueens/files/run_header.hpp`,
//! `nqueens/files/unit_record.hpp` and `nqueens/files/unit_ranges.hpp`: for tools that read or
//! check those files. A count with a checkpoint journal needs none of them.
//!
//! How count() works inside (engines, the run, the scheduler, the reduction) is in
//! docs/design.md; those headers live under src/ and are not installed.

//! \namespace nqueens
//! The library's public API: counting (count(), plan_count()), the boards themselves
//! (for_each_solution()), exact counts and their published values (to_string(), oeis_total());
//! and, in the optional headers of nqueens/files/, the files the program writes (journals, shard
//! files), for tools that read them.

#if __cplusplus < 202002L
#error "nqueens needs C++20: compile with -std=c++20 (GCC 12 defaults to C++17)"
#endif

#include "nqueens/board.hpp"
#include "nqueens/count.hpp"
#include "nqueens/counts.hpp"
#include "nqueens/n_spec.hpp"
#include "nqueens/oeis.hpp"
#include "nqueens/options.hpp"
#include "nqueens/plan.hpp"
#include "nqueens/solutions.hpp"
#include "nqueens/symmetry.hpp"
#include "nqueens/version.hpp"
