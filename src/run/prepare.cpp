#include "run/prepare.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "files/file_io.hpp"
#include "run/registry.hpp"
#include "run/rough_cost.hpp"
#include "text/echo.hpp"

namespace nqueens {

namespace {

// Each N's request under `place`: with a journal, the resume rule (request_run).
std::vector<RunRequest> requests_of(const std::vector<int>& sizes, const CountOptions& options, const RunPlace& place) {
  std::vector<RunRequest> requests;
  requests.reserve(sizes.size());
  for (const int n : sizes)
    requests.push_back(request_run(n, options, place_for_size(place, n, sizes.size()).checkpoint));
  return requests;
}

// The journal a whole count keeps by default when one of its N should take more than
// kJournalSeconds on `threads` threads and none is named: nqueens-n<N>.journal in the current
// directory for one N, the directory nqueens-journals for several.
std::optional<std::filesystem::path> default_journal(const RunPlace& place, std::span<const RunRequest> requests,
                                                     int threads) {
  if (place.checkpoint || !place.selection.whole()) return std::nullopt;
  for (const RunRequest& request : requests) {
    const std::optional<double> thread_seconds = rough_thread_seconds(*request.engine, request.n);
    if (thread_seconds && rough_wall_seconds(*thread_seconds, threads) > kJournalSeconds)
      return requests.size() == 1 ? "nqueens-n" + std::to_string(request.n) + ".journal" : "nqueens-journals";
  }
  return std::nullopt;
}

// Throws when another process holds `journal` (its count runs) or FILE.partial beside it (a
// write that will rename its file over the journal).
void check_journal_free(const std::filesystem::path& journal) {
  const std::string option = "--checkpoint " + detail::shown_path(journal);
  if (const std::string use = detail::locked_by_another(journal); !use.empty())
    throw detail::FileInUse(option + " is " + use + ": nothing was counted");
  const std::filesystem::path partial = detail::temporary_path(journal);
  if (!detail::locked_by_another(partial).empty())
    throw detail::FileInUse(option + " is being written by another nqueens process (it holds " +
                            detail::shown_path(partial) + "): nothing was counted");
}

// A FILE.partial beside the journal (or its backup) that no process holds was left by a
// --repair killed before its rename: removed, and said, so that none stays for good under a
// journal counted on without --repair.
void remove_stale_temporaries(const std::filesystem::path& journal,
                              const std::function<void(const std::string&)>& note) {
  std::filesystem::path backup = journal;
  backup += ".damaged";
  for (const std::filesystem::path& target : {journal, backup})
    if (const std::string said = detail::remove_stale_temporary(target); !said.empty() && note) note(said);
}

// What each N's run may leave for the next N of the command, which reads those tables again
// (engine/kept_tables.hpp): decided from the two runs' memory plans, one store for every N.
void hand_on_tables(std::vector<RunRequest>& requests) {
  if (requests.size() < 2) return;
  const auto kept = std::make_shared<KeptTables>();
  for (std::size_t at = 0; at < requests.size(); ++at) {
    RunRequest& request = requests[at];
    request.kept = kept;
    const RunRequest* next = at + 1 < requests.size() ? &requests[at + 1] : nullptr;
    const bool alike = next && next->engine == request.engine && request.memory_plan && next->memory_plan;
    request.hand_on_bytes = alike ? request.memory_plan->hand_on_bytes(*next->memory_plan) : 0;
  }
}

}  // namespace

PreparedRuns prepare_runs(const std::vector<int>& sizes, CountOptions options, RunPlace place,
                          const Preparation& preparation) {
  if (sizes.empty()) throw std::invalid_argument("no board size to count");
  settle_memory_budget(options);
  PreparedRuns runs;
  runs.requests = requests_of(sizes, options, place);
  runs.threads = threads_that_run(runs.requests.front().threads, preparation.processes);  // one --threads
  if (preparation.journal_by_default)
    if (const auto journal = default_journal(place, runs.requests, runs.threads.running)) {
      check_checkpoint(*journal, sizes.size());
      place.checkpoint = *journal;
      runs.journal_by_default = true;
      runs.requests = requests_of(sizes, options, place);  // the resume rule, for a journal already there
    }
  runs.place = std::move(place);
  return runs;
}

PreparedRuns follow_runs(const std::vector<int>& sizes, CountOptions options, std::span<const std::string> engines,
                         const Preparation& preparation) {
  if (sizes.empty()) throw std::invalid_argument("no board size to count");
  if (engines.size() != sizes.size())
    throw std::logic_error(std::to_string(engines.size()) + " engines for " + std::to_string(sizes.size()) + " sizes");
  settle_memory_budget(options);
  PreparedRuns runs;
  for (std::size_t at = 0; at < sizes.size(); ++at) {
    options.engine = engines[at];
    runs.requests.push_back(request_run(sizes[at], options));
  }
  runs.threads = threads_that_run(runs.requests.front().threads, preparation.processes);
  return runs;
}

void check_runs(PreparedRuns& runs, RunArena& arena, const PlanWatch& watch,
                const std::function<void(const std::string&)>& note) {
  const std::size_t sizes = runs.requests.size();
  for (RunRequest& request : runs.requests) {
    // The journal first: its check takes no time, a memory plan may take minutes.
    if (const RunPlace place = place_for_size(runs.place, request.n, sizes); place.checkpoint) {
      check_journal_free(*place.checkpoint);
      remove_stale_temporaries(*place.checkpoint, note);
    }
    // Kept in the request: made once.
    const auto plan = [&request, &arena] { arena.execute([&request] { (void)plan_memory(request); }); };
    if (watch)
      watch(request.n, plan);
    else
      plan();
  }
  hand_on_tables(runs.requests);
  std::vector<int> ns;
  for (const RunRequest& request : runs.requests) ns.push_back(request.n);
  // The header of the run each N's journal is for: its engine, built from its request.
  const auto header_of = [&runs, &arena](int n) { return make_engine(request_for(runs.requests, n), arena)->header(); };
  check_journal_headers(runs.place, ns, header_of);
  check_journals_writable(runs.place, ns, header_of);
}

int command_threads(std::span<const RunRequest> requests) {
  int threads = 1;
  for (const RunRequest& request : requests) threads = std::max(threads, request.threads);
  return threads;
}

const RunRequest& request_for(std::span<const RunRequest> requests, int n) {
  for (const RunRequest& request : requests)
    if (request.n == n) return request;
  throw std::logic_error("no run was requested for N=" + std::to_string(n));
}

}  // namespace nqueens
