// `nqueens oeis`: the built-in reference tables, in any output format.
#include <memory>
#include <string>

#include "commands.hpp"
#include "nqueens/oeis.hpp"
#include "shell/output/report.hpp"

namespace nqueens::cli {

Registered add_oeis_command(CLI::App& app) {
  struct OeisArgs {
    std::string format = "text";
    std::string json_counts = "number";
  };
  auto args = std::make_shared<OeisArgs>();
  CLI::App* command = app.add_subcommand("oeis", "Print the built-in OEIS tables A000170 and A002562");
  add_format_option(*command, args->format);
  add_json_counts_option(*command, args->json_counts);
  return {command, [args] {
            auto reporter = make_reporter(parse_format(args->format), parse_json_counts(args->json_counts));
            std::vector<int> sizes;
            for (int n = 0; n <= kOeisMaxN; ++n) sizes.push_back(n);
            reporter->begin({"oeis", 1, sizes});
            for (int n : sizes) {
              nlohmann::ordered_json record;
              record["n"] = n;
              record["total"] = *oeis_total(n);
              const auto unique = oeis_unique(n);
              record["unique"] = unique ? nlohmann::ordered_json(*unique) : nlohmann::ordered_json(nullptr);
              reporter->row(record);
            }
            reporter->end();
            return kOk;
          }};
}

}  // namespace nqueens::cli
