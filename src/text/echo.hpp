#pragma once
// User text and paths as messages show them: always on one line, and never longer than a
// message needs. Every error that repeats what the user typed (an N spec, a unit list, a
// number, a command name) echoes it through echo(), and every path goes through shown_path(),
// so that a 10 MB argument gives a short line and a file name holding a newline gives one
// line, not two.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace nqueens::detail {

//! How many bytes of user text an error message repeats before it cuts it with "...".
inline constexpr std::size_t kEchoBytes = 40;

//! `text` in single quotes, its control characters, backslashes and quotes escaped (\n, \t,
//! \x1b, \\, \'), cut after `max_bytes` of it (at a character boundary) with "..." appended.
std::string single_quoted(std::string_view text, std::size_t max_bytes = std::string_view::npos);

//! User text for an error message: quoted, escaped, at most kEchoBytes of it ('1111...').
std::string echo(std::string_view text);

//! The same without the quotes, where a message has always shown the text bare ("Value 0x10").
std::string echo_bare(std::string_view text);

//! A path for a message: as it is when it holds only printable characters and no spaces or
//! quotes (the usual case, so messages read as they always did), otherwise quoted and escaped
//! ('my file', 'a\nb'), never cut.
std::string shown_path(const std::filesystem::path& path);

//! `message` with every argument longer than kEchoBytes that it repeats cut as echo_bare() cuts
//! it: for the messages of CLI11, which repeat what was typed in full ("The following argument
//! was not expected: ...", "Value ... not in range").
std::string cut_arguments(std::string message, std::span<char* const> arguments);

//! `message` with every repeat of `text`, where it is longer than `longest` bytes, cut as
//! echo_bare() cuts it: what was typed on the command line, which a message may repeat.
std::string cut_repeats(std::string message, std::string_view text, std::size_t longest = kEchoBytes);

//! An error message made fit for one line on stderr, whatever went into it: control characters
//! escaped, and cut with "..." after kMaxMessageBytes.
inline constexpr std::size_t kMaxMessageBytes = 2000;
std::string one_line(std::string_view message);

}  // namespace nqueens::detail
