#pragma once
// A campaign: one run counted as K shards whose files, journals and logs share one folder (the
// layout slurm-shards.sh and xargs-shards.sh write: shard-I.json, shard-I.journal, shard-I.log).
// read_campaign() reads the folder once, without changing or locking anything, and says where
// each shard stands, which files do not belong, which units disagree, and what the units counted
// so far add up to. `nqueens status` prints it.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "nqueens/counts.hpp"
#include "nqueens/files/run_header.hpp"
#include "nqueens/files/unit_record.hpp"

namespace nqueens::shell {

enum class ShardState {
  done,         //!< its shard file holds every entry sound
  damaged,      //!< its shard file has damaged or altered entries (its sound ones are counted)
  running,      //!< no shard file; a live process holds its journal's lock
  interrupted,  //!< no shard file; a journal that nothing holds: run it again to resume
  failed,       //!< no shard file; its log's last word is a failure
  missing,      //!< nothing of it in the folder
};

//! The state's name as status prints it ("done", "running", ...).
const char* state_name(ShardState state);

//! One shard of the campaign and the files that speak of it.
struct CampaignShard {
  int index = 0;
  ShardState state = ShardState::missing;
  std::filesystem::path shard_file, journal, log;  //!< empty when there is none
  std::size_t units = 0;                           //!< sound units in its shard file or journal
  std::uint64_t microseconds = 0;                  //!< their summed thread time
  std::string note;                                //!< why it is damaged or failed, in words
};

//! A file of the folder left out of the campaign, and why.
struct LeftOut {
  std::filesystem::path path;
  std::string reason;
};

struct Campaign {
  std::filesystem::path folder;
  std::optional<RunHeader> header;            //!< the run most of the files belong to
  int shard_count = 0;                        //!< K; 0 when neither the files nor the caller say
  std::vector<CampaignShard> shards;          //!< shards 1..K
  std::vector<std::filesystem::path> extras;  //!< `count --units` files of the run: their units count too
  std::vector<LeftOut> left_out;              //!< files of another run or split, twice given, unreadable
  std::vector<std::size_t> conflicting;       //!< units recorded with different counts, ascending
  std::size_t units_counted = 0;              //!< distinct units with a sound record
  Totals totals;                              //!< over those units, each once
  UnitTime unit_time;                         //!< their summed thread time
  std::size_t files_read = 0;                 //!< shard files and journals read

  //! Every unit counted, none in conflict: the totals are the run's.
  bool complete() const;
  //! How many shards are in `state`.
  std::size_t count(ShardState state) const;
};

//! Reads the folder: its shard files (*.json), journals (*.journal) and logs (*.log), not its
//! subfolders. `shard_count` (0: the one most shard files name) is K. Throws
//! std::invalid_argument when the folder cannot be listed or holds no shard file or journal.
Campaign read_campaign(const std::filesystem::path& folder, int shard_count = 0);

//! The thread time the shards not done still need, from the shards done: the shards of a run
//! are dealt its units by their estimated cost, so that each is about 1/K of the run, and the
//! done ones are a sample of them. Each unfinished shard needs the mean of the done ones less
//! what its journal already holds; the bar is the standard error of that mean (with the
//! finite-population correction), times 1.96. nullopt with fewer than two shards done.
struct Remaining {
  double thread_seconds = 0;
  double error_95 = 0;  //!< half-width of the 95 % interval
};
std::optional<Remaining> remaining_from_shards(const Campaign& campaign);

//! The engine's rough cost model (run/rough_cost.hpp) for the units not counted: the whole run's
//! rough thread time times their share of the units. nullopt where the engine has no model.
std::optional<double> remaining_by_cost_model(const Campaign& campaign);

}  // namespace nqueens::shell
