#include "shell/options/logging.hpp"

#include <cstdlib>
#include <mutex>
#include <string_view>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include "shell/output/console.hpp"

namespace nqueens::shell {

namespace {

// ANSI colours for the level tag, as spdlog's own colour sink uses them.
std::string_view level_color(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return "\x1b[37m";
    case spdlog::level::debug: return "\x1b[36m";
    case spdlog::level::info: return "\x1b[32m";
    case spdlog::level::warn: return "\x1b[33m\x1b[1m";
    default: return "\x1b[31m\x1b[1m";
  }
}
constexpr std::string_view kResetColor = "\x1b[0m";

// spdlog formats; the Console writes (or drops the line once stderr is broken). The colour
// range is the "[warn]" tag that the pattern marks with %^ and %$.
class ConsoleSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  void set_color(bool on) {
    const std::lock_guard<std::mutex> guard(mutex_);
    color_ = on;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    std::string_view text(formatted.data(), formatted.size());
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    if (!color_ || msg.color_range_end <= msg.color_range_start || msg.color_range_end > text.size()) {
      Console::err().line(text, Stamp::when_batch);
      return;
    }
    std::string colored(text.substr(0, msg.color_range_start));
    colored += level_color(msg.level);
    colored += text.substr(msg.color_range_start, msg.color_range_end - msg.color_range_start);
    colored += kResetColor;
    colored += text.substr(msg.color_range_end);
    Console::err().line(colored, Stamp::when_batch);
  }
  void flush_() override {}

 private:
  bool color_ = false;
};

std::shared_ptr<ConsoleSink>& console_sink() {
  static std::shared_ptr<ConsoleSink> sink = std::make_shared<ConsoleSink>();
  return sink;
}

}  // namespace

void add_logging_options(CLI::App& command, LogArgs& args) {
  CLI::Option* quiet = command.add_flag("-q,--quiet", args.quiet, "Log errors only");
  command.add_option("--log-level", args.level, "Log level on stderr: trace, debug, info, warn, error, critical, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->capture_default_str()
      ->excludes(quiet);
  command
      .add_option("--color", args.color,
                  "Colour the log level on stderr: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

bool wants_color(const std::string& mode, const char* no_color, bool terminal) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const bool no_color_set = no_color != nullptr && no_color[0] != '\0';  // no-color.org: set and not empty
  return terminal && !no_color_set;
}

void apply_logging(const LogArgs& args) {
  spdlog::set_level(args.quiet ? spdlog::level::err : spdlog::level::from_str(args.level));
  console_sink()->set_color(wants_color(args.color, std::getenv("NO_COLOR"), Console::err().terminal()));
}

std::shared_ptr<spdlog::logger> make_console_logger(const std::string& name, const std::string& prefix) {
  auto logger = std::make_shared<spdlog::logger>(name, console_sink());
  // The Console adds the timestamp in batch logs; a terminal shows the time of day anyway.
  logger->set_pattern("%^[%l]%$ " + prefix + "%v");
  return logger;
}

}  // namespace nqueens::shell
