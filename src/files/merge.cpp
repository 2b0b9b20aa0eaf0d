// Shard files merged: each unit's counts taken once, and what is missing, repeated, conflicting
// or altered reported by id.
#include <algorithm>
#include <map>
#include <span>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/catalogue.hpp"
#include "nqueens/files/shard.hpp"

namespace nqueens {

bool MergeReport::complete() const { return missing.empty() && duplicated.empty() && conflicting.empty(); }

namespace {

void check_same_run(std::span<const ShardFile> shards) {
  if (shards.empty()) throw std::invalid_argument("no shard files to merge");
  // Missing ids are listed up to the unit count: a header from no real run must not size them.
  if (const std::string why = header_problem(shards.front().header); !why.empty())
    throw std::invalid_argument(shards.front().source + ": no run has this header: " + why);
  const RunHeader& first = shards.front().header;
  for (const ShardFile& shard : shards) {
    RunHeader theirs = shard.header;
    if (unit_family(theirs.engine) == unit_family(first.engine)) theirs.engine = first.engine;
    if (const std::string why = header_mismatch(first, theirs); !why.empty())
      throw std::invalid_argument(shard.source + " belongs to a different run than " + shards.front().source + ": " +
                                  why);
  }
}

// An intact entry where it was found: sorted by id, then file order.
struct Sighting {
  std::size_t id = 0;
  std::size_t file = 0;
  const UnitCount* unit = nullptr;
};

bool tally_less(const Tally& a, const Tally& b) {
  return std::tie(a.total, a.orbits, a.nodes) < std::tie(b.total, b.orbits, b.nodes);
}

// The places one id was found (in file order), a file's repeats of its own entry (equal counts)
// left out: a repeated entry in one file is harmless, as in a journal and as `check` says.
void classify(std::span<const Sighting> places, std::span<const ShardFile> shards, MergeReport& report) {
  const Tally& first = places.front().unit->tally;
  ++report.units_by_engine[shards[places.front().file].header.engine];
  report.totals += first;
  report.unit_time.add(places.front().unit->microseconds);
  UnitProblem problem{places.front().id, {}};
  bool equal = true;
  std::vector<Tally> tallies;
  for (std::size_t begin = 0, end; begin < places.size(); begin = end) {
    tallies.clear();
    for (end = begin; end < places.size() && places[end].file == places[begin].file; ++end)
      tallies.push_back(places[end].unit->tally);
    std::sort(tallies.begin(), tallies.end(), tally_less);
    tallies.erase(std::unique(tallies.begin(), tallies.end()), tallies.end());
    for (const Tally& tally : tallies) {
      problem.files.push_back(places[begin].file);
      equal = equal && tally == first;
    }
  }
  if (problem.files.size() > 1) (equal ? report.duplicated : report.conflicting).push_back(std::move(problem));
}

}  // namespace

MergeReport merge_shards(std::span<const ShardFile> shards) {
  check_same_run(shards);
  MergeReport report;
  report.header = shards.front().header;
  // Sized by the entries the files hold; only the missing ids follow the (checked) unit count.
  std::vector<Sighting> seen;
  std::map<std::size_t, std::vector<std::size_t>> altered;
  for (std::size_t file = 0; file < shards.size(); ++file) {
    for (const UnitCount& unit : shards[file].units) seen.push_back({unit.id, file, &unit});
    for (const std::size_t id : shards[file].altered) altered[id].push_back(file);
    // The version a damaged header line reads is not the file's own.
    if (!shards[file].header_damaged &&
        std::find(report.versions.begin(), report.versions.end(), shards[file].header.version) == report.versions.end())
      report.versions.push_back(shards[file].header.version);
  }
  if (report.versions.size() == 1) report.versions.clear();
  std::stable_sort(seen.begin(), seen.end(), [](const Sighting& a, const Sighting& b) { return a.id < b.id; });
  std::size_t next_id = 0;
  for (std::size_t first = 0, end; first < seen.size(); first = end) {
    for (end = first + 1; end < seen.size() && seen[end].id == seen[first].id; ++end) {
    }
    for (; next_id < seen[first].id; ++next_id) report.missing.push_back(next_id);
    next_id = seen[first].id + 1;
    classify(std::span<const Sighting>(seen).subspan(first, end - first), shards, report);
  }
  for (; next_id < report.header.unit_count; ++next_id) report.missing.push_back(next_id);
  // An altered entry covers nothing: its unit is reported as altered, and as missing too
  // when no other file holds it intact.
  for (auto& [id, files] : altered) report.altered.push_back({id, std::move(files)});
  return report;
}

}  // namespace nqueens
