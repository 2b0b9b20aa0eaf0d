// libFuzzer target: the shard-file reader behind `nqueens merge`, parse_shard_json(), followed
// by merge_shards() over the file as the command does. The reader throws ShardFileError or
// returns ids within the run; what it accepted is written back by shard_json() and read again
// unchanged; merging the file with itself finds every intact unit doubled.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "nqueens/shard.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nqueens::ShardFile file;
  try {
    file = nqueens::parse_shard_json(text, "fuzz.json");
  } catch (const nqueens::ShardFileError&) {
    return 0;
  }
  for (const nqueens::UnitCount& unit : file.units) check(unit.id < file.header.unit_count);
  for (const std::size_t id : file.altered) check(id < file.header.unit_count);

  const nqueens::ShardFile again = nqueens::parse_shard_json(nqueens::shard_json(file), "again.json");
  check(again.header == file.header && again.shard == file.shard && again.threads == file.threads);
  check(again.seconds == file.seconds && again.units == file.units && again.altered.empty());

  const std::vector<nqueens::ShardFile> one{file};
  const nqueens::MergeReport report = nqueens::merge_shards(one);
  check(report.header == file.header && report.missing.size() <= file.header.unit_count);
  const std::vector<nqueens::ShardFile> twice{file, file};
  const nqueens::MergeReport doubled = nqueens::merge_shards(twice);
  check(doubled.missing == report.missing && doubled.totals == report.totals);
  check(doubled.duplicated.size() + doubled.conflicting.size() + doubled.missing.size() == file.header.unit_count);
  return 0;
}
