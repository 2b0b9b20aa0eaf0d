// run_header.hpp: the header that names a run in its journal and shard files. Its text form
// round-trips for every registered engine, a mismatch names the first field that differs, and
// header_problem() refuses what no run of this build can have before any file is sized by it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dfs/split.hpp"
#include "nqueens/board.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/nqueens.hpp"
#include "run/registry.hpp"
#include "support/engines.hpp"

namespace {

using nqueens::EngineDescription;
using nqueens::RunHeader;
using nqueens::Symmetry;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

nqueens::CountOptions options_for(const EngineDescription& engine) {
  nqueens::CountOptions options;
  options.engine = std::string(engine.name);
  options.threads = 2;
  return options;
}

// The sizes up to `largest` that the engine counts with its default options.
std::vector<int> sizes_of(const EngineDescription& engine, int largest) {
  std::vector<int> sizes;
  for (int n = nqueens::kMinN; n <= largest; ++n)
    if (engine.refusal(n, options_for(engine)).empty()) sizes.push_back(n);
  return sizes;
}

// The header of a real run of the engine: N = 12, or the largest size below it that it counts.
RunHeader real_header(const EngineDescription& engine) {
  const std::vector<int> sizes = sizes_of(engine, 12);
  if (sizes.empty()) {
    ADD_FAILURE() << "the " << engine.name << " engine counts no N up to 12";
    return {};
  }
  return nqueens::make_engine(sizes.back(), options_for(engine))->header();
}

// ---- text form --------------------------------------------------------------------------------

TEST(RunHeader, TextRoundTripsForEveryEngine) {
  ASSERT_FALSE(nqueens::registered_engines().empty());
  for (const EngineDescription* engine : nqueens::registered_engines()) {
    SCOPED_TRACE(engine->name);
    if (!test_support::counts_here(*engine)) continue;
    const RunHeader header = real_header(*engine);
    EXPECT_EQ(header.engine, engine->name);
    EXPECT_EQ(header.version, nqueens::kVersion);
    const std::string text = nqueens::header_text(header);
    EXPECT_TRUE(contains(text, " engine=" + std::string(engine->name) + " ")) << text;
    EXPECT_TRUE(contains(text, "fingerprint=" + nqueens::fingerprint_hex(header.fingerprint))) << text;
    EXPECT_EQ(nqueens::parse_header_text(text), header);
    EXPECT_EQ(nqueens::header_problem(header), "");
    EXPECT_EQ(nqueens::header_mismatch(header, header), "");
    // The run identity is the header without the tool version, which records are bound to.
    EXPECT_EQ(text, "version=" + header.version + " " + nqueens::run_identity(header));
  }
}

// A dfs run's settings as its header holds them.
nqueens::EngineSettings dfs_settings(const std::string& symmetry, int depth) {
  return {{"symmetry", symmetry}, {"split-depth", std::to_string(depth)}};
}

TEST(RunHeader, TextOfAHandMadeHeader) {
  const RunHeader header{"0.1.0", "dfs", 16, dfs_settings("mirror", 3), 1234, 0xab};
  EXPECT_EQ(nqueens::header_text(header),
            "version=0.1.0 engine=dfs n=16 split_depth=3 symmetry=mirror units=1234 fingerprint=00000000000000ab");
  EXPECT_EQ(nqueens::fingerprint_hex(~std::uint64_t{0}), "ffffffffffffffff");
  // Words in another order read the same: the text is keys and values, not positions.
  EXPECT_EQ(nqueens::parse_header_text(
                "fingerprint=00000000000000ab units=1234 split_depth=3 symmetry=mirror n=16 engine=dfs version=0.1.0"),
            header);
  // parse_header_text reads any engine name: whether this build has it is header_problem's question.
  const RunHeader other_engine{"0.1.0", "nonesuch", 16, {}, 1, 0};
  EXPECT_EQ(nqueens::parse_header_text(nqueens::header_text(other_engine)), other_engine);
  EXPECT_EQ(nqueens::header_text(other_engine),
            "version=0.1.0 engine=nonesuch n=16 units=1 fingerprint=0000000000000000");
  // Any word besides the five of every header is a setting, named as the command line names it.
  const auto tiled = nqueens::parse_header_text(
      "version=0.1.0 engine=nonesuch n=16 tile_width=8 units=1 fingerprint=0000000000000000");
  ASSERT_TRUE(tiled);
  EXPECT_EQ(tiled->settings, (nqueens::EngineSettings{{"tile-width", "8"}}));
}

TEST(RunHeader, MalformedTextIsNotAHeader) {
  const std::string good =
      "version=0.1.0 engine=dfs n=16 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab";
  ASSERT_TRUE(nqueens::parse_header_text(good));
  const std::vector<std::string> bad = {
      "",
      "n=10 symmetry=full",
      // a header that names no engine is no header of this build
      "version=0.1.0 n=16 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
      good + " n=16",           // a key twice
      good + " split-depth=3",  // a setting spelt as an option, not as a key
      "version=0.1.0 engine=dfs n=16  symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",  // two
                                                                                                             // spaces
      "version=0.1.0 engine=dfs n=16 symmetry=full split_depth=3 units=1234 00000000000000ab",               // no '='
      "version= engine=dfs n=16 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
      "version=0.1.0 engine= n=16 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
      "version=0.1.0 engine=dfs n=sixteen symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
      "version=0.1.0 engine=dfs n=-16 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
      "version=0.1.0 engine=dfs n=+16 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
      "version=0.1.0 engine=dfs n=16 symmetry= split_depth=3 units=1234 fingerprint=00000000000000ab",
      "version=0.1.0 engine=dfs n=16 symmetry=full split_depth=3 units=1234x fingerprint=00000000000000ab",
      "version=0.1.0 engine=dfs n=16 symmetry=full split_depth=3 units=1234 fingerprint=0000000000000xab",
      "version=0.1.0 engine=dfs n=16 symmetry=full split_depth=3 units=1234 fingerprint=1ffffffffffffffff",
      "version=0.1.0 engine=dfs n=99999999999 symmetry=full split_depth=3 units=1234 fingerprint=00000000000000ab",
  };
  for (const std::string& text : bad) EXPECT_EQ(nqueens::parse_header_text(text), std::nullopt) << "'" << text << "'";
}

// ---- header_mismatch: the first field that differs, both values named --------------------------

TEST(RunHeader, MismatchNamesTheFirstFieldThatDiffers) {
  const RunHeader here{"0.1.0", "dfs", 10, dfs_settings("full", 3), 100, 0x2};
  auto found = [&here](auto change) {
    RunHeader there = here;
    change(there);
    return nqueens::header_mismatch(here, there);
  };
  EXPECT_EQ(found([](RunHeader& h) { h.engine = "join"; }), "the engine is join there, dfs here");
  EXPECT_EQ(found([](RunHeader& h) { h.n = 11; }), "N is 11 there, 10 here");
  EXPECT_EQ(found([](RunHeader& h) { h.settings["symmetry"] = "none"; }),
            "the setting --symmetry is none there, full here");
  EXPECT_EQ(found([](RunHeader& h) { h.settings["split-depth"] = "4"; }),
            "the setting --split-depth is 4 there, 3 here");
  EXPECT_EQ(found([](RunHeader& h) { h.settings.erase("split-depth"); }),
            "the setting --split-depth is absent there, 3 here");
  EXPECT_EQ(found([](RunHeader& h) { h.settings["tile-width"] = "8"; }),
            "the setting --tile-width is 8 there, absent here");
  EXPECT_EQ(found([](RunHeader& h) { h.unit_count = 99; }), "the unit count is 99 there, 100 here");
  EXPECT_EQ(found([](RunHeader& h) {
              h.fingerprint = 0x1;
              h.version = "0.0.9";
            }),
            "the unit list fingerprint is 0000000000000001 there, 0000000000000002 here (written by nqueens 0.0.9, "
            "whose work units differ from this build's)");
  // Same units, another build: resuming must work, so the version alone is no mismatch.
  EXPECT_EQ(found([](RunHeader& h) { h.version = "9.9.9"; }), "");
  // Several fields differ: the first in the order above is named.
  EXPECT_EQ(found([](RunHeader& h) {
              h.engine = "join";
              h.n = 12;
              h.settings.clear();
            }),
            "the engine is join there, dfs here");
  EXPECT_EQ(found([](RunHeader& h) {
              h.settings["split-depth"] = "2";
              h.unit_count = 7;
            }),
            "the setting --split-depth is 2 there, 3 here");
}

TEST(RunHeader, RealRunsOfTwoEnginesOrTwoSizesMismatch) {
  const auto join = nqueens::make_engine(12, options_for(*nqueens::find_engine("join")));
  const auto dfs = nqueens::make_engine(12, options_for(*nqueens::find_engine("dfs")));
  EXPECT_EQ(nqueens::header_mismatch(dfs->header(), join->header()), "the engine is join there, dfs here");
  const RunHeader ten = nqueens::make_header(nqueens::split(10, Symmetry::full));
  const RunHeader eleven = nqueens::make_header(nqueens::split(11, Symmetry::full));
  EXPECT_EQ(nqueens::header_mismatch(ten, eleven), "N is 11 there, 10 here");
}

// ---- header_problem: what no run of this build can have ------------------------------------------

// Every header this build writes passes, tiny boards (whose split depth is clamped to N) included.
TEST(RunHeader, HeadersOfRealRunsAreAccepted) {
  for (const EngineDescription* engine : nqueens::registered_engines()) {
    if (!test_support::counts_here(*engine)) continue;
    for (const int n : sizes_of(*engine, 14)) {
      const RunHeader header = nqueens::make_engine(n, options_for(*engine))->header();
      EXPECT_EQ(nqueens::header_problem(header), "") << engine->name << " n=" << n;
    }
  }
  for (int n = 1; n <= 12; ++n)
    for (const Symmetry mode : {Symmetry::none, Symmetry::mirror, Symmetry::full})
      for (int depth = nqueens::kMinSplitDepth; depth <= nqueens::kMaxSplitDepth; ++depth) {
        const RunHeader header = nqueens::make_header(nqueens::split(n, mode, depth));
        EXPECT_EQ(nqueens::header_problem(header), "") << "dfs n=" << n << " depth=" << depth;
      }
}

TEST(RunHeader, AnEngineThisBuildDoesNotHaveIsRefused) {
  for (const std::string name : {"nonesuch", "auto", "", "DFS"}) {
    RunHeader header = real_header(*nqueens::find_engine("dfs"));
    header.engine = name;
    EXPECT_EQ(nqueens::header_problem(header),
              "no engine of this build is called '" + name + "' (engines: " + nqueens::engine_choices() + ")");
  }
}

TEST(RunHeader, AnNOutsideTheBoardLimitsIsRefusedForEveryEngine) {
  for (const EngineDescription* engine : nqueens::registered_engines())
    for (const int n : {nqueens::kMinN - 1, -5, nqueens::kMaxN + 1, std::numeric_limits<int>::max()}) {
      if (!test_support::counts_here(*engine)) break;
      RunHeader header = real_header(*engine);
      header.n = n;
      EXPECT_EQ(nqueens::header_problem(header), "N=" + std::to_string(n) + " is outside " +
                                                     std::to_string(nqueens::kMinN) + ".." +
                                                     std::to_string(nqueens::kMaxN))
          << engine->name;
    }
}

TEST(RunHeader, TooManyUnitsAreRefusedForEveryEngine) {
  for (const EngineDescription* engine : nqueens::registered_engines()) {
    SCOPED_TRACE(engine->name);
    if (!test_support::counts_here(*engine)) continue;
    RunHeader header = real_header(*engine);
    header.unit_count = std::numeric_limits<std::size_t>::max();
    EXPECT_NE(nqueens::header_problem(header), "");
    header.unit_count = 1'000'000'000'000;  // 10^12: once sized a table before any check
    EXPECT_NE(nqueens::header_problem(header), "");
  }
}

TEST(RunHeader, DfsRefusesSplitDepthsItsSplitterNeverMakes) {
  RunHeader header = nqueens::make_header(nqueens::split(12, Symmetry::full, 3));
  for (const std::string& depth :
       std::vector<std::string>{"-1", "x", "0", "100", std::to_string(nqueens::kMinSplitDepth - 1),
                                std::to_string(nqueens::kMaxSplitDepth + 1)}) {
    header.settings["split-depth"] = depth;
    EXPECT_EQ(nqueens::header_problem(header), "split depth " + depth + " is impossible for N=12");
  }
  header.settings["split-depth"] = "3";
  header.settings["symmetry"] = "half";
  EXPECT_EQ(nqueens::header_problem(header), "a dfs run has no symmetry mode half");
  header.settings["symmetry"] = "full";
  header.settings.erase("split-depth");
  EXPECT_EQ(nqueens::header_problem(header), "a dfs run has a --split-depth, but the file gives none");
  header.settings["colour"] = "red";
  EXPECT_EQ(nqueens::header_problem(header), "the dfs engine takes --symmetry and --split-depth, not --colour");
  // The smallest boards clamp the depth to N: depth 2 is the only one of N = 2, 1 the only one of N = 1.
  RunHeader two = nqueens::make_header(nqueens::split(2, Symmetry::none));
  EXPECT_EQ(two.settings.at("split-depth"), "2");
  two.settings["split-depth"] = "3";
  EXPECT_EQ(nqueens::header_problem(two), "split depth 3 is impossible for N=2");
  RunHeader one = nqueens::make_header(nqueens::split(1, Symmetry::none));
  EXPECT_EQ(one.settings.at("split-depth"), "1");
  one.settings["split-depth"] = "2";
  EXPECT_EQ(nqueens::header_problem(one), "split depth 2 is impossible for N=1");
}

TEST(RunHeader, DfsAllowsAtMostNToTheDepthUnits) {
  RunHeader header = nqueens::make_header(nqueens::split(8, Symmetry::none, 2));
  header.unit_count = 64;
  EXPECT_EQ(nqueens::header_problem(header), "");
  header.unit_count = 65;
  EXPECT_EQ(nqueens::header_problem(header), "65 units is more than N=8 has at depth 2");
}

TEST(RunHeader, JoinRefusesASymmetryModeOrASplitDepth) {
  const RunHeader real = real_header(*nqueens::find_engine("join"));
  EXPECT_TRUE(real.settings.empty());
  RunHeader mirror = real;
  mirror.settings["symmetry"] = "mirror";
  EXPECT_EQ(nqueens::header_problem(mirror), "the join engine takes no --symmetry");
  RunHeader deep = real;
  deep.settings["split-depth"] = "3";
  EXPECT_EQ(nqueens::header_problem(deep), "the join engine takes no --split-depth");
}

// A header claiming 160 M units of a join run of N = 23 (which has 19.6 M) passed the old bound
// of C(n, n/2) (n/2)^2 row-set cases and sized gigabytes: a join run's unit count
// is known without making its plan, and a header is held to it.
TEST(RunHeader, JoinHoldsTheUnitCountToItsRuns) {
  for (const int n : {4, 9, 12, 13}) {
    RunHeader header = nqueens::make_engine(n, options_for(*nqueens::find_engine("join")))->header();
    EXPECT_EQ(nqueens::header_problem(header), "") << n;
    const std::size_t units = header.unit_count;
    for (const std::size_t other : {units - 1, units + 1, units * 2}) {
      header.unit_count = other;
      EXPECT_EQ(nqueens::header_problem(header), "a join run of N=" + std::to_string(n) + " has " +
                                                     std::to_string(units) + " units, not " + std::to_string(other));
    }
  }
  RunHeader crafted = real_header(*nqueens::find_engine("join"));
  crafted.n = 23;
  crafted.unit_count = 160'000'000;
  EXPECT_EQ(nqueens::header_problem(crafted), "a join run of N=23 has 289456 units, not 160000000");
}

TEST(RunHeader, ReferenceRefusesWhatItsOneUnitPerColumnRunCannotBe) {
  const RunHeader real = real_header(*nqueens::find_engine("reference"));
  ASSERT_EQ(real.unit_count, static_cast<std::size_t>(real.n));
  RunHeader large = real;
  large.n = 15;
  large.unit_count = 15;
  EXPECT_EQ(nqueens::header_problem(large), "a reference run has N <= 14");
  RunHeader units = real;
  units.unit_count = real.unit_count - 1;
  EXPECT_EQ(nqueens::header_problem(units),
            "a reference run of N=" + std::to_string(real.n) + " has " + std::to_string(real.n) + " units");
  RunHeader none = real;
  none.settings["symmetry"] = "none";
  EXPECT_EQ(nqueens::header_problem(none), "the reference engine takes no --symmetry");
}

}  // namespace
