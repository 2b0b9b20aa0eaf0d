#pragma once
// `count --shard i/k`: the shard file a finished shard leaves for `nqueens merge`.
#include <string>

#include "nqueens/shard.hpp"
#include "supervisor.hpp"

namespace nqueens::shell {

//! Writes the shard file to `path`, or to stdout when `path` is empty. A file is written
//! under a temporary name and renamed into place, so a crash never leaves half a shard file
//! where a merge would find it. Throws std::runtime_error on I/O errors.
void write_shard_file(const SessionResult& session, ShardSpec shard, const std::string& path);

}  // namespace nqueens::shell
