#include "shell/output/campaign.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "engine/catalogue.hpp"
#include "files/file_io.hpp"
#include "nqueens/files/journal.hpp"
#include "nqueens/files/shard.hpp"
#include "run/rough_cost.hpp"

namespace nqueens::shell {

namespace fs = std::filesystem;

const char* state_name(ShardState state) {
  switch (state) {
    case ShardState::done: return "done";
    case ShardState::damaged: return "damaged";
    case ShardState::running: return "running";
    case ShardState::interrupted: return "interrupted";
    case ShardState::failed: return "failed";
    case ShardState::missing: return "missing";
  }
  return "?";
}

bool Campaign::complete() const { return header && units_counted == header->unit_count && conflicting.empty(); }

std::size_t Campaign::count(ShardState state) const {
  return static_cast<std::size_t>(std::count_if(shards.begin(), shards.end(),
                                                [state](const CampaignShard& shard) { return shard.state == state; }));
}

namespace {

// ---- live locks: who holds a journal, asked without taking a lock ---------------------------
// A count holds its journal with flock(LOCK_EX). Taking even a shared lock to test that could make
// a count starting at that moment fail, so the locks are only looked at: the flock locks of this
// machine in /proc/locks, and, for a journal on a network file system (where flock is carried
// out as a POSIX lock the server sees from every node), F_OFD_GETLK, which asks and takes nothing.
using FileKey = std::tuple<unsigned, unsigned, ino_t>;  // device major, minor, inode

// "08:01:5678" (the device's major and minor in hex, the inode in decimal) as a key.
std::optional<FileKey> file_key(const std::string& text) {
  const std::size_t first = text.find(':');
  const std::size_t second = text.find(':', first + 1);
  if (first == std::string::npos || second == std::string::npos) return std::nullopt;
  unsigned major = 0;
  unsigned minor = 0;
  unsigned long inode = 0;
  const char* begin = text.data();
  if (std::from_chars(begin, begin + first, major, 16).ec != std::errc() ||
      std::from_chars(begin + first + 1, begin + second, minor, 16).ec != std::errc() ||
      std::from_chars(begin + second + 1, begin + text.size(), inode).ec != std::errc())
    return std::nullopt;
  return FileKey{major, minor, static_cast<ino_t>(inode)};
}

// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF", or "1: -> FLOCK ..." for a waiting one.
std::set<FileKey> local_flocks() {
  std::set<FileKey> held;
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream words(line);
    std::vector<std::string> fields{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    const auto flock = std::find(fields.begin(), fields.end(), "FLOCK");
    if (flock == fields.end() || fields.end() - flock < 5 || fields[1] == "->") continue;
    if (const auto key = file_key(*(flock + 4))) held.insert(*key);
  }
  return held;
}

bool held_remotely(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  const bool held = ::fcntl(fd, F_OFD_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

class LiveLocks {
 public:
  LiveLocks() : local_(local_flocks()) {}
  bool held(const fs::path& path) const {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return false;
    if (local_.count({major(info.st_dev), minor(info.st_dev), info.st_ino}) != 0) return true;
    return held_remotely(path);
  }

 private:
  std::set<FileKey> local_;
};

// ---- the folder's files -----------------------------------------------------------------------

// "shard-17" -> 17: the scripts' names; 0 for any other name.
int shard_number(const fs::path& path) {
  const std::string stem = path.stem().string();
  constexpr std::string_view prefix = "shard-";
  if (stem.rfind(prefix, 0) != 0) return 0;
  int number = 0;
  const char* first = stem.data() + prefix.size();
  const char* last = stem.data() + stem.size();
  const auto [end, error] = std::from_chars(first, last, number);
  return error == std::errc() && end == last && number > 0 ? number : 0;
}

struct Listing {
  std::vector<fs::path> shard_files, journals, logs, temporaries;
};

Listing list_folder(const fs::path& folder) {
  std::error_code error;
  fs::directory_iterator entries(folder, error);
  if (error) throw std::invalid_argument(fmt::format("cannot list {}: {}", folder.string(), error.message()));
  Listing listing;
  for (const fs::directory_entry& entry : entries) {
    if (!entry.is_regular_file(error)) continue;
    const std::string extension = entry.path().extension().string();
    if (extension == ".json") listing.shard_files.push_back(entry.path());
    if (extension == ".journal") listing.journals.push_back(entry.path());
    if (extension == ".log") listing.logs.push_back(entry.path());
    if (extension == ".partial") listing.temporaries.push_back(entry.path());
  }
  for (auto* paths : {&listing.shard_files, &listing.journals, &listing.logs, &listing.temporaries})
    std::sort(paths->begin(), paths->end());
  return listing;
}

struct ReadJournal {
  fs::path path;
  JournalScan scan;
};

// What was read, before it is sorted into the campaign.
struct Read {
  std::vector<ShardFile> shard_files;
  std::vector<ReadJournal> journals;
};

Read read_files(const Listing& listing, Campaign& campaign) {
  std::vector<RunHeader> runs;
  for (const fs::path& path : listing.shard_files)
    if (const auto run = read_shard_run(path); run && std::find(runs.begin(), runs.end(), *run) == runs.end())
      runs.push_back(*run);
  Read read;
  for (const fs::path& path : listing.shard_files) {
    try {
      read.shard_files.push_back(read_shard_file(path, runs));
    } catch (const std::exception& why) {  // not a shard file, or one whose entries fit no run
      campaign.left_out.push_back({path, why.what()});
    }
  }
  for (const fs::path& path : listing.journals) {
    try {
      const std::string bytes = read_journal(path);
      read.journals.push_back({path, scan_journal(bytes, path.string())});
    } catch (const std::exception& why) {
      campaign.left_out.push_back({path, why.what()});
    }
  }
  campaign.files_read = read.shard_files.size() + read.journals.size();
  return read;
}

// The run most files belong to (the version aside, as header_mismatch compares them).
std::optional<RunHeader> main_run(const Read& read) {
  std::vector<std::pair<RunHeader, std::size_t>> runs;
  auto vote = [&runs](const RunHeader& header) {
    for (auto& [run, files] : runs)
      if (header_mismatch(run, header).empty()) {
        ++files;
        return;
      }
    runs.emplace_back(header, 1);
  };
  for (const ShardFile& file : read.shard_files) vote(file.header);
  for (const ReadJournal& journal : read.journals) vote(journal.scan.header);
  if (runs.empty()) return std::nullopt;
  return std::max_element(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

int main_shard_count(const std::vector<ShardFile>& files) {
  std::map<int, std::size_t> votes;
  for (const ShardFile& file : files)
    if (file.head_trusted && file.shard.count > 0) ++votes[file.shard.count];
  if (votes.empty()) return 0;
  return std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// The units of every file, each once: a unit recorded again with other counts is a conflict.
// A fingerprint of its counts per unit (not the counts) keeps this at 8 bytes a unit, 80 MB for
// the ten million units of N = 28.
class UnitLedger {
 public:
  explicit UnitLedger(Campaign& campaign)
      : campaign_(campaign), seen_(campaign.header->unit_count, 0), conflict_(campaign.header->unit_count, false) {}

  void add(const UnitCount& unit) {
    if (unit.id >= seen_.size()) return;
    const std::uint64_t mark = fingerprint(unit.tally);
    if (seen_[unit.id] == 0) {
      seen_[unit.id] = mark;
      campaign_.totals += unit.tally;
      campaign_.unit_time.add(unit.microseconds);
      ++campaign_.units_counted;
    } else if (seen_[unit.id] != mark) {
      conflict_[unit.id] = true;
    }
  }
  void conflict(std::size_t id) {
    if (id < conflict_.size()) conflict_[id] = true;
  }
  std::vector<std::size_t> conflicts() const {
    std::vector<std::size_t> ids;
    for (std::size_t id = 0; id < conflict_.size(); ++id)
      if (conflict_[id]) ids.push_back(id);
    return ids;
  }

 private:
  static std::uint64_t fingerprint(const Tally& tally) {
    std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a over the counts
    auto mix = [&hash](std::uint64_t value) {
      for (int byte = 0; byte < 8; ++byte) {
        hash ^= (value >> (8 * byte)) & 0xFFU;
        hash *= 1099511628211ULL;
      }
    };
    mix(tally.total);
    for (const std::uint64_t orbit : tally.orbits) mix(orbit);
    mix(tally.nodes);
    return hash | 1U;  // 0 marks a unit not seen
  }

  Campaign& campaign_;
  std::vector<std::uint64_t> seen_;
  std::vector<bool> conflict_;
};

// The last lines of a log say whether its shard's last start failed: slurm-shards.sh writes
// "shard I/K failed (exit S)" after a failure and "... start R" at every start.
std::string failure_in_log(const fs::path& log) {
  std::ifstream file(log, std::ios::binary);
  constexpr std::streamoff kTail = 4096;
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  if (size <= 0) return {};
  file.seekg(std::max<std::streamoff>(0, size - kTail));
  std::string line;
  std::string failure;
  while (std::getline(file, line)) {
    if (line.find(" failed (exit ") != std::string::npos) failure = line;
    if (line.find(", start ") != std::string::npos) failure.clear();
  }
  return failure;
}

void place_shard_files(std::vector<ShardFile>& files, Campaign& campaign, UnitLedger& ledger) {
  for (ShardFile& file : files) {
    if (!header_mismatch(*campaign.header, file.header).empty()) {
      campaign.left_out.push_back(
          {file.source, "a file of another run: " + header_mismatch(*campaign.header, file.header)});
      continue;
    }
    if (!file.unit_list.empty()) {
      campaign.extras.emplace_back(file.source);
    } else if (!file.head_trusted || file.shard.count != campaign.shard_count) {
      campaign.left_out.push_back(
          {file.source, fmt::format("shard {}/{} of another split (this campaign's is {} shards)", file.shard.index,
                                    file.shard.count, campaign.shard_count)});
      continue;
    } else {
      CampaignShard& shard = campaign.shards[static_cast<std::size_t>(file.shard.index - 1)];
      if (!shard.shard_file.empty()) {
        campaign.left_out.push_back(
            {file.source, fmt::format("a second file of shard {}/{} (the first: {})", file.shard.index,
                                      file.shard.count, shard.shard_file.string())});
        continue;
      }
      shard.shard_file = file.source;
      shard.units = file.units.size();
      for (const UnitCount& unit : file.units) shard.microseconds += unit.microseconds;
      const bool sound = file.damaged.empty() && file.altered.empty();
      shard.state = sound ? ShardState::done : ShardState::damaged;
      if (!sound)
        shard.note = fmt::format("{} damaged lines, {} altered entries", file.damaged.size(), file.altered.size());
    }
    for (const UnitCount& unit : file.units) ledger.add(unit);
  }
}

void place_journals(std::vector<ReadJournal>& journals, Campaign& campaign, UnitLedger& ledger) {
  const LiveLocks locks;
  for (ReadJournal& journal : journals) {
    if (const std::string why = header_mismatch(*campaign.header, journal.scan.header); !why.empty()) {
      campaign.left_out.push_back({journal.path, "a journal of another run: " + why});
      continue;
    }
    for (const UnitCount& unit : journal.scan.units) ledger.add(unit);
    for (const std::size_t id : journal.scan.conflicting) ledger.conflict(id);
    const int number = shard_number(journal.path);
    if (number < 1 || number > campaign.shard_count) {
      campaign.extras.push_back(journal.path);
      continue;
    }
    CampaignShard& shard = campaign.shards[static_cast<std::size_t>(number - 1)];
    shard.journal = journal.path;
    if (!shard.shard_file.empty()) continue;  // done: its shard file speaks for it
    shard.units = journal.scan.units.size();
    for (const UnitCount& unit : journal.scan.units) shard.microseconds += unit.microseconds;
    shard.state = locks.held(journal.path) ? ShardState::running : ShardState::interrupted;
  }
}

void place_logs(const std::vector<fs::path>& logs, Campaign& campaign) {
  for (const fs::path& log : logs) {
    const int number = shard_number(log);
    if (number < 1 || number > campaign.shard_count) continue;
    CampaignShard& shard = campaign.shards[static_cast<std::size_t>(number - 1)];
    shard.log = log;
    if (shard.state != ShardState::interrupted && shard.state != ShardState::missing) continue;
    if (std::string failure = failure_in_log(log); !failure.empty()) {
      shard.state = ShardState::failed;
      shard.note = std::move(failure);
    }
  }
}

// A FILE.partial that no process holds was left by a run killed while it wrote FILE (a journal's
// repair, a shard file, a merge): named, since status changes nothing, with the run that removes
// it. One a live process holds is a write in progress.
void name_leftovers(const std::vector<fs::path>& temporaries, Campaign& campaign) {
  for (const fs::path& partial : temporaries) {
    if (!detail::locked_by_another(partial).empty()) continue;
    fs::path target = partial;
    target.replace_extension();
    campaign.left_out.push_back(
        {partial, fmt::format("left by a run killed while it wrote {}; the next run that writes it (a count with "
                              "this --checkpoint or --output, a merge into it) removes it",
                              target.filename().string())});
  }
}

}  // namespace

Campaign read_campaign(const fs::path& folder, int shard_count) {
  Campaign campaign;
  campaign.folder = folder;
  const Listing listing = list_folder(folder);
  Read read = read_files(listing, campaign);
  campaign.header = main_run(read);
  if (!campaign.header)
    throw std::invalid_argument(fmt::format("{} holds no shard file (*.json) or journal (*.journal) of nqueens{}",
                                            folder.string(),
                                            campaign.left_out.empty() ? "" : ": " + campaign.left_out.front().reason));
  campaign.shard_count = shard_count > 0 ? shard_count : main_shard_count(read.shard_files);
  campaign.shards.resize(static_cast<std::size_t>(campaign.shard_count));
  for (int index = 1; index <= campaign.shard_count; ++index)
    campaign.shards[static_cast<std::size_t>(index - 1)].index = index;
  UnitLedger ledger(campaign);
  place_shard_files(read.shard_files, campaign, ledger);
  place_journals(read.journals, campaign, ledger);
  place_logs(listing.logs, campaign);
  name_leftovers(listing.temporaries, campaign);
  campaign.conflicting = ledger.conflicts();
  return campaign;
}

std::optional<Remaining> remaining_from_shards(const Campaign& campaign) {
  std::vector<double> done;
  for (const CampaignShard& shard : campaign.shards)
    if (shard.state == ShardState::done) done.push_back(static_cast<double>(shard.microseconds) * 1e-6);
  if (done.size() < 2) return std::nullopt;
  const auto m = static_cast<double>(done.size());
  double mean = 0;
  for (const double seconds : done) mean += seconds / m;
  double squares = 0;
  for (const double seconds : done) squares += (seconds - mean) * (seconds - mean);
  const double spread = std::sqrt(squares / (m - 1));
  Remaining remaining;
  std::size_t unfinished = 0;
  for (const CampaignShard& shard : campaign.shards) {
    if (shard.state == ShardState::done) continue;
    ++unfinished;
    remaining.thread_seconds += std::max(0.0, mean - static_cast<double>(shard.microseconds) * 1e-6);
  }
  const auto k = static_cast<double>(campaign.shards.size());
  constexpr double kZ95 = 1.96;
  remaining.error_95 = kZ95 * static_cast<double>(unfinished) * spread / std::sqrt(m) * std::sqrt(1 - m / k);
  return remaining;
}

std::optional<double> remaining_by_cost_model(const Campaign& campaign) {
  if (!campaign.header || campaign.header->unit_count == 0) return std::nullopt;
  const EngineDescription* engine = find_engine(campaign.header->engine);
  if (engine == nullptr) return std::nullopt;
  const std::optional<double> whole = rough_thread_seconds(*engine, campaign.header->n);
  if (!whole) return std::nullopt;
  const double left = static_cast<double>(campaign.header->unit_count - campaign.units_counted);
  return *whole * left / static_cast<double>(campaign.header->unit_count);
}

}  // namespace nqueens::shell
