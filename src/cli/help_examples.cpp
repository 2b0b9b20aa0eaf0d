// The "Examples:" at the end of `nqueens --help` and of every subcommand's --help. Kept in one
// table so that they read as a set; the man page (cmake/cli_docs.cmake) is made from the same
// help texts, and the tests check that every subcommand has examples.
#include <map>
#include <string>
#include <vector>

#include "commands.hpp"
#include "shell/options/help_formatter.hpp"

namespace nqueens::cli {

namespace {

// One example: a command line, and what it does.
struct Example {
  const char* command;
  const char* does;
};

// clang-format off
const std::map<std::string, std::vector<Example>>& examples_by_command() {
  static const std::map<std::string, std::vector<Example>> examples = {
      {"",
       {{"nqueens count -n 12", "count the solutions of one board size"},
        {"nqueens count -n 8-16 --verify", "several sizes, checked against the OEIS"},
        {"nqueens solve -n 8 --limit 2", "print two solutions as boards"},
        {"nqueens COMMAND --help", "each command's options and examples"}}},
      {"help",
       {{"nqueens help", "the commands and the options every command takes"},
        {"nqueens help count", "one command's options and examples, as `nqueens count --help`"}}},
      {"count",
       {{"nqueens count -n 12", "count on every core"},
        {"nqueens count -n 8-16 --verify --format csv", "a range, checked against the OEIS, as CSV"},
        {"nqueens count -n 18 --checkpoint n18.journal", "resumable: run it again after an interruption"},
        {"nqueens count -n 18-22 --checkpoint runs/", "one journal per N, in runs/n18.journal ..."},
        {"nqueens count -n 20 --shard 3/8 --output s3.json", "shard 3 of 8, for `nqueens merge`"},
        {"nqueens count -n 18 --checkpoint n18.journal --repair", "keep a damaged journal's sound records, recount the rest"},
        {"nqueens count -n 20 --units 7,12-15 --output r.json", "recount the units merge or check named"}}},
      {"plan",
       {{"nqueens plan -n 21 -t 2", "thread time, wall time, memory and journal of a count"},
        {"nqueens plan -n 24 -t 64 --ranks 32", "the same run spread over 32 processes of 64 threads"},
        {"nqueens plan -n 24 -t 16 --ranks 32 --ranks-per-node 4", "16 threads a process, 4 a node: the --mem of a node"},
        {"nqueens plan -n 20 --format json", "as one JSON object"}}},
      {"oeis",
       {{"nqueens oeis", "the table, one N per line"},
        {"nqueens oeis --format json", "as JSON Lines"}}},
      {"solve",
       {{"nqueens solve -n 8 --limit 3", "the first three solutions as boards"},
        {"nqueens solve -n 8 --unique", "one board per symmetry class, with its class size"},
        {"nqueens solve -n 10 --format perm", "every solution as a row of columns"}}},
      {"bench",
       {{"nqueens bench -n 12-14 -t 1,2", "time each N on 1 and 2 threads against the baseline"},
        {"nqueens bench -n 14-16 --engines dfs,join --no-baseline --format csv > b.csv", "compare the engines; scripts/dev/plot-bench.py draws it"}}},
      {"version",
       {{"nqueens version", "how this binary was built, and the SIMD paths this CPU takes"},
        {"nqueens version --format json", "the same with the host's name, CPU model and caches"}}},
      {"merge",
       {{"nqueens merge shards/shard-*.json", "the result of a run counted in shards"},
        {"nqueens merge --verify --format json s*.json", "checked against the OEIS, as JSON Lines"},
        {"nqueens merge --missing todo.txt s*.json", "the ids to recount, for `count --units @todo.txt`"},
        {"nqueens merge --subtotals mine.txt s*.json", "per-unit counts and a CRC, for others to compare"},
        {"nqueens merge --compare theirs.txt s*.json", "every unit whose counts differ from another run's"}}},
      {"check",
       {{"nqueens check n18.journal", "is the journal whole? what is damaged, missing, counted so far"},
        {"nqueens check --format json s*.json", "shard files, one JSON record each"},
        {"nqueens check --recount 20 --seed 7 s3.json", "count 20 of its units again: are its records right?"}}},
      {"status",
       {{"nqueens status shards-n21-k32", "a run in shards: done, running, missing; what remains"},
        {"nqueens status --format json shards-n21-k32", "the same as one JSON object"}}},
  };
  return examples;
}
// clang-format on

// "Examples:" and one row per example in 80 columns: what it does beside the command where both
// fit, else under it, indented.
std::string examples_text(const std::vector<Example>& examples) {
  constexpr std::size_t kColumn = 39, kWidth = 80;
  std::string text = "Examples:";
  for (const Example& example : examples) {
    std::string line = std::string("\n  ") + example.command;
    const std::size_t used = line.size() - 1;
    if (used + 2 <= kColumn && kColumn + std::string(example.does).size() <= kWidth) {
      text += line + std::string(kColumn - used, ' ') + example.does;
    } else {
      text += line + "\n      " + shell::wrap_text(example.does, 6, kWidth, 6);
    }
  }
  return text;
}

}  // namespace

void add_help_examples(CLI::App& app) {
  const auto& examples = examples_by_command();
  app.footer(examples_text(examples.at("")));
  for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    const auto found = examples.find(command->get_name());
    if (found != examples.end()) command->footer(examples_text(found->second));
  }
}

}  // namespace nqueens::cli
