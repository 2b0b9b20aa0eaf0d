#pragma once
// TBB caps every arena at the hardware thread count unless told otherwise. Asking for more
// threads than cores is legitimate (tests do it, and so may a user on a shared node), so a run
// that asks for more lifts the cap for its own duration, and only then.
#include <cstddef>
#include <optional>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>

namespace nqueens::detail {

class ThreadAllowance {
 public:
  explicit ThreadAllowance(int threads) {
    if (threads > tbb::info::default_concurrency())
      control_.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  }

 private:
  std::optional<tbb::global_control> control_;
};

}  // namespace nqueens::detail
