#include "shell/output/shard_output.hpp"

#include <stdexcept>
#include <vector>

#include <spdlog/spdlog.h>

#include "nqueens/files/unit_ranges.hpp"
#include "shell/output/standard_output.hpp"
#include "shell/supervision/signals.hpp"
#include "text/echo.hpp"

namespace nqueens::shell {

ShardOutput::ShardOutput(const std::string& path, const detail::WritePolicy& policy) : path_(path) {
  if (path_.empty()) return;
  // A leftover of a count killed outright would be taken over unseen: it goes first, and is said.
  if (const std::string said = detail::remove_stale_temporary(policy.target(path_)); !said.empty())
    spdlog::warn("{}", said);
  file_ = std::make_unique<detail::AtomicFile>(path_, policy);
  remove_on_interrupt(detail::temporary_path(file_->target()));
}

ShardOutput::~ShardOutput() {
  if (file_) forget_on_interrupt(detail::temporary_path(file_->target()));
}

void ShardOutput::write(const RunOutcome& session, ShardSpec shard) {
  ShardFile file;
  file.header = session.header;
  file.shard = shard;
  file.threads = session.result.threads;
  file.seconds = session.result.seconds;
  file.units = session.units;
  if (shard.count == 0) {  // count --units: the ids asked for, as merge and check list them
    std::vector<std::size_t> ids;
    for (const UnitCount& unit : file.units) ids.push_back(unit.id);
    file.unit_list = format_id_ranges(ids);
  }
  const std::string text = shard_json(file);
  if (file_) {
    file_->write(text);
    // Renamed away next: from then on the name may be another process's FILE.partial.
    forget_on_interrupt(detail::temporary_path(file_->target()));
    file_->commit();
  } else {
    print_stdout(text);
  }
  spdlog::info("N={}: {} ({} of {} units) written to {}", session.header.n,
               shard.count == 0 ? "units " + file.unit_list : fmt::format("shard {}/{}", shard.index, shard.count),
               file.units.size(), session.header.unit_count, path_.empty() ? "stdout" : detail::shown_path(path_));
}

}  // namespace nqueens::shell
