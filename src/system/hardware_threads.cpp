#include <oneapi/tbb/info.h>

#include "nqueens/options.hpp"

namespace nqueens {

// The CPUs this process may run on (its affinity mask), as TBB sizes its arenas by them.
int hardware_threads() { return tbb::info::default_concurrency(); }

}  // namespace nqueens
