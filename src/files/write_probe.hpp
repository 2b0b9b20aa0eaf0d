#pragma once
// Whether a file can be written, found by trying: modes, read-only mounts, immutable attributes
// and root's privileges together are only known to the kernel, so a run that will write a file
// later (the journal of the third N of a range) asks it before the first N is counted.
#include <filesystem>
#include <string>
#include <string_view>

namespace nqueens::detail {

//! Why `path` could not be written, or "" when it can: "cannot write to <what> PATH: reason".
//! Tries, on the real file system and without changing any file's bytes:
//! - the file itself, opened for writing when it exists (what its lock and appends need);
//! - a file created and removed where none is yet: the file itself when it does not exist, and
//!   with `with_temporary` also FILE.partial beside it (a file replaced whole is written there);
//!   where its directory is still to be made, a directory made and removed in the nearest one
//!   that exists.
//! Only what this call created is removed; a FILE.partial already there is left alone.
std::string write_refusal(const std::filesystem::path& path, std::string_view what, bool with_temporary);

}  // namespace nqueens::detail
