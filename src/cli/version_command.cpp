// `nqueens version` (and `nqueens --version`): how this program was built and what it runs on.
// The text form is for people and bug reports; the JSON form carries the host too, with the
// same fields as the context record of every JSON Lines stream.
#include <memory>
#include <string>

#include "commands.hpp"
#include "shell/output/build_info.hpp"
#include "shell/output/report.hpp"
#include "shell/output/standard_output.hpp"

namespace nqueens::cli {

Registered add_version_command(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* command =
      app.add_subcommand("version", "Print the version, commit, compiler, SIMD paths and oneTBB of this build");
  command->add_option("--format", *format, "text, or json (with the host's name, CPU model and caches)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  return {command, [format] {
            print_stdout(*format == "json" ? build_json(build_info(), host_info()).dump() + '\n'
                                           : version_text(build_info()));
            return kOk;
          }};
}

}  // namespace nqueens::cli
