#include "logging.hpp"

#include <spdlog/spdlog.h>

namespace nqueens::shell {

void add_logging_options(CLI::App& command, LogArgs& args) {
  CLI::Option* quiet = command.add_flag("-q,--quiet", args.quiet, "Log errors only");
  command.add_option("--log-level", args.level, "Log level on stderr: trace, debug, info, warn, error, critical, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->capture_default_str()
      ->excludes(quiet);
}

void apply_logging(const LogArgs& args) {
  spdlog::set_level(args.quiet ? spdlog::level::err : spdlog::level::from_str(args.level));
}

}  // namespace nqueens::shell
