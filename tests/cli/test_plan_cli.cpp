// `nqueens plan` run as a user would: its text and JSON forms, and every bad input refused with
// exit 2 and one line on stderr before anything is built or sampled.
#include <sched.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/program_harness.hpp"

namespace {

using Json = nlohmann::ordered_json;
using harness::describe;
using harness::lines_of;

harness::Outcome run(std::vector<std::string> args) {
  args.insert(args.begin(), NQUEENS_BINARY);
  return harness::run_program(std::move(args));
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(PlanCli, JsonIsOneObjectWithEveryField) {
  const harness::Outcome outcome = run({"plan", "-n", "13", "-t", "2", "--ranks", "3", "--format", "json"});
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  const std::vector<std::string> lines = lines_of(outcome.out);
  ASSERT_EQ(lines.size(), 1u) << describe(outcome);
  const Json plan = Json::parse(lines[0]);
  const std::vector<std::string> fields = {"type",
                                           "n",
                                           "engine",
                                           "threads",
                                           "ranks",
                                           "work_units",
                                           "strata",
                                           "sampled_units",
                                           "sampled_share",
                                           "sample_seconds",
                                           "sample_budget_seconds",
                                           "setup_seconds",
                                           "confidence",
                                           "thread_seconds",
                                           "thread_seconds_error",
                                           "thread_seconds_sampling_error",
                                           "extrapolated_bands",
                                           "extrapolated_share",
                                           "units_in_parts",
                                           "parts_timed",
                                           "journal_thread_seconds",
                                           "journal_thread_seconds_error",
                                           "largest_unit_seconds",
                                           "counting_seconds",
                                           "efficiency",
                                           "wall_seconds",
                                           "wall_seconds_error",
                                           "busy_cores",
                                           "busy_factor",
                                           "busy_cpus",
                                           "wall_seconds_at_load",
                                           "memory_bytes",
                                           "counting_memory_bytes",
                                           "program_memory_bytes",
                                           "count_memory",
                                           "ranks_per_node",
                                           "node_memory_bytes",
                                           "slurm_mem",
                                           "journal_bytes",
                                           "checkpoint_advised",
                                           "advised_sample_seconds",
                                           "advised_thread_seconds_error"};
  std::vector<std::string> keys;
  for (const auto& item : plan.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, fields);
  EXPECT_EQ(plan["type"], "plan");
  EXPECT_EQ(plan["n"], 13);
  EXPECT_EQ(plan["engine"], "dfs");  // auto takes the DFS engine at N = 13, as count does
  EXPECT_EQ(plan["threads"], 2);
  EXPECT_EQ(plan["ranks"], 3);
  EXPECT_GT(plan["work_units"].get<int>(), 0);
  EXPECT_LE(plan["sampled_units"].get<int>(), plan["work_units"].get<int>());
  EXPECT_GT(plan["thread_seconds"].get<double>(), 0);
  EXPECT_GE(plan["thread_seconds_error"].get<double>(), 0);
  EXPECT_GE(plan["wall_seconds"].get<double>(), plan["largest_unit_seconds"].get<double>());
  EXPECT_GT(plan["efficiency"].get<double>(), 0);
  EXPECT_LE(plan["efficiency"].get<double>(), 1 + 1e-9);
  EXPECT_EQ(plan["memory_bytes"].get<double>(),
            plan["counting_memory_bytes"].get<double>() + plan["program_memory_bytes"].get<double>());
  EXPECT_GT(plan["journal_bytes"].get<double>(), 0);
  EXPECT_EQ(plan["extrapolated_bands"], 0) << "a minute times every band of N = 13";
  EXPECT_GE(plan["sample_budget_seconds"].get<double>(), 3) << "the least automatic budget";
}

TEST(PlanCli, TextSaysWhatItEstimatesAndHowLongItSampled) {
  const harness::Outcome outcome = run({"plan", "-n", "16", "--engine", "join", "-t", "1"});
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  for (const char* part : {"N=16, join engine", "sampled:", "thread time:", "confidence", "wall time:", "efficiency",
                           "memory:", "per process", "journal:"})
    EXPECT_TRUE(contains(outcome.out, part)) << part << "\n" << describe(outcome);
  EXPECT_EQ(outcome.err, "") << describe(outcome);
}

// plan prices the run count would make, so it settles the same default memory budget: the
// budget of one process on the machine, never one shared among as many processes as N.
TEST(PlanCli, TakesTheDefaultMemoryBudgetCountTakes) {
  const auto budget_line = [](const harness::Outcome& outcome) {
    for (const std::string& line : lines_of(outcome.err))
      if (const std::size_t at = line.find("[info] memory budget "); at != std::string::npos) return line.substr(at);
    return std::string("no memory budget logged");
  };
  const harness::Outcome plan = run({"plan", "-n", "16", "--engine", "join", "-t", "1", "--log-level", "info"});
  const harness::Outcome count =
      run({"count", "-n", "16", "--engine", "join", "-t", "1", "--units", "0", "--log-level", "info"});
  ASSERT_EQ(plan.exit_code, 0) << describe(plan);
  ASSERT_EQ(count.exit_code, 0) << describe(count);
  EXPECT_NE(budget_line(count), "no memory budget logged") << describe(count);
  EXPECT_EQ(budget_line(plan), budget_line(count)) << describe(plan);
}

// A shard or a list of units is predicted besides the whole run: what a shard task of a job array
// will take, or what `count --units` will.
TEST(PlanCli, PredictsAShardOrAListOfUnits) {
  const harness::Outcome json =
      run({"plan", "-n", "16", "--engine", "join", "-t", "1", "--shard", "2/8", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  const Json plan = Json::parse(lines_of(json.out).at(0));
  EXPECT_EQ(plan["part"], "shard 2/8");
  EXPECT_GT(plan["part_units"].get<int>(), 0);
  // Shards are dealt by estimated cost: about an eighth of the run each.
  EXPECT_GT(plan["part_thread_seconds"].get<double>(), plan["thread_seconds"].get<double>() / 16);
  EXPECT_LT(plan["part_thread_seconds"].get<double>(), plan["thread_seconds"].get<double>() / 4);
  EXPECT_GT(plan["part_thread_seconds_error"].get<double>(), 0);
  const harness::Outcome text = run({"plan", "-n", "16", "--engine", "join", "-t", "1", "--units", "0-9"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_TRUE(contains(text.out, "part:        units 0-9: 10 units, thread time")) << describe(text);
}

// Where no device is present, the gpu engine is priced by its device model, and the plan says
// that it is a model and of which card; a card named prices that card.
TEST(PlanCli, TheGpuEngineWithoutADeviceIsPricedByItsModel) {
  const harness::Outcome json = run({"plan", "-n", "14", "--engine", "gpu", "--card", "L40S", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  const Json plan = Json::parse(lines_of(json.out).at(0));
  EXPECT_EQ(plan["priced_by"], "device model");
  EXPECT_EQ(plan["card"], "L40S");
  EXPECT_GT(plan["wall_seconds"].get<double>(), 0);
  const harness::Outcome text = run({"plan", "-n", "14", "--engine", "gpu"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  if (contains(text.out, "no device here")) {
    EXPECT_TRUE(contains(text.out, "device model of H100")) << describe(text);
    EXPECT_TRUE(contains(text.out, "a model, not a measurement")) << describe(text);
  } else {
    EXPECT_TRUE(contains(text.out, "sampled:")) << "a device here is timed: " << describe(text);
  }
}

// What to ask for: count's --memory is the counting memory rounded up to a MiB, and a count
// under it plans the same memory; a node's Slurm --mem is its ranks' memory plus 10 % and 64 MiB.
TEST(PlanCli, SaysTheMemoryToAskFor) {
  const harness::Outcome outcome = run({"plan", "-n", "17", "--engine", "join", "-t", "2", "--ranks", "6",
                                        "--ranks-per-node", "3", "--sample-seconds", "0.2", "--format", "json"});
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  const Json plan = Json::parse(outcome.out);
  constexpr std::uint64_t mib = std::uint64_t{1} << 20;
  const auto counting = plan["counting_memory_bytes"].get<std::uint64_t>();
  const std::uint64_t memory_mib = (counting + mib - 1) / mib;
  EXPECT_EQ(plan["count_memory"], std::to_string(memory_mib) + "M") << describe(outcome);
  EXPECT_EQ(plan["ranks_per_node"], 3);
  const double node = 3 * plan["memory_bytes"].get<double>() * 1.1 + 64.0 * mib;
  const auto node_bytes = plan["node_memory_bytes"].get<std::uint64_t>();
  EXPECT_EQ(node_bytes % mib, 0u);
  EXPECT_GE(static_cast<double>(node_bytes), node);
  EXPECT_LT(static_cast<double>(node_bytes), node + mib + 1);
  EXPECT_EQ(plan["slurm_mem"], std::to_string(node_bytes / mib) + "M");

  const harness::Outcome under =
      run({"plan", "-n", "17", "--engine", "join", "-t", "2", "--memory", plan["count_memory"].get<std::string>(),
           "--sample-seconds", "0.2", "--format", "json"});
  ASSERT_EQ(under.exit_code, 0) << describe(under);
  EXPECT_EQ(Json::parse(under.out)["counting_memory_bytes"].get<std::uint64_t>(), counting)
      << "a count under the --memory plan asks for plans the same memory\n"
      << describe(under);

  const harness::Outcome text = run({"plan", "-n", "17", "--engine", "join", "-t", "2", "--ranks", "6",
                                     "--ranks-per-node", "3", "--sample-seconds", "0.2"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_TRUE(std::regex_search(text.out, std::regex("\nask for: +count --memory [0-9]+M per process; Slurm "
                                                     "--mem=[0-9]+M a node of 3 ranks \\(3 x the process \\+ 10 % "
                                                     "\\+ 64 MiB\\)\n")))
      << describe(text);
}

// The first CPU this test may run on: the plan and a busy loop are both bound to it.
std::string first_cpu() {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof(mine), &mine) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &mine)) return std::to_string(cpu);
  return "0";
}

// The sample is timed by the threads' CPU clocks, which a busy machine does not lengthen, while
// the wall time was for cores of the count's own: with a busy loop beside it, a dfs N = 17 plan
// said 16.95 +- 1.62 s against 27.14 s counted. The plan measures the load while it samples and
// says so, its wall time's bar widened by it. (No figure is held to a value: only that the load
// is seen, on the one CPU the plan and the loop share.)
TEST(PlanCli, SaysWhenTheMachineIsBusyAndWidensTheWallTime) {
  const std::string cpu = first_cpu();
  harness::Process busy({"/usr/bin/taskset", "-c", cpu, "/bin/sh", "-c", "while :; do :; done"});
  const auto plan = [&cpu](const std::string& format) {
    return harness::run_program({"/usr/bin/taskset", "-c", cpu, NQUEENS_BINARY, "plan", "-n", "16", "--engine", "dfs",
                                 "-t", "1", "--sample-seconds", "1", "--format", format});
  };
  const harness::Outcome json = plan("json");
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  const Json record = Json::parse(json.out);
  EXPECT_EQ(record["busy_cpus"], 1);
  EXPECT_GT(record["busy_cores"].get<double>(), 0.25) << json.out;
  const double factor = record["busy_factor"].get<double>();
  EXPECT_GT(factor, 1.1) << json.out;
  const double counting = record["counting_seconds"].get<double>();
  EXPECT_GE(record["wall_seconds_error"].get<double>(), counting * (factor - 1) * 0.999) << json.out;
  EXPECT_NEAR(record["wall_seconds_at_load"].get<double>(), record["setup_seconds"].get<double>() + counting * factor,
              1e-9 + 1e-9 * counting * factor);
  const harness::Outcome text = plan("text");
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_TRUE(std::regex_search(text.out, std::regex("\nload: +other processes kept [0-9.]+ of the 1 CPU it may run "
                                                     "on busy while it sampled: at that load counting takes about ")))
      << text.out;
}

TEST(PlanCli, TakesTheEngineAutoTakesForCount) {
  const harness::Outcome outcome = run({"plan", "-n", "18", "--format", "json", "--sample-seconds", "0.2"});
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_EQ(Json::parse(outcome.out)["engine"], "join") << describe(outcome);
}

// Each refused with exit 2 and one line, before an engine is built.
TEST(PlanCli, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> bad = {
      {"plan"},
      {"plan", "-n", "0"},
      {"plan", "-n", "33"},
      {"plan", "-n", "x"},
      {"plan", "-n", "12", "-t", "0"},
      {"plan", "-n", "12", "-t", "4097"},
      {"plan", "-n", "12", "--ranks", "0"},
      {"plan", "-n", "12", "--ranks", "-3"},
      {"plan", "-n", "12", "--ranks", "2.5"},
      {"plan", "-n", "12", "--engine", "fast"},
      {"plan", "-n", "20", "--engine", "reference"},
      {"plan", "-n", "3", "--engine", "join"},
      {"plan", "-n", "12", "--engine", "join", "--symmetry", "none"},
      {"plan", "-n", "12", "--sample-seconds", "0"},
      {"plan", "-n", "12", "--confidence", "1"},
      {"plan", "-n", "12", "--format", "csv"},
      {"plan", "-n", "12", "--ranks-per-node", "0"},
      {"plan", "-n", "12", "--ranks", "2", "--ranks-per-node", "3"},
      {"plan", "-n", "12", "--card", "H100"},
      {"plan", "-n", "12", "--engine", "gpu", "--card", "H1000"},
      {"plan", "-n", "12-13", "--shard", "1/2"},
      {"plan", "-n", "12", "--shard", "3/2"},
      {"plan", "-n", "12", "--shard", "1/2", "--units", "1"},
      {"plan", "-n", "16", "--engine", "join", "--units", "99999"},
      {"plan", "-n", "16", "--engine", "gpu", "--shard", "1/2"},
  };
  for (const std::vector<std::string>& args : bad) {
    const harness::Outcome outcome = run(args);
    std::string shown;
    for (const std::string& word : args) shown += word + ' ';
    EXPECT_EQ(outcome.exit_code, 2) << shown << describe(outcome);
    EXPECT_EQ(outcome.out, "") << shown << describe(outcome);
    EXPECT_EQ(lines_of(outcome.err).size(), 1u) << shown << describe(outcome);
    EXPECT_TRUE(outcome.err.starts_with("nqueens: error: ")) << shown << describe(outcome);
  }
}

// A budget too small for the run's costliest units still answers, before it counts them: the
// bands it cannot time are estimated from the cheaper ones, said so, with a wide bar and the
// budget that would narrow it. At an N where one unit takes hours a plan must neither count for
// hours nor leave the user without an estimate.
TEST(PlanCli, AnswersABudgetTooSmallForTheCostliestUnits) {
  const harness::Outcome text = run({"plan", "-n", "17", "--engine", "dfs", "-t", "2", "--sample-seconds", "0.001"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_EQ(text.err, "") << describe(text);
  for (const char* part : {"thread time:", "untimed:", "the budget; estimated from", "with a wider error",
                           "advice:", "would narrow the bar", "--sample-seconds", "memory:", "per process"})
    EXPECT_TRUE(contains(text.out, part)) << part << "\n" << describe(text);

  const harness::Outcome json =
      run({"plan", "-n", "17", "--engine", "dfs", "-t", "2", "--sample-seconds", "0.001", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  const Json plan = Json::parse(json.out);
  EXPECT_GT(plan["extrapolated_bands"].get<int>(), 0) << describe(json);
  EXPECT_LE(plan["extrapolated_bands"].get<int>(), plan["strata"].get<int>()) << describe(json);
  EXPECT_GT(plan["extrapolated_share"].get<double>(), 0) << describe(json);
  EXPECT_GT(plan["thread_seconds"].get<double>(), 0) << describe(json);
  EXPECT_GT(plan["thread_seconds_error"].get<double>(), 0.5 * plan["thread_seconds"].get<double>())
      << "an estimate carried over bands is not narrow: " << describe(json);
  EXPECT_GT(plan["advised_sample_seconds"].get<double>(), 0.001) << describe(json);
  EXPECT_LT(plan["advised_thread_seconds_error"].get<double>(), plan["thread_seconds_error"].get<double>())
      << describe(json);
  EXPECT_EQ(plan["sample_budget_seconds"].get<double>(), 0.001) << describe(json);
}

// The budget the advice names is one the option takes, as printed: following it runs.
TEST(PlanCli, TheAdvisedBudgetIsAccepted) {
  const harness::Outcome first = run({"plan", "-n", "15", "--engine", "dfs", "-t", "2", "--sample-seconds", "0.001"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  std::smatch advised;
  ASSERT_TRUE(std::regex_search(first.out, advised, std::regex(R"(\(--sample-seconds ([^)]+)\))"))) << describe(first);
  const harness::Outcome second =
      run({"plan", "-n", "15", "--engine", "dfs", "-t", "2", "--sample-seconds", advised[1].str()});
  EXPECT_EQ(second.exit_code, 0) << advised[1].str() << "\n" << describe(second);
}

// A budget the setup alone uses up still answers, every band estimated, and never blames units
// that "take about 0 s each" (as a refusal once did).
TEST(PlanCli, ABudgetTheSetupUsesUpStillAnswers) {
  // The join's setup at N = 20 (its quarter table's placements, the units' costs) takes well over
  // the least budget there is.
  const harness::Outcome outcome = run({"plan", "-n", "20", "--engine", "join", "--sample-seconds", "0.001"});
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_TRUE(contains(outcome.out, "untimed:")) << describe(outcome);
  EXPECT_FALSE(contains(outcome.out + outcome.err, "take about 0 s")) << describe(outcome);
}

// A count under --memory can be planned: the plan's engine is built under that budget, and a
// budget too small is refused as count refuses it. plan had no --memory.
TEST(PlanCli, PlansACountUnderItsMemoryBudget) {
  const harness::Outcome under =
      run({"plan", "-n", "20", "--memory", "100M", "--sample-seconds", "0.5", "--format", "json"});
  ASSERT_EQ(under.exit_code, 0) << describe(under);
  EXPECT_LE(Json::parse(under.out)["counting_memory_bytes"].get<std::uint64_t>(), std::uint64_t{100} << 20)
      << under.out;
  const harness::Outcome refused = run({"plan", "-n", "14", "--memory", "100K"});
  EXPECT_EQ(refused.exit_code, 2) << describe(refused);
  EXPECT_TRUE(contains(refused.err, "cannot count N=14: a budget of 100.0 KiB is too small")) << describe(refused);
}

TEST(PlanCli, HelpHasExamples) {
  const harness::Outcome outcome = run({"help", "plan"});
  ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
  EXPECT_TRUE(contains(outcome.out, "--ranks")) << describe(outcome);
  EXPECT_TRUE(contains(outcome.out, "Examples:")) << describe(outcome);
}

}  // namespace
