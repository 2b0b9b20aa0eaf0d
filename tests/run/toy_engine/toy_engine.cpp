// A test-only engine with a setting of its own, `--first-rows`: how many rows a unit fixes (1 or
// 2). It proves that an engine is its folder, a registry line and a CMake line: the setting's
// option, help, JSON and CSV column, journal and shard words, header checks and resume all come
// from its declaration here (tests/run/toy_engine/toy_engine_test.sh runs them through `nqueens-toy`).
// A unit is a legal placement of the first rows; the reference counter completes it.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/catalogue.hpp"
#include "nqueens/version.hpp"
#include "reference/reference.hpp"

namespace nqueens {

namespace {

constexpr int kMaxToyN = 12;  // a cross-check's reach, as the reference engine's

inline constexpr std::array<SettingDescription, 1> kToySettings = {{
    {.name = "first-rows", .help = "Rows a toy unit fixes", .default_value = "1", .least = 1, .most = 2},
}};

int first_rows(const EngineSettings& settings) {
  const auto found = settings.find("first-rows");
  return found == settings.end() ? 1 : std::stoi(found->second);
}

using Prefix = std::vector<std::uint8_t>;

// Every placement of `rows` queens on the first rows that no two attack, in column order.
std::vector<Prefix> prefixes(int n, int rows) {
  std::vector<Prefix> found;
  for (int a = 0; a < n; ++a) {
    if (rows == 1) {
      found.push_back({static_cast<std::uint8_t>(a)});
      continue;
    }
    for (int b = 0; b < n; ++b)
      if (b != a && b != a - 1 && b != a + 1)
        found.push_back({static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b)});
  }
  return found;
}

class ToyCounter final : public UnitCounter {
 public:
  ToyCounter(int n, const std::vector<Prefix>& units) : n_(n), units_(units) {}
  Tally count(std::size_t id) override {
    Tally tally;
    tally.total = reference_count(n_, units_[id]);
    tally.nodes = 1;
    return tally;
  }

 private:
  int n_;
  const std::vector<Prefix>& units_;
};

class ToyEngine final : public Engine {
 public:
  ToyEngine(int n, int rows) : units_(prefixes(n, rows)) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : "toy" + std::to_string(n) + "/" + std::to_string(rows))
      hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    set_units({kVersion, "toy", n, {{"first-rows", std::to_string(rows)}}, units_.size(), hash},
              std::vector<std::uint64_t>(units_.size(), 1));
  }
  std::unique_ptr<UnitCounter> make_counter() const override { return std::make_unique<ToyCounter>(n(), units_); }
  std::string describe() const override { return "toy engine: " + std::to_string(units_.size()) + " units"; }
  std::uint64_t planned_memory_bytes(int /*threads*/) const override { return unit_bookkeeping_bytes(); }

 private:
  std::vector<Prefix> units_;
};

std::string refusal(int n, const CountOptions& options) {
  if (n < 1 || n > kMaxToyN) return "it counts N = 1.." + std::to_string(kMaxToyN) + " only";
  if (first_rows(options.settings) > n) return "--first-rows is more than N";
  return "";
}

bool preferred_for(int /*n*/, const CountOptions& /*options*/) { return false; }

std::unique_ptr<Engine> make(const RunRequest& request) {
  return std::make_unique<ToyEngine>(request.n, first_rows(request.options.settings));
}

std::string problem_with(const RunHeader& header) {
  if (header.n > kMaxToyN) return "a toy run has N <= " + std::to_string(kMaxToyN);
  const int rows = first_rows(header.settings);
  if (rows > header.n) return "a toy run fixes at most N rows";
  if (header.unit_count != prefixes(header.n, rows).size()) return "a toy run of this N has another unit count";
  return "";
}

std::string cpu_path() { return ""; }
bool counts_orbits(const RunHeader& /*header*/) { return false; }

}  // namespace

const EngineDescription& toy_engine_description() {
  static const EngineDescription description{
      .name = "toy",
      .summary = "a test's engine: the first rows placed, the reference counter completes them",
      .refusal = refusal,
      .preferred_for = preferred_for,
      .make = make,
      .header_problem = problem_with,
      .partial_runs_report_unique = false,
      .yardstick = false,
      .cpu_path_key = "",
      .cpu_path = cpu_path,
      .settings = kToySettings,
      .counts_orbits = counts_orbits,
  };
  return description;
}

}  // namespace nqueens
