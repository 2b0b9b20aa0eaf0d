#pragma once
// Exit codes of `nqueens` and `nqueens-mpi`, as documented in docs/usage.md.

namespace nqueens::shell {

enum ExitCode : int { kOk = 0, kMismatch = 1, kUsage = 2, kRuntime = 3 };

}  // namespace nqueens::shell
