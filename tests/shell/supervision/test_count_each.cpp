// A count of several N (`nqueens count -n A-B`) counts every N in the one arena of the command:
// its threads are started and proven once, not once per N, and every N still counts right.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "run/prepare.hpp"
#include "run/run_arena.hpp"
#include "shell/supervision/supervisor.hpp"

namespace {

using nqueens::RunArena;
using nqueens::shell::RunOutcome;

TEST(CountEach, CountsEveryNOfTheCommandInOneArena) {
  nqueens::CountOptions options;
  options.threads = 2;
  nqueens::shell::RunSettings session;
  session.progress.enabled = false;
  const nqueens::PreparedRuns runs = nqueens::prepare_runs({6, 7, 8}, options, session);
  RunArena arena(nqueens::command_threads(runs.requests));
  const int before = RunArena::made();
  std::vector<std::pair<int, std::uint64_t>> counted;
  nqueens::shell::count_each(runs.requests, session, arena, [&counted](const RunOutcome& outcome) {
    counted.emplace_back(outcome.result.n, static_cast<std::uint64_t>(outcome.result.totals.total));
    EXPECT_EQ(outcome.result.threads, 2);
  });
  EXPECT_EQ(RunArena::made(), before) << "every N counts in the command's arena";
  const std::vector<std::pair<int, std::uint64_t>> known{{6, 4}, {7, 40}, {8, 92}};
  EXPECT_EQ(counted, known);
}

}  // namespace
