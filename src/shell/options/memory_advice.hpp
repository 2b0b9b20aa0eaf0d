#pragma once
// The way on after memory ran out (std::bad_alloc) anywhere in a command.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "run/run_arena.hpp"
#include "run/run_request.hpp"

namespace nqueens::shell {

//! What a program says when an allocation failed: one line, with what was being allocated
//! (AllocationStage) and the way on, instead of a bare "std::bad_alloc" or an abort. Under an
//! address-space limit the --memory it names is what the limit left the program at its start
//! beside the room of the run's threads and the heap's own (the default budget's reckoning, before the failed
//! run used the space up), and never below the least budget of the run (noted_least_budget):
//! where none fits on the run's threads, it names the fewer threads one fits beside, or the limit
//! to raise to and the budget to give then.
std::string out_of_memory_advice();

//! The way on appended to the refusal of a default budget too small for a run on `threads`
//! threads (`budget`, below the run's noted least: noted_least_budget) under an address-space
//! limit, where the default is what the limit leaves: "give --threads K" where the default on
//! fewer threads holds the run, else the limit to raise to and the budget to give then; "" for
//! any other refusal, or with no such limit. `whose` names the default ("the", "rank 1's").
std::string default_budget_refusal_advice(int threads, std::uint64_t budget, std::string_view whose = "the");

//! default_budget_refusal_advice for a command whose checks refused its runs (`requests`, one
//! --threads and one budget) their default budget. A refusal on a unit list alone leaves what the
//! run needs on each thread unknown: planned again in `arena` with a budget of that list, the
//! engine notes all of its least (the join then sizes its slices, as any count of it does: 0.5 s
//! at N = 23, 4 s at N = 25).
std::string refused_default_budget_advice(std::span<const RunRequest> requests, RunArena& arena,
                                          std::string_view whose = "the");

//! Remembers what the address-space limit leaves the program now, for out_of_memory_advice():
//! called in main() once its libraries are loaded, before any command runs.
void remember_room_at_start();

}  // namespace nqueens::shell
