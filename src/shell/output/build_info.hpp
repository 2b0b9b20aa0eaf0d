#pragma once
// How this program was built and what it runs on: for `nqueens version` and the JSON context
// record, so that a timing or a result can be traced to a build and a machine.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nqueens::shell {

struct BuildInfo {
  std::string version;     //!< "0.1.0"
  std::string commit;      //!< git commit, "-dirty" when the tree differed; "unknown" outside git
  std::string compiler;    //!< "GCC 12.2.0", "clang 14.0.6"
  std::string build_type;  //!< CMAKE_BUILD_TYPE
  std::string target;      //!< "native" (-march=native: runs on CPUs like the build machine's) or "portable"
  //! Each engine's hardware path: its SIMD path on this CPU ("avx512", "avx2", "scalar"), or the
  //! devices its driver sees, keyed as the engine names it ("dfs_kernel"), in registry order;
  //! engines without one are left out.
  struct HardwarePath {
    std::string key, path, seen_by;
  };
  std::vector<HardwarePath> cpu_paths;
  std::string tbb_version;  //!< oneTBB at run time ("2021.8")
};

struct CacheInfo {
  int level = 0;
  std::string type;        //!< "Data", "Instruction", "Unified"
  std::uint64_t size = 0;  //!< bytes
  friend bool operator==(const CacheInfo&, const CacheInfo&) = default;
};

struct HostInfo {
  std::string host_name;
  std::string cpu_model;          //!< "" when /proc/cpuinfo does not say
  std::vector<CacheInfo> caches;  //!< of CPU 0, from /sys; empty when it is not there
};

BuildInfo build_info();
HostInfo host_info();

//! The lines `nqueens version` prints, starting "nqueens 0.1.0".
std::string version_text(const BuildInfo& build);

//! "32K", "1M", "36608K", as /sys writes cache sizes, in bytes; 0 for anything else.
std::uint64_t parse_cache_size(const std::string& text);

}  // namespace nqueens::shell
