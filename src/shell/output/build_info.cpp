#include "shell/output/build_info.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

#include <fmt/core.h>
#include <oneapi/tbb/version.h>

#include "git_commit.hpp"
#include "nqueens/version.hpp"
#include "run/registry.hpp"
#include "text/text_numbers.hpp"

namespace nqueens::shell {

namespace {

std::string compiler_name() {
#if defined(__clang__)
  return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

// The first line of a small file, "" when it cannot be read.
std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  constexpr std::string_view kKey = "model name";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(kKey, 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return "";
}

// Where /sys has no cache directory (some virtual machines), glibc still answers from CPUID.
std::vector<CacheInfo> caches_from_sysconf() {
  const struct {
    int name;
    int level;
    const char* type;
  } asked[] = {{_SC_LEVEL1_DCACHE_SIZE, 1, "Data"},
               {_SC_LEVEL1_ICACHE_SIZE, 1, "Instruction"},
               {_SC_LEVEL2_CACHE_SIZE, 2, "Unified"},
               {_SC_LEVEL3_CACHE_SIZE, 3, "Unified"}};
  std::vector<CacheInfo> found;
  for (const auto& cache : asked) {
    const long size = sysconf(cache.name);
    if (size > 0) found.push_back({cache.level, cache.type, static_cast<std::uint64_t>(size)});
  }
  return found;
}

std::vector<CacheInfo> caches() {
  std::vector<CacheInfo> found;
  for (int index = 0;; ++index) {
    const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", index);
    const std::string level = first_line(dir + "level");
    if (level.empty()) break;
    CacheInfo cache;
    cache.level = detail::parse_whole<int>(level).value_or(0);
    cache.type = first_line(dir + "type");
    cache.size = parse_cache_size(first_line(dir + "size"));
    found.push_back(cache);
  }
  return found.empty() ? caches_from_sysconf() : found;
}

}  // namespace

std::uint64_t parse_cache_size(const std::string& text) {
  const std::string_view whole(text);
  const std::size_t digits = std::min(whole.find_first_not_of("0123456789"), whole.size());
  const std::optional<std::uint64_t> value = detail::parse_whole<std::uint64_t>(whole.substr(0, digits));
  const std::string_view unit = whole.substr(digits);
  int shift = 0;
  if (unit == "K")
    shift = 10;
  else if (unit == "M")
    shift = 20;
  else if (unit == "G")
    shift = 30;
  else if (!unit.empty())
    return 0;
  // 0 for a size that would not fit in 64 bits once scaled, as for any other unreadable one.
  if (!value || *value > (std::numeric_limits<std::uint64_t>::max() >> shift)) return 0;
  return *value << shift;
}

BuildInfo build_info() {
  BuildInfo build;
  build.version = kVersion;
  build.commit = NQUEENS_GIT_COMMIT;
  build.compiler = compiler_name();
  build.build_type = kBuildType;
  build.target = NQUEENS_NATIVE_BUILD ? "native" : "portable";
  for (const EngineDescription* engine : registered_engines())
    if (!engine->cpu_path_key.empty())
      build.cpu_paths.push_back(
          {std::string(engine->cpu_path_key), engine->cpu_path(), std::string(engine->path_seen_by)});
  build.tbb_version = TBB_runtime_version();
  return build;
}

HostInfo host_info() {
  HostInfo host;
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) == 0) host.host_name = name;
  host.cpu_model = cpu_model();
  host.caches = caches();
  return host;
}

std::string version_text(const BuildInfo& b) {
  const char* target = b.target == "native" ? "native (-march=native: for CPUs like the build machine's only)"
                                            : "portable (the compiler's default target; SIMD paths chosen at run time)";
  std::string text = fmt::format(
      "nqueens {}\n"
      "commit:       {}\n"
      "compiler:     {}\n"
      "build type:   {}\n"
      "target:       {}\n",
      b.version, b.commit, b.compiler, b.build_type, target);
  for (const auto& [key, path, seen_by] : b.cpu_paths) {
    std::string label = key + ":";
    std::replace(label.begin(), label.end(), '_', ' ');
    text += fmt::format("{:<14}{} (on {})\n", label, path, seen_by);
  }
  return text + fmt::format("oneTBB:       {}\n", b.tbb_version);
}

}  // namespace nqueens::shell
