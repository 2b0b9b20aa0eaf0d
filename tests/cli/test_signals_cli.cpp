// Which threads of a running count hear the signals that stop it, read from /proc as the kernel
// sees them: the main thread alone, so that it is the one to save and say how to resume.
#include <signal.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/program_harness.hpp"

namespace {

namespace fs = std::filesystem;
using harness::describe;

// The signals each thread of process `pid` blocks (SigBlk of /proc/PID/task/TID/status), by thread.
std::map<std::string, std::uint64_t> blocked_by_thread(pid_t pid) {
  std::map<std::string, std::uint64_t> blocked;
  std::error_code error;
  for (const fs::directory_entry& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    const std::string status = harness::read_bytes(task.path() / "status");
    const std::size_t at = status.find("SigBlk:");
    if (at != std::string::npos)
      blocked[task.path().filename().string()] = std::stoull(status.substr(at + 7), nullptr, 16);
  }
  return blocked;
}

constexpr std::uint64_t bit(int signal) { return std::uint64_t{1} << (signal - 1); }

}  // namespace

// Every thread of a count but the main one blocks SIGINT, SIGTERM and SIGHUP, the run's workers
// included, and the main thread blocks none of them; SIGTERM then ends the count as a stop (143).
// The workers are started with the signals blocked (an arena observer that blocked them as each
// worker entered it left oneTBB a proxy it never freed, LeakSanitizer's one finding).
TEST(CliSignals, OnlyTheMainThreadOfACountHearsTheStopSignals) {
  const fs::path dir = harness::fresh_test_directory("nqueens-signals");
  harness::Process count({NQUEENS_BINARY, "count", "-n", "20", "--engine", "dfs", "-t", "3", "--no-progress"},
                         harness::Options::captured_in(dir));
  // Main, the count's own thread and its two workers; read again a moment later, once a thread
  // just started has had time to block them itself (the count's own thread does).
  std::map<std::string, std::uint64_t> blocked;
  for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
       blocked.size() < 4 && std::chrono::steady_clock::now() < until && !count.ended();) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    blocked = blocked_by_thread(count.pid());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  blocked = blocked_by_thread(count.pid());
  ASSERT_GE(blocked.size(), 4u) << "threads seen: " << blocked.size();
  const std::uint64_t stops = bit(SIGINT) | bit(SIGTERM) | bit(SIGHUP);
  for (const auto& [thread, mask] : blocked) {
    if (thread == std::to_string(count.pid()))
      EXPECT_EQ(mask & stops, 0u) << "the main thread blocks a stop signal: " << std::hex << mask;
    else
      EXPECT_EQ(mask & stops, stops) << "thread " << thread << " hears a stop signal: " << std::hex << mask;
  }
  count.signal(SIGTERM);
  const std::optional<harness::Outcome> stopped = count.wait_for(std::chrono::seconds(30));
  ASSERT_TRUE(stopped);
  EXPECT_EQ(stopped->exit_code, 143) << describe(*stopped);
  fs::remove_all(dir);
}
