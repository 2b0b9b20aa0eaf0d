#include "run/resume_engine.hpp"

#include <optional>

#include "engine/catalogue.hpp"
#include "files/journal_header.hpp"

namespace nqueens {

CountOptions resume_options(int n, CountOptions options, const std::filesystem::path& journal) {
  if (options.engine != kAutomaticEngine) return options;
  // Nothing to tell (no file yet, no journal at all): the run's own open creates or refuses it.
  const std::optional<RunHeader> header = detail::journal_run(journal);
  if (!header) return options;
  const EngineDescription* engine = find_engine(header->engine);
  if (!engine || !engine->refusal(n, options).empty()) return options;
  options.engine = header->engine;
  return options;
}

}  // namespace nqueens
